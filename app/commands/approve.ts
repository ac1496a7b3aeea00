// `yuj approve [SESSION] [--always [--scope session|project]]` and
// `yuj reject [SESSION] [--message M]`: send a paused session the answer to
// its approval request (the approval_answer operation, recorded in its
// state); `yuj resume` then continues the session.

import type { OpOf } from "../../core/ops.js";
import { projectConfigPath } from "../../core/paths.js";
import { formatRule } from "../../core/permissions/gate.js";
import type { SessionState } from "../../core/session-state.js";
import { oneLine, safeText } from "../../core/text/safe.js";
import type { ParsedArgs } from "../args.js";
import { UsageError } from "../args.js";
import { claimSession, type ClaimedSession } from "../claim-session.js";
import { FatalError } from "../errors.js";
import { answerStoredSession } from "../stored-answer.js";

export async function approveCommand(args: ParsedArgs): Promise<number> {
  const approve = args.command === "approve";
  if (args.positionals.length > 1) throw new UsageError(`yuj ${args.command} takes at most one session id`);
  if (approve && args.message !== undefined) throw new UsageError("--message goes with yuj reject");
  if (!approve && (args.always || args.scope)) throw new UsageError("--always and --scope go with yuj approve");
  if (args.scope && !args.always) throw new UsageError("--scope goes with --always");

  // Held while the answer is written: a process running the session would overwrite it.
  const claimed = await claimSession(process.env, process.cwd(), args.positionals[0], {
    test: (s) => s.status === "approval_required",
    what: "is waiting for an approval",
  });
  const { state, status, lock } = claimed;
  try {
    if (status !== "approval_required" || !state.pending) {
      throw new FatalError(`session ${state.sessionId} is not waiting for an approval (its status is ${status})`);
    }
    return record(args, approve, claimed);
  } finally {
    lock.release();
  }
}

function record(args: ParsedArgs, approve: boolean, claimed: ClaimedSession): number {
  const { dir, state } = claimed;
  const request = state.pending!.request;
  const op: OpOf<"approval_answer"> =
    approve && args.always
      ? { type: "approval_answer", decision: "allow_always", scope: args.scope ?? "session" }
      : approve
        ? { type: "approval_answer", decision: "allow_once" }
        : args.message
          ? { type: "approval_answer", decision: "reject_with_message", message: args.message }
          : { type: "approval_answer", decision: "reject" };
  answerStoredSession(claimed, { ...op, callId: request.callId });
  const answer = state.answer!;
  const out: string[] = [`Session ${state.sessionId}: ${oneLine(request.summary)}`];
  if (answer.decision === "allow_always") {
    const where = answer.scope === "project" ? projectConfigPath(state.cwd) : "this session's rules";
    out.push(`Approved. On resume yuj stores the rule ${oneLine(formatRule(answer.rule))} in ${oneLine(where)}.`);
  } else if (answer.decision === "allow_once") {
    out.push("Approved once.");
  } else if (answer.decision === "reject_with_message") {
    out.push(`Rejected; the model will be told: ${safeText(answer.message)}`);
  } else {
    out.push("Rejected.");
  }
  out.push("Continue with: yuj resume");
  process.stdout.write(`${out.join("\n")}\n`);
  return 0;
}
