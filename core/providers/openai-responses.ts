// OpenAI Responses API adapter. Nothing is stored server-side (`store: false`):
// the whole conversation is sent each turn, as with the other adapters.

import type OpenAI from "openai";
import { AttemptError, incompleteStream, streamErrorFailure } from "./failure.js";
import type { ProviderOptions } from "./index.js";
import { runWithRetries } from "./retry.js";
import { lazyClient, listModelIds, retryOptions, sdkOptions } from "./sdk-client.js";
import type { Provider, ProviderEvent } from "./types.js";
import type { HostedCitation, HostedSearch } from "./hosted.js";
import { toResponsesBody } from "./wire-history.js";

const NAME = "openai";

export function createResponsesProvider(opts: ProviderOptions): Provider {
  const client = lazyClient(NAME, async () => {
    const { default: OpenAIClient } = await import("openai");
    return new OpenAIClient(sdkOptions(opts, "OPENAI_LOG"));
  });
  return {
    name: NAME,
    async *stream(request, signal) {
      const base = await client();
      const body = toResponsesBody(request);
      yield* runWithRetries(retryOptions(opts, NAME), signal, (fetch, attemptSignal) =>
        attempt(base.withOptions({ fetch }), body, attemptSignal),
      );
    },
    async listModels(signal) {
      return listModelIds(NAME, await client(), signal, (c) => c.models.list({ signal }));
    },
  };
}

type Body = ReturnType<typeof toResponsesBody>;

interface OpenCall {
  callId: string;
  /** Whether argument deltas came (some servers send only the finished item). */
  streamed: boolean;
  ended: boolean;
}

async function* attempt(client: OpenAI, body: Body, signal: AbortSignal): AsyncGenerator<ProviderEvent, string> {
  const stream = await client.responses.create({ ...body, stream: true, store: false }, { signal });
  // Deltas name the output item (fc_…), the model and the next request name
  // the call (call_…): keep the item → call mapping.
  const calls = new Map<string, OpenCall>();
  let stopReason: string | undefined;
  let usage: OpenAI.Responses.ResponseUsage | null | undefined;
  // Hosted searches are reported at the end: the pages' titles come later, in the text's citations.
  const searches: HostedSearch[] = [];
  const titles = new Map<string, string>();

  for await (const event of stream) {
    switch (event.type) {
      case "response.output_item.added": {
        const item = event.item;
        if (item.type !== "function_call") break;
        const call: OpenCall = { callId: item.call_id, streamed: false, ended: false };
        calls.set(item.id ?? item.call_id, call);
        yield { type: "tool_call_start", id: call.callId, name: item.name };
        if (item.arguments) {
          call.streamed = true;
          yield { type: "tool_call_delta", id: call.callId, delta: item.arguments };
        }
        break;
      }
      case "response.function_call_arguments.delta": {
        const call = calls.get(event.item_id);
        if (call && event.delta) {
          call.streamed = true;
          yield { type: "tool_call_delta", id: call.callId, delta: event.delta };
        }
        break;
      }
      case "response.output_text.delta":
        if (event.delta) yield { type: "text_delta", text: event.delta };
        break;
      case "response.output_text.annotation.added":
        noteCitation(titles, event.annotation);
        break;
      case "response.output_item.done": {
        const item = event.item;
        if (item.type === "web_search_call") searches.push(searchOf(item));
        if (item.type === "message") {
          for (const part of item.content) {
            if (part.type !== "output_text") continue;
            for (const a of part.annotations) {
              noteCitation(titles, a);
              const citation = citationOf(a, part.text);
              if (citation) yield { type: "hosted_citation", citation };
            }
          }
        }
        if (item.type !== "function_call") break;
        let call = calls.get(item.id ?? item.call_id);
        if (!call) {
          call = { callId: item.call_id, streamed: false, ended: false };
          calls.set(item.id ?? item.call_id, call);
          yield { type: "tool_call_start", id: call.callId, name: item.name };
        }
        if (!call.streamed) yield { type: "tool_call_delta", id: call.callId, delta: item.arguments || "{}" };
        call.ended = true;
        yield { type: "tool_call_end", id: call.callId };
        break;
      }
      case "response.completed":
        usage = event.response.usage;
        stopReason = calls.size > 0 ? "tool_use" : "end_turn";
        break;
      case "response.incomplete": {
        usage = event.response.usage;
        const why = event.response.incomplete_details?.reason ?? "incomplete";
        stopReason = why === "max_output_tokens" ? "max_tokens" : why;
        break;
      }
      case "response.failed": {
        const error = event.response.error;
        throw new AttemptError(streamErrorFailure(error?.code ?? "response_failed", error?.message));
      }
      case "error":
        throw new AttemptError(streamErrorFailure(event.code ?? "error", event.message));
    }
  }
  if (stopReason === undefined) throw incompleteStream("response.completed");
  for (const search of searches) {
    const sources = search.sources.map((src) => (titles.has(src.url) ? { ...src, title: titles.get(src.url)! } : src));
    yield { type: "hosted_search", search: { ...search, sources } };
  }
  for (const call of calls.values()) {
    if (!call.ended) yield { type: "tool_call_end", id: call.callId };
  }
  if (usage) {
    yield {
      type: "usage",
      usage: {
        inputTokens: usage.input_tokens,
        outputTokens: usage.output_tokens,
        cachedTokens: usage.input_tokens_details?.cached_tokens ?? 0,
      },
    };
  }
  return stopReason;
}

/** A finished web_search_call item: its query and the pages it found (when the request asked for them). */
function searchOf(item: OpenAI.Responses.ResponseFunctionWebSearch): HostedSearch {
  const action = item.action as { type: string; query?: string; queries?: string[]; sources?: Array<{ url: string }>; url?: string };
  const query = action.query ?? action.queries?.join("; ") ?? action.url ?? "";
  const sources = (action.sources ?? []).map((s) => ({ url: s.url }));
  // The reported input is the action without its sources (they are listed apart).
  const { sources: _listed, ...input } = action;
  return { id: item.id, query, sources, input, ...(item.status === "failed" ? { error: "the search failed" } : {}) };
}

/** A url_citation with the span of the text it covers (offsets count characters, not UTF-16 units). */
function citationOf(annotation: unknown, text: string): HostedCitation | undefined {
  const a = annotation as { type?: string; url?: unknown; title?: unknown; start_index?: unknown; end_index?: unknown };
  if (a?.type !== "url_citation" || typeof a.url !== "string") return undefined;
  const chars = Array.from(text);
  const { start_index: start, end_index: end } = a;
  const inRange = typeof start === "number" && typeof end === "number" && start >= 0 && end >= start && end <= chars.length;
  const span = inRange ? chars.slice(start, end).join("") : "";
  return { url: a.url, ...(typeof a.title === "string" && a.title ? { title: a.title } : {}), ...(span ? { text: span } : {}) };
}

/** A url_citation names a page's title; it is kept by URL for the sources list. */
function noteCitation(titles: Map<string, string>, annotation: unknown): void {
  const a = annotation as { type?: string; url?: unknown; title?: unknown };
  if (a?.type === "url_citation" && typeof a.url === "string" && typeof a.title === "string" && a.title) titles.set(a.url, a.title);
}
