// One interface for every model backend: a request goes in, a stream of
// neutral events comes out. Adapters own the wire format; the loop never sees it.

import type { ModelRequest } from "../history.js";
import type { Usage } from "../events.js";
import type { HostedCitation, HostedSearch } from "./hosted.js";

export type ProviderEvent =
  | { type: "text_delta"; text: string }
  /** A tool call begins; `id` is the provider's call id. */
  | { type: "tool_call_start"; id: string; name: string }
  | { type: "tool_call_delta"; id: string; delta: string }
  | { type: "tool_call_end"; id: string }
  | { type: "usage"; usage: Usage }
  /** A search the provider ran itself (a hosted tool): no handler runs, the result is reported. */
  | { type: "hosted_search"; search: HostedSearch }
  /** The model's text cites a page a hosted search found (read by a tool that runs the search in a request of its own). */
  | { type: "hosted_citation"; citation: HostedCitation }
  /**
   * The provider paused a long-running turn of its own tools (Anthropic's
   * pause_turn); `content` is the turn so far, exactly as the provider sent it,
   * for a request that resumes it (ModelRequest.resumeContent).
   */
  | { type: "paused"; content: readonly unknown[] }
  /** The raw request body exactly as sent (no headers). */
  | { type: "raw_request"; url: string; body: string }
  /** The raw response body exactly as received (SSE text for streams). */
  | { type: "raw_response"; status: number; body: string }
  /**
   * The adapter is about to retry. `discardedPartial` says whether events of
   * the failed attempt were already yielded (the consumer must drop them).
   */
  | {
      type: "retry";
      attempt: number;
      delayMs: number;
      reason: string;
      status?: number;
      discardedPartial: boolean;
    }
  | { type: "finish"; stopReason: string };

export interface Provider {
  /** "anthropic" | "openai" | "openai-chat" | "scripted" */
  readonly name: string;
  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ProviderEvent>;
  /** Model ids the backend offers (for `yuj models`). */
  listModels?(signal: AbortSignal): Promise<string[]>;
  /**
   * The provider a delegated worker talks to, when the backend keeps one per
   * agent (a scripted scenario plays each worker its own turns); absent: the
   * same provider serves every agent.
   */
  forAgent?(agent: { taskId: string; agentType: string }): Provider;
}

/** A failure after all retries, with what a user needs to act on it. */
export class ProviderError extends Error {
  constructor(
    readonly provider: string,
    readonly status: number | undefined,
    readonly serverMessage: string,
    readonly code: "http" | "connection" | "stream" | "auth" | "config" = "http",
  ) {
    super(
      `${provider}: ` +
        (status !== undefined ? `HTTP ${status}: ` : "") +
        serverMessage,
    );
    this.name = "ProviderError";
  }
}
