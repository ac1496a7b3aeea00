// Anthropic Messages API adapter: streams raw message events and turns them
// into neutral provider events. The stream goes through yuj's own HTTP client
// (anthropic-http.ts); the SDK loads only to list models.

import type Anthropic from "@anthropic-ai/sdk";
import { stringifyAnyDepth } from "../json-depth.js";
import { anthropicTarget, postForEvents, type AnthropicTarget, type PostOptions } from "./anthropic-http.js";
import type { Exchange } from "./capture-fetch.js";
import { AttemptError, incompleteStream, streamErrorBodyFailure } from "./failure.js";
import type { ProviderOptions } from "./index.js";
import { runWithRetries } from "./retry.js";
import { lazyClient, listModelIds, retryOptions, sdkOptions } from "./sdk-client.js";
import type { Provider, ProviderEvent } from "./types.js";
import type { HostedSearch } from "./hosted.js";
import { ResponseContent } from "./anthropic-content.js";
import { toAnthropicBody } from "./wire-history.js";
import { mark } from "../startup-timing.js";

const NAME = "anthropic";

export function createAnthropicProvider(opts: ProviderOptions): Provider {
  const client = lazyClient(NAME, async () => {
    const { default: AnthropicClient } = await import("@anthropic-ai/sdk");
    return new AnthropicClient(sdkOptions(opts, "ANTHROPIC_LOG"));
  });
  return {
    name: NAME,
    async *stream(request, signal) {
      mark("provider stream called");
      const target = anthropicTarget(opts.apiKey, opts.baseURL);
      const body = JSON.stringify({ ...toAnthropicBody(request), stream: true });
      mark("request body built");
      const post: PostOptions = { timeoutMs: opts.requestTimeoutMs, idleTimeoutMs: opts.requestTimeoutMs };
      yield* runWithRetries(retryOptions(opts, NAME), signal, (_fetch, attemptSignal, exchange) =>
        attempt(target, body, post, exchange, attemptSignal),
      );
    },
    async listModels(signal) {
      return listModelIds(NAME, await client(), signal, (c) => c.models.list({ limit: 1000 }, { signal }));
    },
  };
}

/** The stream's events as the SDK's raw stream gave them: pings and unnamed events dropped, an error event thrown. */
async function* rawEvents(
  target: AnthropicTarget,
  body: string,
  post: PostOptions,
  exchange: Exchange,
  signal: AbortSignal,
): AsyncGenerator<Anthropic.RawMessageStreamEvent> {
  for await (const sse of postForEvents(target, body, exchange, post, signal)) {
    if (sse.event === null || sse.event === "ping") continue;
    if (sse.event === "error") throw new AttemptError(streamErrorBodyFailure(parseOr(sse.data)));
    if (sse.data) yield JSON.parse(sse.data) as Anthropic.RawMessageStreamEvent;
  }
}

function parseOr(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

async function* attempt(
  target: AnthropicTarget,
  body: string,
  post: PostOptions,
  exchange: Exchange,
  signal: AbortSignal,
): AsyncGenerator<ProviderEvent, string> {
  const stream = rawEvents(target, body, post, exchange, signal);
  // Open tool_use blocks by content index: the id, whether any argument text
  // came, and the input given at block start (used when none came).
  const tools = new Map<number, { id: string; streamed: boolean; input: unknown }>();
  // The provider's own search calls: their query streams like a tool's input.
  const searches = new ServerSearches();
  // The blocks whole, for a turn that pauses (sent back to resume it).
  const content = new ResponseContent();
  const usage = { input: 0, cacheRead: 0, cacheWrite: 0, output: 0 };
  let stopReason = "end_turn";
  let complete = false;

  for await (const event of stream) {
    switch (event.type) {
      case "message_start":
        takeUsage(usage, event.message.usage);
        break;
      case "content_block_start": {
        const block = event.content_block;
        content.start(event.index, block);
        if (block.type === "text" && block.text) {
          yield { type: "text_delta", text: block.text };
        } else if (block.type === "tool_use") {
          tools.set(event.index, { id: block.id, streamed: false, input: block.input });
          yield { type: "tool_call_start", id: block.id, name: block.name };
        } else if (block.type === "server_tool_use" && block.name === "web_search") {
          searches.started(event.index, block.id, block.input);
        } else if (block.type === "web_search_tool_result") {
          yield { type: "hosted_search", search: searches.result(block.tool_use_id, block.content) };
        }
        break;
      }
      case "content_block_delta": {
        const delta = event.delta;
        content.delta(event.index, delta);
        if (delta.type === "text_delta" && delta.text) {
          yield { type: "text_delta", text: delta.text };
        } else if (delta.type === "citations_delta" && delta.citation.type === "web_search_result_location") {
          const c = delta.citation;
          yield { type: "hosted_citation", citation: { url: c.url, ...(c.title ? { title: c.title } : {}), ...(c.cited_text ? { text: c.cited_text } : {}) } };
        } else if (delta.type === "input_json_delta" && delta.partial_json && searches.takes(event.index)) {
          searches.delta(event.index, delta.partial_json);
        } else if (delta.type === "input_json_delta" && delta.partial_json) {
          const tool = tools.get(event.index);
          if (tool) {
            tool.streamed = true;
            yield { type: "tool_call_delta", id: tool.id, delta: delta.partial_json };
          }
        }
        break;
      }
      case "content_block_stop": {
        content.stop(event.index);
        const tool = tools.get(event.index);
        if (tool) {
          tools.delete(event.index);
          yield* endTool(tool);
        }
        break;
      }
      case "message_delta":
        if (event.delta.stop_reason) stopReason = event.delta.stop_reason;
        takeUsage(usage, event.usage);
        break;
      case "message_stop":
        complete = true;
        break;
    }
  }
  if (!complete) throw incompleteStream("message_stop");
  for (const tool of tools.values()) yield* endTool(tool);
  if (stopReason === "pause_turn") yield { type: "paused", content: content.content() };
  yield {
    type: "usage",
    usage: {
      // The API counts cached and cache-written prompt tokens apart from
      // `input_tokens`; the neutral figure is the whole prompt.
      inputTokens: usage.input + usage.cacheRead + usage.cacheWrite,
      outputTokens: usage.output,
      cachedTokens: usage.cacheRead,
    },
  };
  return stopReason;
}

/**
 * A tool call without streamed arguments (a call with no parameters) still
 * needs a JSON text: the input the block started with, normally `{}`.
 */
function* endTool(tool: { id: string; streamed: boolean; input: unknown }): Generator<ProviderEvent> {
  if (!tool.streamed) {
    // Any depth: arguments too deep to handle are refused later, as text.
    yield { type: "tool_call_delta", id: tool.id, delta: stringifyAnyDepth(tool.input ?? {}) };
  }
  yield { type: "tool_call_end", id: tool.id };
}

/** Server-side web searches of one response: the query as it streams, then the result block naming the call. */
class ServerSearches {
  private byIndex = new Map<number, string>();
  private calls = new Map<string, { input: unknown; json: string }>();

  started(index: number, id: string, input: unknown): void {
    this.byIndex.set(index, id);
    this.calls.set(id, { input, json: "" });
  }
  takes(index: number): boolean {
    return this.byIndex.has(index);
  }
  delta(index: number, json: string): void {
    const call = this.calls.get(this.byIndex.get(index)!);
    if (call) call.json += json;
  }
  result(toolUseId: string, content: Anthropic.WebSearchToolResultBlockContent): HostedSearch {
    const call = this.calls.get(toolUseId);
    let input = call?.input;
    try {
      if (call?.json) input = JSON.parse(call.json);
    } catch {
      // A query that did not arrive whole: the search still reports its sources.
    }
    const query = typeof (input as { query?: unknown })?.query === "string" ? (input as { query: string }).query : "";
    const reported = input === undefined ? {} : { input };
    if (!Array.isArray(content)) return { id: toolUseId, query, sources: [], error: content.error_code, ...reported };
    return { id: toolUseId, query, sources: content.map((r) => ({ url: r.url, ...(r.title ? { title: r.title } : {}) })), ...reported };
  }
}

/** Counts arrive in message_start and (cumulatively, some nullable) in message_delta. */
function takeUsage(
  into: { input: number; cacheRead: number; cacheWrite: number; output: number },
  from: {
    input_tokens?: number | null;
    output_tokens?: number | null;
    cache_read_input_tokens?: number | null;
    cache_creation_input_tokens?: number | null;
  },
): void {
  if (typeof from.input_tokens === "number") into.input = from.input_tokens;
  if (typeof from.output_tokens === "number") into.output = from.output_tokens;
  if (typeof from.cache_read_input_tokens === "number") into.cacheRead = from.cache_read_input_tokens;
  if (typeof from.cache_creation_input_tokens === "number") into.cacheWrite = from.cache_creation_input_tokens;
}
