// One model turn: send the request, turn the provider's stream into core
// events as it arrives, and collect the assistant's text and tool calls.

import type { Emit, Usage } from "./events.js";
import type { ModelRequest, ToolCall } from "./history.js";
import { elideImageData } from "./providers/elide-images.js";
import type { Provider } from "./providers/types.js";

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

  const reset = () => {
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
          let id = ev.id;
          if (!id || seen.has(id)) id = deps.newCallId();
          seen.add(id);
          idMap.set(ev.id, id);
          calls.set(id, { id, name: ev.name, args: "", ended: false });
          order.push(id);
          emit({ type: "tool_call_started", callId: id, name: ev.name });
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
          emit({ type: "tool_call_finished", callId: call.id, name: call.name, args: call.args });
          break;
        }
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
  // A stream that ends without closing a call still hands the call over:
  // its arguments are whatever arrived, and validation will judge them.
  for (const id of order) {
    const call = calls.get(id)!;
    if (!call.ended) {
      call.ended = true;
      emit({ type: "tool_call_finished", callId: call.id, name: call.name, args: call.args });
    }
  }
  return { ...collected(text, order, calls, stopReason, deps.signal.aborted), ...(usage ? { usage } : {}) };
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
