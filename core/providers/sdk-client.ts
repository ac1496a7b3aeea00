// What the three adapters share about their SDK clients: the options every
// client gets, lazy construction, and listing models.

import { createCaptureFetch } from "./capture-fetch.js";
import { classifyFailure } from "./failure.js";
import type { ProviderOptions } from "./index.js";
import { abortError, finalError, type RetryOptions } from "./retry.js";
import { ProviderError } from "./types.js";

/** The part of an SDK client this program relies on for per-attempt capture. */
export interface CloneableClient {
  withOptions(options: { fetch: typeof globalThis.fetch }): this;
}

/**
 * Options common to both SDKs. apiKey/baseURL are left out entirely when not
 * given, so the SDK falls back to its environment variables. Its own retries
 * are off (ours report themselves as events). Its logging is off too, unless
 * the user asked for it with ANTHROPIC_LOG / OPENAI_LOG, because stray console
 * output would tear through the terminal UI.
 */
export function sdkOptions(opts: ProviderOptions, logEnvVar: string) {
  return {
    maxRetries: 0,
    timeout: opts.requestTimeoutMs,
    ...(opts.apiKey !== undefined ? { apiKey: opts.apiKey } : {}),
    ...(opts.baseURL !== undefined ? { baseURL: opts.baseURL } : {}),
    ...(process.env[logEnvVar] ? {} : { logLevel: "off" as const }),
  };
}

export function retryOptions(opts: ProviderOptions, provider: string): RetryOptions {
  return {
    provider,
    maxRetries: opts.maxRetries,
    idleTimeoutMs: opts.requestTimeoutMs,
    ...(opts.backoffBaseMs !== undefined ? { backoffBaseMs: opts.backoffBaseMs } : {}),
    ...(opts.sleep ? { sleep: opts.sleep } : {}),
  };
}

/**
 * Builds the client on first use. Loading or constructing it can fail (no
 * API key, a bad base URL); that becomes a ProviderError, and the next call
 * tries again rather than remembering the failure.
 */
export function lazyClient<T>(provider: string, make: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    pending ??= make().catch((err: unknown) => {
      pending = undefined;
      if (err instanceof ProviderError) throw err;
      const message = err instanceof Error ? err.message : String(err);
      const aboutKey = /api.?key|credential|auth/i.test(message);
      throw new ProviderError(provider, undefined, `cannot create the client: ${message}`, aboutKey ? "auth" : "config");
    });
    return pending;
  };
}

/** Lists model ids through `list`, reporting failures like a stream would. */
export async function listModelIds<C extends CloneableClient>(
  provider: string,
  client: C,
  signal: AbortSignal,
  list: (client: C) => AsyncIterable<{ id: string }>,
): Promise<string[]> {
  const capture = createCaptureFetch();
  try {
    const ids: string[] = [];
    for await (const model of list(client.withOptions({ fetch: capture.fetch }))) ids.push(model.id);
    if (signal.aborted) throw abortError(signal);
    return ids;
  } catch (err) {
    if (signal.aborted) throw abortError(signal);
    throw finalError(provider, classifyFailure(err, capture.exchange), 1);
  }
}
