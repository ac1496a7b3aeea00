// A provider that plays a scenario file instead of calling a model: the
// offline demo and the loop's tests run on it. Turns answer requests in
// order. The count starts from the assistant turns already in the first
// request (a resumed session goes on where it stopped) and then moves one a
// request: counting the history every time would go wrong once a request
// carries less than the whole history (think, rewind, compaction).

import type { ModelRequest } from "../history.js";
import type { Provider, ProviderEvent } from "./types.js";
import { systemClock } from "../services.js";
import { callArgumentsText, callId, chunkText, type Scenario } from "./scenario.js";

export interface ScriptedOptions {
  /** Pause between streamed pieces, so the demo reads like a live model. */
  delayMs?: number;
}

export function scriptedProvider(scenario: Scenario, opts: ScriptedOptions = {}): Provider {
  const delay = opts.delayMs ?? 0;
  let next: number | undefined;
  return {
    name: "scripted",
    forAgent({ taskId, agentType }) {
      const own = scenario.agents?.[taskId] ?? scenario.agents?.[agentType];
      return own ? scriptedProvider({ description: scenario.description, ...own }, opts) : this;
    },
    async listModels() {
      return ["scripted"];
    },
    async *stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ProviderEvent> {
      const turnIndex = next ?? request.history.filter((h) => h.role === "assistant").length;
      next = turnIndex + 1;
      // The neutral request stands in for a wire body, so that a replay of a
      // scripted session compares what the loop sent, not just a turn number.
      const body = {
        model: request.model,
        turn: turnIndex,
        system: request.system,
        history: request.history,
        tools: request.tools.map((t) => t.name),
        maxOutputTokens: request.maxOutputTokens,
      };
      yield { type: "raw_request", url: "scripted:", body: JSON.stringify(body, withoutImageBytes) };
      const turn = scenario.turns[turnIndex];
      const pause = async () => {
        if (delay > 0) await systemClock.sleep(delay, signal);
        if (signal.aborted) throw signal.reason ?? new Error("aborted");
      };
      const text = turn ? turn.text : scenario.fallback_text;
      for (const piece of chunkText(text, 12)) {
        await pause();
        yield { type: "text_delta", text: piece };
      }
      const calls = turn?.tool_calls ?? [];
      for (const [i, call] of calls.entries()) {
        const id = callId(call, turnIndex, i);
        yield { type: "tool_call_start", id, name: call.name };
        for (const piece of chunkText(callArgumentsText(call), 16)) {
          await pause();
          yield { type: "tool_call_delta", id, delta: piece };
        }
        yield { type: "tool_call_end", id };
      }
      const usage = turn?.usage;
      yield {
        type: "usage",
        usage: {
          inputTokens: usage?.input ?? 0,
          outputTokens: usage?.output ?? 0,
          cachedTokens: usage?.cached ?? 0,
        },
      };
      yield { type: "raw_response", status: 200, body: JSON.stringify(turn ?? { text }) };
      yield { type: "finish", stopReason: calls.length ? "tool_use" : "end_turn" };
    },
  };
}

/**
 * Image bytes never go into a trace (the wire adapters' bodies are elided the
 * same way); an image in the history is named by its size instead.
 */
function withoutImageBytes(this: unknown, key: string, value: unknown): unknown {
  const holder = this as { mediaType?: unknown };
  if (key === "data" && typeof value === "string" && typeof holder.mediaType === "string") {
    return `[image data omitted: ${value.length} base64 chars]`;
  }
  return value;
}
