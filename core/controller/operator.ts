// The operator's side of a session: approvals and questions that wait for an
// answer operation. While someone is attached (the TUI, a script on
// `--input jsonl`), an ask waits for its operation; once nobody is (no
// input, or the input closed), an approval pauses the run and a question is
// saved for `yuj answer`, exactly as a headless run without input does.

import type { ApprovalAnswer, ApprovalRequest, Approver, ArgsCheck } from "../approvals/types.js";
import type { Emit } from "../events.js";
import type { OpOf } from "../ops.js";
import { asExactRule } from "../permissions/always-rules.js";
import { AnswerDeferred, type QuestionRequest } from "../tool-types.js";

export interface Operator {
  /** The permission gate's approver: waits for approval_answer, or pauses when nobody is attached. */
  readonly approver: Approver;
  /**
   * ask_user / question: shows the question and resolves with the answer;
   * rejects with AnswerDeferred when nobody can answer, and when `signal` ends the wait.
   */
  ask(question: QuestionRequest, signal: AbortSignal): Promise<string>;
  /** Hands an approval_answer to the call waiting for it; a problem when none does. */
  answerApproval(op: OpOf<"approval_answer">): string | undefined;
  /** Hands a question_answer to the question waiting for it; a problem when none does. */
  answerQuestion(op: OpOf<"question_answer">): string | undefined;
  /** Nobody will answer from now on: what waits pauses, and later asks pause at once. */
  detach(): void;
  attached(): boolean;
}

/**
 * The answer an operation gives a request: "allow always" stores the offered
 * rule the operation names by its pattern, by default the exact rule of the
 * call that asked.
 */
export function approvalAnswerFor(op: OpOf<"approval_answer">, request: Pick<ApprovalRequest, "suggestedRule" | "candidates">): ApprovalAnswer {
  switch (op.decision) {
    case "allow_once":
      return op.arguments ? { decision: "allow_once", args: op.arguments } : { decision: "allow_once" };
    case "allow_always": {
      const picked = op.pattern === undefined ? undefined : request.candidates?.find((r) => r.pattern === op.pattern);
      return { decision: "allow_always", rule: picked ?? asExactRule(request.suggestedRule), scope: op.scope ?? "session" };
    }
    case "reject":
      return { decision: "reject" };
    case "reject_with_message":
      return { decision: "reject_with_message", message: op.message ?? "" };
  }
}

interface Waiting<T> {
  resolve(value: T): void;
  /** Nobody is attached any more. */
  defer(): void;
}

export function createOperator(opts: {
  emit: Emit;
  /** Someone answers at first (false: every ask pauses from the start). */
  attached: boolean;
}): Operator {
  let attached = opts.attached;
  const approvals = new Map<string, Waiting<ApprovalAnswer | "pause"> & { request: ApprovalRequest; checkArgs?: ArgsCheck }>();
  const questions = new Map<string, Waiting<string>>();

  const approver: Approver = {
    ask(request, signal, checkArgs) {
      if (!attached) return Promise.resolve("pause");
      return new Promise((resolve) => {
        const done = (value: ApprovalAnswer | "pause") => {
          signal.removeEventListener("abort", onAbort);
          approvals.delete(request.callId);
          resolve(value);
        };
        const onAbort = () => done({ decision: "reject_with_message", message: "the turn was cancelled" });
        if (signal.aborted) return onAbort();
        signal.addEventListener("abort", onAbort, { once: true });
        approvals.set(request.callId, { request, resolve: done, defer: () => done("pause"), ...(checkArgs ? { checkArgs } : {}) });
      });
    },
  };

  const ask = (q: QuestionRequest, signal: AbortSignal): Promise<string> =>
    new Promise((resolve, reject) => {
      if (!attached) return reject(new AnswerDeferred());
      if (signal.aborted) return reject(new Error("cancelled"));
      const settle = () => {
        signal.removeEventListener("abort", onAbort);
        questions.delete(q.callId);
      };
      const onAbort = () => {
        settle();
        reject(new Error("cancelled"));
      };
      signal.addEventListener("abort", onAbort, { once: true });
      questions.set(q.callId, {
        resolve: (answer) => {
          settle();
          resolve(answer);
        },
        defer: () => {
          settle();
          reject(new AnswerDeferred());
        },
      });
      opts.emit({
        type: "question_asked",
        callId: q.callId,
        question: q.question,
        ...(q.header ? { header: q.header } : {}),
        ...(q.options ? { options: q.options } : {}),
        ...(q.multiple ? { multiple: q.multiple } : {}),
      });
    });

  return {
    approver,
    ask,
    answerApproval(op) {
      const found = pick(approvals, op.callId, "approval");
      if ("problem" in found) return found.problem;
      const offered = found.entry.request.candidates ?? [];
      if (op.decision === "allow_always" && op.pattern !== undefined && !offered.some((r) => r.pattern === op.pattern)) {
        return `pattern ${JSON.stringify(op.pattern)} is not one of the rules offered for call ${found.callId} (${offered.map((r) => JSON.stringify(r.pattern)).join(", ") || "none"})`;
      }
      if (op.arguments) {
        // Edited arguments that do not fit the tool leave the approval waiting, so they can be fixed.
        const problem = found.entry.checkArgs?.(op.arguments);
        if (problem !== undefined) return `the edited arguments for call ${found.callId} do not fit ${found.entry.request.tool}: ${problem}`;
      }
      found.entry.resolve(approvalAnswerFor(op, found.entry.request));
      return undefined;
    },
    answerQuestion(op) {
      const found = pick(questions, op.callId, "question");
      if ("problem" in found) return found.problem;
      opts.emit({ type: "question_answered", callId: found.callId, answer: op.answer });
      found.entry.resolve(op.answer);
      return undefined;
    },
    detach() {
      attached = false;
      for (const w of [...approvals.values()]) w.defer();
      for (const w of [...questions.values()]) w.defer();
    },
    attached: () => attached,
  };
}

/** The waiting entry an answer is for: the named call, or the only one when no call is named. */
function pick<T>(waiting: Map<string, T>, callId: string | undefined, what: string): { callId: string; entry: T } | { problem: string } {
  const ids = [...waiting.keys()];
  if (callId !== undefined) {
    const entry = waiting.get(callId);
    if (entry) return { callId, entry };
    return { problem: `no ${what} waits for call ${callId}${ids.length ? ` (waiting: ${ids.join(", ")})` : ""}` };
  }
  if (ids.length === 1) return { callId: ids[0]!, entry: waiting.get(ids[0]!)! };
  return { problem: ids.length ? `${ids.length} ${what}s wait (${ids.join(", ")}): name one with callId` : `no ${what} is waiting` };
}
