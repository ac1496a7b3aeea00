// Answers for a session that paused in an earlier process (`yuj approve`,
// `yuj reject`, `yuj answer`): recorded in its state, where the run that
// continues it finds them. Each returns a problem when the session does not
// wait for that answer, and changes nothing then.

import type { OpOf } from "../ops.js";
import type { SessionState } from "../session-state.js";
import { approvalAnswerFor } from "./operator.js";

export function recordStoredApproval(state: SessionState, op: OpOf<"approval_answer">): string | undefined {
  const request = state.pending?.request;
  if (state.status !== "approval_required" || !request) {
    return `session ${state.sessionId} is not waiting for an approval (its status is ${state.status})`;
  }
  if (op.callId !== undefined && op.callId !== request.callId) {
    return `session ${state.sessionId} waits for an approval of call ${request.callId}, not ${op.callId}`;
  }
  state.answer = approvalAnswerFor(op, request);
  return undefined;
}

export function recordStoredAnswer(state: SessionState, op: OpOf<"question_answer">): string | undefined {
  const q = state.question;
  if (state.status !== "input_required" || !q) {
    return `session ${state.sessionId} is not waiting for an answer (its status is ${state.status})`;
  }
  if (op.callId !== undefined && op.callId !== q.callId) {
    return `session ${state.sessionId} waits for the answer to call ${q.callId}, not ${op.callId}`;
  }
  if (q.answer !== undefined) {
    return `session ${state.sessionId} already has an answer to send (${JSON.stringify(q.answer)}); continue it with yuj resume ${state.sessionId}`;
  }
  q.answer = op.answer;
  return undefined;
}
