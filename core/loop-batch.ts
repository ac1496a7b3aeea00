// Running one response's tool calls: read-only calls side by side, anything
// that writes alone and in order, and each batch's results saved to the
// history before they are reported, so what a view or trace shows is what a
// resume finds.

import type { HistoryItem, ToolCall } from "./history.js";
import type { LoopDeps } from "./loop.js";
import {
  runsAlongsideOthers,
  loadHandlersOf,
  prepareCall,
  reportResults,
  runPrepared,
  settleResult,
  type CallOutcome,
  type PreparedCall,
} from "./dispatch.js";
import { conversationRoles } from "./context/shape.js";
import { batchFinished } from "./hooks/loop-points.js";
import { guardCallOf } from "./tool-facts.js";

/**
 * Runs a turn's calls: consecutive read-only calls together, anything that
 * writes alone and in order. Calls after a finish call or a question are not
 * run. Each batch's results go into the history as soon as it is done, so a
 * process killed during a later call keeps them.
 */
export async function dispatchAll(
  history: HistoryItem[],
  calls: ToolCall[],
  deps: LoopDeps,
  turn: number,
): Promise<{ outcomes: CallOutcome[]; pending?: CallOutcome[]; question?: { callId: string; question: string } }> {
  await loadHandlersOf(deps.toolset, calls.map((c) => c.name));
  const prepared = calls.map((c) => prepareCall(c, deps.toolset, deps.config));
  const outcomes: CallOutcome[] = [];
  // Saved first, reported after: a result the trace, stdout or the view
  // shows is one a resume finds.
  const record = (results: CallOutcome[]) => {
    outcomes.push(...results);
    for (const r of results) pushResult(history, r);
    if (results.length) deps.onStep?.(history);
    reportResults(results, deps.emit);
  };
  let finished: string | undefined;
  let question: { callId: string; question: string } | undefined;
  let i = 0;
  while (i < prepared.length) {
    if (finished) {
      const skipped = prepared[i++]!;
      const why = question && deps.oneQuestion && isQuestion(skipped) ? SECOND_QUESTION : finished;
      record([settleResult(skipped.call, { ok: false, modelText: `ERROR: not run: ${why}` }, false, deps, 0)]);
      continue;
    }
    const batch: PreparedCall[] = [prepared[i++]!];
    const alongside = (p: PreparedCall) => runsAlongsideOthers(p, deps) && !isFinishCall(p);
    if (alongside(batch[0]!)) {
      while (i < prepared.length && alongside(prepared[i]!)) batch.push(prepared[i++]!);
    }
    // Handlers that steer the conversation (rewind) read the history so far.
    const conversation = { history, roles: conversationRoles(deps.toolset.tools) };
    const results = await Promise.all(batch.map((p) => runPrepared(p, { ...deps, conversation })));
    if (results.some((r) => r.paused)) {
      // The paused calls and everything after them wait for the answer.
      const later = prepared.slice(i).map((p): CallOutcome => ({ call: p.call, ok: false, modelText: "", cancelled: false }));
      record(results.filter((r) => !r.paused));
      return { outcomes, pending: [...results.filter((r) => r.paused), ...later] };
    }
    // A question's call gets its result (the answer) when the session resumes.
    const asked = results.find((r) => r.question !== undefined);
    record(results.filter((r) => r !== asked));
    if (asked) {
      question = { callId: asked.call.id, question: asked.question! };
      finished = "the model asked the operator a question earlier in the same response; call it again after the answer if it is still needed";
    } else if (results.some((r) => r.finish)) {
      finished = "the task was finished by an earlier call in the same response";
    }
  }
  reportBatch(prepared, outcomes, deps, turn);
  return question ? { outcomes, question } : { outcomes };
}

/** Tells the automation hooks a response's calls all have results, with the files they changed. */
function reportBatch(prepared: readonly PreparedCall[], outcomes: readonly CallOutcome[], deps: LoopDeps, turn: number): void {
  if (!deps.hooks?.has("on_tool_batch_complete")) return;
  const calls = outcomes.map((o) => {
    const p = prepared.find((x) => x.call.id === o.call.id);
    const call = p?.ready ? guardCallOf(p.tool.handler, o.call.id, p.args, { cwd: deps.cwd, name: o.call.name }) : { tool: o.call.name, callId: o.call.id, touches: [] as [] };
    return { call, ok: o.ok };
  });
  batchFinished(deps.hooks, turn, calls, deps.cwd);
}

/**
 * A second question in the response that asked one, in a session that asks
 * only one (the Yuj surface, app/question-limit.ts): "call it again after the
 * answer" would only fail, so the model is told to decide from the answer
 * instead. (The Chord surface's questions have no such limit.)
 */
const SECOND_QUESTION =
  "an earlier call in the same response asked the operator this session's one clarification question; decide from its answer and what the repository shows";

function isQuestion(p: PreparedCall): boolean {
  return p.ready && p.tool.handler.role === "ask";
}

function isFinishCall(p: PreparedCall): boolean {
  return p.ready && p.tool.handler.role === "finish";
}

export function pushResult(history: HistoryItem[], outcome: CallOutcome): void {
  history.push({
    role: "tool",
    callId: outcome.call.id,
    name: outcome.call.name,
    text: outcome.modelText,
    isError: !outcome.ok,
    ...(outcome.images ? { images: outcome.images } : {}),
  });
}
