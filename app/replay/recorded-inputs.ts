// What the replay answers from the recording instead of asking anyone: the
// model's replies of a scripted session, approval decisions and the answers
// to ask_user.

import type { ApprovalAnswer, Approver } from "../../core/approvals/types.js";
import { parseScenario } from "../../core/providers/scenario.js";
import { scriptedProvider } from "../../core/providers/scripted.js";
import type { Provider } from "../../core/providers/types.js";
import { FatalError } from "../errors.js";
import type { OpenSession } from "../session.js";
import type { Exchange, Recording } from "./recording.js";

/** The scripted provider playing the recorded turns: each response body is the scenario turn it played. */
export function recordedScript(exchanges: readonly Exchange[]): Provider {
  const turns: unknown[] = [];
  for (const [i, ex] of exchanges.entries()) {
    let turnNo = i;
    try {
      const body = JSON.parse(ex.request.body) as { turn?: unknown };
      if (typeof body.turn === "number") turnNo = body.turn;
      turns[turnNo] = JSON.parse(ex.response?.body ?? "{}");
    } catch {
      throw new FatalError(`recorded scripted request ${i + 1} or its response is not JSON; the trace is damaged`);
    }
  }
  for (let i = 0; i < turns.length; i++) turns[i] ??= {};
  try {
    return scriptedProvider(parseScenario({ turns }, "the recorded responses"));
  } catch (err) {
    throw new FatalError((err as Error).message);
  }
}

/** Approval asks answered with the recorded decision for the same call id. */
export function recordedApprover(recording: Recording): Approver {
  return {
    async ask(request): Promise<ApprovalAnswer> {
      const got = recording.approvals.get(request.callId);
      if (!got) return { decision: "reject_with_message", message: `replay: the recording has no decision for call ${request.callId}` };
      if (got.decision === "allow_always") return { decision: "allow_always", rule: request.suggestedRule, scope: "session" };
      if (got.decision === "reject_with_message") return { decision: "reject_with_message", message: got.message ?? "" };
      return { decision: got.decision };
    },
  };
}

/** ask_user answered with the recorded answer, shown in the trace as the TUI shows it. */
export function recordedAnswers(recording: Recording, emit: OpenSession["emit"]) {
  return async (q: { callId: string; question: string }): Promise<string> => {
    emit({ type: "question_asked", callId: q.callId, question: q.question });
    const answer = recording.answers.get(q.callId);
    if (answer === undefined) throw new Error(`replay: the recording has no answer for question ${q.callId}`);
    emit({ type: "question_answered", callId: q.callId, answer });
    return answer;
  };
}
