// One model turn: send the request, turn the provider's stream into core
// events as it arrives, and collect the assistant's text and tool calls.

import type { Emit, Usage } from "./events.js";
import type { ModelRequest, ToolCall } from "./history.js";
import { elideImageData } from "./providers/elide-images.js";
import type { Provider } from "./providers/types.js";
import type { ToolCardLayout, ToolDisplay } from "./display-schema.js";
import type { ActiveToolset } from "./profiles/activate.js";
import { boundDisplay } from "./display-bound.js";
import { callView } from "./tool-facts.js";
import { searchSummary, sourcesBlock, type HostedSearch } from "./providers/hosted.js";

export interface CollectedTurn {
  text: string;
  /** Calls whose arguments finished streaming, in the order they started. */
  calls: ToolCall[];
  /** Calls that started but were cut off (only when cancelled mid-stream). */
  unfinished: ToolCall[];
  stopReason?: string;
  /** Set when the stream ended because the run was cancelled. */
  cancelled: boolean;
  /** The usage the provider reported for this request, if it did. */
  usage?: Usage;
}

export interface TurnStreamDeps {
  provider: Provider;
  emit: Emit;
  signal: AbortSignal;
  usageTotal: Usage;
  /** Makes a call id when a provider sends none (or a duplicate). */
  newCallId: () => string;
  /** How the tools' cards look: what tool_call_started and tool_call_finished carry for the view. */
  views?: CallViews;
}

export interface CallViews {
  /** Resolves once the tool's handler can describe its calls (its code may load on first use). */
  ready?(name: string): Promise<void> | undefined;
  layout(name: string): ToolCardLayout | undefined;
  finished(name: string, args: string): { summary?: string; preview?: ToolDisplay };
}

/** The views of a toolset's tools; a name no tool has gets none. */
export function toolViews(toolset: ActiveToolset, cwd: string): CallViews {
  return {
    ready: (name) => toolset.tools.get(name)?.handler.load?.(),
    layout: (name) => {
      const view = toolset.tools.get(name)?.handler.view;
      return view ? { card: view.card, ...(view.controlField ? { controlField: view.controlField } : {}) } : undefined;
    },
    finished: (name, args) => {
      const tool = toolset.tools.get(name);
      return tool ? callView(tool.handler, args, { cwd, name }) : {};
    },
  };
}

export async function streamTurn(request: ModelRequest, deps: TurnStreamDeps): Promise<CollectedTurn> {
  const { emit } = deps;
  const requestId = `req_${deps.newCallId()}`;
  emit({
    type: "request_sent",
    requestId,
    provider: deps.provider.name,
    model: request.model,
    messageCount: request.history.length,
    // The body's size is in the provider_request event that follows; making
    // it here would serialise the whole history a second time every turn.
    toolNames: request.tools.map((t) => t.name),
  });

  let text = "";
  let order: string[] = [];
  let calls = new Map<string, { id: string; name: string; args: string; ended: boolean }>();
  // Provider ids are mapped to ids unique within the session.
  let idMap = new Map<string, string>();
  const seen = new Set<string>();
  let stopReason: string | undefined;
  let usage: Usage | undefined;
  let searches: HostedSearch[] = [];

  const reset = () => {
    searches = [];
    text = "";
    order = [];
    calls = new Map();
    idMap = new Map();
  };

  try {
    for await (const ev of deps.provider.stream(request, deps.signal)) {
      switch (ev.type) {
        case "raw_request":
          emit({ type: "provider_request", requestId, url: ev.url, body: elideImageData(ev.body) });
          break;
        case "raw_response":
          emit({ type: "provider_response", requestId, status: ev.status, body: ev.body });
          break;
        case "text_delta":
          text += ev.text;
          emit({ type: "assistant_text_delta", text: ev.text });
          break;
        case "tool_call_start": {
          await deps.views?.ready?.(ev.name);
          let id = ev.id;
          if (!id || seen.has(id)) id = deps.newCallId();
          seen.add(id);
          idMap.set(ev.id, id);
          calls.set(id, { id, name: ev.name, args: "", ended: false });
          order.push(id);
          const layout = deps.views?.layout(ev.name);
          emit({ type: "tool_call_started", callId: id, name: ev.name, ...(layout ? { view: layout } : {}) });
          break;
        }
        case "tool_call_delta": {
          const call = calls.get(idMap.get(ev.id) ?? ev.id);
          if (!call) break;
          call.args += ev.delta;
          emit({ type: "tool_call_args_delta", callId: call.id, delta: ev.delta });
          break;
        }
        case "tool_call_end": {
          const call = calls.get(idMap.get(ev.id) ?? ev.id);
          if (!call || call.ended) break;
          call.ended = true;
          emit(finishedEvent(call, deps.views));
          break;
        }
        case "hosted_search":
          searches.push(ev.search);
          reportSearch(ev.search, deps);
          break;
        case "usage":
          usage = ev.usage;
          deps.usageTotal.inputTokens += ev.usage.inputTokens;
          deps.usageTotal.outputTokens += ev.usage.outputTokens;
          deps.usageTotal.cachedTokens += ev.usage.cachedTokens;
          emit({ type: "usage", usage: ev.usage, total: { ...deps.usageTotal } });
          break;
        case "retry":
          if (ev.discardedPartial) reset();
          emit({
            type: "retry",
            attempt: ev.attempt,
            delayMs: ev.delayMs,
            reason: ev.reason,
            discardedPartial: ev.discardedPartial,
            ...(ev.status === undefined ? {} : { status: ev.status }),
          });
          break;
        case "finish":
          stopReason = ev.stopReason;
          break;
      }
    }
  } catch (err) {
    if (!deps.signal.aborted) throw err;
    return { ...collected(text, order, calls, stopReason, true), ...(usage ? { usage } : {}) };
  }
  // The searches' sources close the model's text, numbered, so later turns
  // (and whoever reads the answer) keep them: the search results themselves
  // are not sent back.
  const sources = sourcesBlock(searches);
  if (sources) {
    const tail = `${text ? "\n\n" : ""}${sources}`;
    text += tail;
    emit({ type: "assistant_text_delta", text: tail });
  }
  // A stream that ends without closing a call still hands the call over:
  // its arguments are whatever arrived, and validation will judge them.
  for (const id of order) {
    const call = calls.get(id)!;
    if (!call.ended) {
      call.ended = true;
      emit(finishedEvent(call, deps.views));
    }
  }
  return { ...collected(text, order, calls, stopReason, deps.signal.aborted), ...(usage ? { usage } : {}) };
}

/**
 * A hosted search gets a card like a tool call, with its summary as the
 * result. It is not a call of the conversation: the provider ran it, so
 * nothing answers it and the history does not hold it.
 */
function reportSearch(search: HostedSearch, deps: TurnStreamDeps): void {
  const callId = `${search.id || "search"}_${deps.newCallId()}`;
  const args = JSON.stringify({ query: search.query });
  deps.emit({ type: "tool_call_started", callId, name: "web_search" });
  deps.emit({ type: "tool_call_finished", callId, name: "web_search", args, summary: search.query });
  deps.emit({ type: "tool_result", callId, name: "web_search", ok: !search.error, modelText: searchSummary(search), durationMs: 0 });
}

/** A preview shows what a call will do; past this it is cut (the arguments themselves are in the event). */
const PREVIEW_MAX_CHARS = 64 * 1024;

function finishedEvent(call: { id: string; name: string; args: string }, views: CallViews | undefined) {
  const { summary, preview } = views?.finished(call.name, call.args) ?? {};
  return {
    type: "tool_call_finished" as const,
    callId: call.id,
    name: call.name,
    args: call.args,
    ...(summary === undefined ? {} : { summary }),
    ...(preview === undefined ? {} : { preview: boundDisplay(preview, PREVIEW_MAX_CHARS) }),
  };
}

function collected(
  text: string,
  order: string[],
  calls: Map<string, { id: string; name: string; args: string; ended: boolean }>,
  stopReason: string | undefined,
  cancelled: boolean,
): CollectedTurn {
  const all = order.map((id) => calls.get(id)!);
  const strip = (c: { id: string; name: string; args: string }): ToolCall => ({ id: c.id, name: c.name, args: c.args });
  return {
    text,
    calls: all.filter((c) => c.ended).map(strip),
    unfinished: all.filter((c) => !c.ended).map(strip),
    cancelled,
    ...(stopReason === undefined ? {} : { stopReason }),
  };
}
