// `yuj approve [SESSION] [--always [--scope session|project]]` and
// `yuj reject [SESSION] [--message M]`: record the answer to a paused
// session's approval request; `yuj resume` then continues the session.

import type { ApprovalAnswer } from "../../core/approvals/types.js";
import { projectConfigPath } from "../../core/paths.js";
import { asExactRule } from "../../core/permissions/always-rules.js";
import { formatRule } from "../../core/permissions/gate.js";
import { writeState, type SessionState } from "../../core/session-state.js";
import { oneLine, safeText } from "../../core/text/safe.js";
import type { ParsedArgs } from "../args.js";
import { UsageError } from "../args.js";
import { claimSession } from "../claim-session.js";
import { FatalError } from "../errors.js";

export async function approveCommand(args: ParsedArgs): Promise<number> {
  const approve = args.command === "approve";
  if (args.positionals.length > 1) throw new UsageError(`yuj ${args.command} takes at most one session id`);
  if (approve && args.message !== undefined) throw new UsageError("--message goes with yuj reject");
  if (!approve && (args.always || args.scope)) throw new UsageError("--always and --scope go with yuj approve");
  if (args.scope && !args.always) throw new UsageError("--scope goes with --always");

  // Held while the answer is written: a process running the session would overwrite it.
  const { dir, state, status, lock } = await claimSession(process.env, process.cwd(), args.positionals[0], {
    test: (s) => s.status === "approval_required",
    what: "is waiting for an approval",
  });
  try {
    if (status !== "approval_required" || !state.pending) {
      throw new FatalError(`session ${state.sessionId} is not waiting for an approval (its status is ${status})`);
    }
    return record(args, approve, dir, state);
  } finally {
    lock.release();
  }
}

function record(args: ParsedArgs, approve: boolean, dir: string, state: SessionState): number {
  const request = state.pending!.request;
  let answer: ApprovalAnswer;
  const out: string[] = [`Session ${state.sessionId}: ${oneLine(request.summary)}`];
  if (approve && args.always) {
    const scope = args.scope ?? "session";
    const rule = asExactRule(request.suggestedRule);
    answer = { decision: "allow_always", rule, scope };
    const where = scope === "project" ? projectConfigPath(state.cwd) : "this session's rules";
    out.push(`Approved. On resume yuj stores the rule ${oneLine(formatRule(rule))} in ${oneLine(where)}.`);
  } else if (approve) {
    answer = { decision: "allow_once" };
    out.push("Approved once.");
  } else if (args.message) {
    answer = { decision: "reject_with_message", message: args.message };
    out.push(`Rejected; the model will be told: ${safeText(args.message)}`);
  } else {
    answer = { decision: "reject" };
    out.push("Rejected.");
  }
  writeState(dir, { ...state, answer });
  out.push("Continue with: yuj resume");
  process.stdout.write(`${out.join("\n")}\n`);
  return 0;
}
