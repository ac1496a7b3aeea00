// The factory for the real model backends. Each adapter module, and the SDK it
// wraps, is loaded only when that provider is chosen: the SDKs are large and
// `yuj --help` or a scripted run should not pay for them.

import type { Provider } from "./types.js";

export type ProviderName = "anthropic" | "openai" | "openai-chat";

export interface ProviderOptions {
  name: ProviderName;
  model: string;
  /** When undefined the SDK reads ANTHROPIC_API_KEY / OPENAI_API_KEY itself. */
  apiKey?: string;
  /** When undefined the SDK reads ANTHROPIC_BASE_URL / OPENAI_BASE_URL itself. */
  baseURL?: string;
  /** Retries after the first attempt. */
  maxRetries: number;
  /** Limit for the response headers to arrive, and for any silence mid-stream. */
  requestTimeoutMs: number;
  /** First backoff delay (default 1000 ms); tests make it small. */
  backoffBaseMs?: number;
  /** Waits between retries; must reject when `signal` aborts. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/**
 * Stop reasons in `finish` events, the same for every adapter:
 * "end_turn" (the model finished), "tool_use" (it wants tool results),
 * "max_tokens" (cut at the output limit); anything else is passed on as the
 * API named it (e.g. "refusal", "content_filter").
 */
export type StopReason = "end_turn" | "tool_use" | "max_tokens" | (string & {});

export async function createProvider(opts: ProviderOptions): Promise<Provider> {
  switch (opts.name) {
    case "anthropic":
      return (await import("./anthropic.js")).createAnthropicProvider(opts);
    case "openai":
      return (await import("./openai-responses.js")).createResponsesProvider(opts);
    case "openai-chat":
      return (await import("./openai-chat.js")).createChatProvider(opts);
    default: {
      const name: never = opts.name;
      throw new Error(`unknown provider: ${String(name)}`);
    }
  }
}
