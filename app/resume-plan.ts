// How a stored session continues: what `yuj resume` / `yuj answer` may do
// with it (checked before anything runs), and the history repairs that make
// it valid again before the loop sees it.

import type { EventBody } from "../core/events.js";
import type { HistoryItem } from "../core/history.js";
import { closeInterruptedCalls, INTERRUPTED_TEXT, placeLateResult } from "../core/interrupted.js";
import type { LoopInput } from "../core/loop.js";
import type { SessionState, SessionStatus } from "../core/session-state.js";
import { sessionLayout } from "../core/session.js";
import { lastTraceSeq } from "../core/trace.js";
import { answerText } from "../tools/yuj/ask_user.js";
import { FatalError } from "./errors.js";
import type { ShownStatus } from "./find-session.js";

/**
 * Throws a FatalError saying what to do when the session cannot continue as
 * asked. With an operator on the input (`--input jsonl`), a session waiting
 * for an approval continues without a recorded answer: the call asks again.
 */
export function checkResumable(
  state: SessionState,
  status: ShownStatus,
  message: string | undefined,
  operated = false,
  /** Delegated workers were still running when the session stopped: it goes on for them. */
  workersRunning = false,
): void {
  const id = state.sessionId;
  if (status === "running") {
    throw new FatalError(`session ${id} is running in process ${state.pid}; wait for it to end or stop it first`);
  }
  if (status === "approval_required") {
    if (!state.answer && !operated) {
      throw new FatalError(
        `session ${id} waits for an approval of ${state.pending?.request.summary ?? "a call"}: run yuj approve ${id} or yuj reject ${id} first`,
      );
    }
    if (message !== undefined) throw new FatalError(`session ${id} continues its paused call first: run yuj resume ${id} without a message`);
  }
  if (status === "input_required") {
    const q = state.question;
    if (q?.answer === undefined) {
      throw new FatalError(`session ${id} waits for the answer to: ${q?.question ?? "a question"}\nanswer with: yuj answer ${id} "…"`);
    }
    if (message !== undefined) throw new FatalError(`session ${id} continues with the recorded answer first: run yuj resume ${id} without a message`);
  }
  if (state.history.length === 0 && state.status !== "done") {
    // Killed during start-up, before the task reached the conversation: the resume starts it.
    if (message !== undefined) throw new FatalError(`session ${id} has not started its task yet; start it with yuj resume ${id} without a message`);
    return;
  }
  if (message === undefined && !awaitsModel(state) && !(workersRunning && state.status !== "done")) {
    throw new FatalError(`session ${id} is finished (${status}); to go on, give it a new message: yuj resume ${id} "…"`);
  }
  if (message !== undefined && !message.trim()) throw new FatalError("the message is empty: yuj resume ID \"what to do next\"");
}

/** True when the conversation ends where the model has the next word. */
function awaitsModel(state: SessionState): boolean {
  if (state.status === "done") return false;
  if (state.status === "approval_required" || state.status === "input_required") return true;
  const last = state.history.at(-1);
  if (!last) return false;
  return last.role !== "assistant" || last.toolCalls.length > 0;
}

/** What a resumed run starts with, and the events that say what the repairs added. */
export interface ResumePlan {
  input: LoopInput;
  /** Emit these once the repaired history is saved: nothing reports a result before it is saved. */
  reports: EventBody[];
}

/**
 * Repairs the history (the recorded answer in place, interrupted calls
 * closed) and returns what the loop starts with. Changes `state` in place.
 */
export function prepareResume(
  state: SessionState,
  /** The status the session was stored with (the runner has set it running since). */
  from: SessionStatus,
  message: string | undefined,
): ResumePlan {
  const history = state.history;
  const reports: EventBody[] = [];
  const waiting = new Set<string>();
  if (from === "approval_required" && state.pending) for (const c of state.pending.calls) waiting.add(c.id);

  const q = state.question;
  if (from === "input_required" && q && q.answer !== undefined && !q.delivered) {
    // The asking call is saved before its question is; a history without it is repaired under no name.
    const name = callName(history, q.callId) ?? "unknown";
    const text = answerText(q.answer);
    placeLateResult(history, { role: "tool", callId: q.callId, name, text, isError: false });
    q.delivered = true;
    reports.push({ type: "question_answered", callId: q.callId, answer: q.answer });
    reports.push({ type: "tool_result", callId: q.callId, name, ok: true, modelText: text, durationMs: 0 });
  }
  for (const callId of closeInterruptedCalls(history, waiting)) {
    const name = callName(history, callId) ?? "unknown";
    reports.push({ type: "tool_result", callId, name, ok: false, modelText: INTERRUPTED_TEXT, durationMs: 0 });
  }

  // yuj ends every job's process group when it stops, and the next start
  // reaps those a SIGKILL left: none of them is still running.
  for (const job of state.jobs) if (job.status === "running") job.status = "killed";

  const pending = from === "approval_required" ? state.pending : undefined;
  delete state.pending;
  delete state.answer;
  if (pending) return { input: { resumeCalls: pending.calls }, reports };
  // A start-up killed before the task's first step: the task is the first message.
  if (history.length === 0 && message === undefined) return { input: { userText: state.task }, reports };
  return { input: message !== undefined ? { userText: message } : { continue: true }, reports };
}

/** Events after the last saved step are in the trace too: number on from the trace's last row. */
export function resumedSeq(state: SessionState, dir: string): number {
  return Math.max(state.lastSeq, lastTraceSeq(sessionLayout(dir).trace));
}

function callName(history: HistoryItem[], callId: string): string | undefined {
  for (const item of history) {
    if (item.role !== "assistant") continue;
    const call = item.toolCalls.find((c) => c.id === callId);
    if (call) return call.name;
  }
  return undefined;
}
