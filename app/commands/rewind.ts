// `yuj rewind [ID]`: the session's messages a rewind can return to, with the
// files each one's steps changed. `yuj rewind [ID] --to N`: the conversation
// back to before message N and the files to the checkpoint taken when it was
// sent, after showing the patch and asking (`--yes` answers for a script).
// `yuj rewind [ID] --undo`: the last rewind undone. Files changed outside yuj
// since its last checkpoint are never overwritten without being named: on a
// terminal the question names them, with --yes the rewind is refused unless
// --force is given too.

import { createInterface } from "node:readline/promises";
import { applyPlan, planRewind, planUndo, rewindPoints, RewindError, type RewindContext, type RewindPlan } from "../../core/checkpoints/rewind.js";
import { planSummary, pointLine } from "../../core/checkpoints/plan-text.js";
import { readCheckpointStore } from "../../core/checkpoints/store.js";
import { storedRecord } from "../../core/session-record.js";
import type { ParsedArgs } from "../args.js";
import { UsageError } from "../args.js";
import { claimSession } from "../claim-session.js";
import { FatalError } from "../errors.js";

export async function rewindCommand(args: ParsedArgs): Promise<number> {
  if (args.positionals.length > 1) throw new UsageError("yuj rewind takes one session id at most: yuj rewind [ID] [--to N | --undo] [--yes] [--force]");
  if (args.rewindTo !== undefined && args.undo) throw new UsageError("yuj rewind takes --to N or --undo, not both");
  const found = await claimSession(process.env, process.cwd(), args.positionals[0]);
  try {
    const ctx: RewindContext = {
      store: readCheckpointStore(found.dir),
      record: storedRecord(found.dir, found.state, found.log),
      sessionId: found.state.sessionId,
      sessionDir: found.dir,
      cwd: found.state.cwd,
    };
    if (args.rewindTo === undefined && !args.undo) return await list(ctx);
    const plan = args.undo ? await planUndo(ctx) : await planRewind(ctx, args.rewindTo!);
    return await confirmAndApply(ctx, plan, args);
  } catch (err) {
    if (err instanceof RewindError) throw new FatalError(err.message, 1);
    throw err;
  } finally {
    found.lock.release();
  }
}

async function list(ctx: RewindContext): Promise<number> {
  const points = await rewindPoints(ctx);
  const out = process.stdout;
  out.write(`Session ${ctx.sessionId}: ${points.length} message${points.length === 1 ? "" : "s"} to rewind to (yuj rewind ${ctx.sessionId} --to N)\n`);
  for (const p of points) out.write(`${pointLine(p)}\n`);
  const off = ctx.store.off();
  if (off) out.write(`Workspace checkpoints are off for this session (${off}): a rewind restores the conversation only.\n`);
  if (ctx.store.undoable()) out.write(`The last rewind can be undone: yuj rewind ${ctx.sessionId} --undo\n`);
  return 0;
}

async function confirmAndApply(ctx: RewindContext, plan: RewindPlan, args: ParsedArgs): Promise<number> {
  process.stdout.write(`${planSummary(plan).join("\n")}\n`);
  if (plan.diff) process.stdout.write(`\n${plan.diff.trimEnd()}\n`);
  if (!args.yes) {
    if (!process.stdin.isTTY) {
      process.stderr.write("yuj: nothing changed; run again with --yes to apply this\n");
      return 1;
    }
    const warn = plan.outside.length ? ` (overwriting ${plan.outside.length} file${plan.outside.length === 1 ? "" : "s"} changed outside yuj)` : "";
    if (!(await ask(`Apply this${warn}? [y/N] `))) {
      process.stderr.write("yuj: nothing changed\n");
      return 1;
    }
  } else if (plan.outside.length && !args.force) {
    throw new FatalError(`refused: ${plan.outside.length} file(s) changed outside yuj since its last checkpoint would be overwritten: ${plan.outside.join(", ")}. Keep a copy of them, then run again with --force`, 1);
  }
  await applyPlan(ctx, plan);
  const done = plan.kind === "undo" ? "the rewind is undone" : `rewound to before message ${plan.point!.n}`;
  process.stderr.write(`yuj: ${done}; continue with yuj resume ${ctx.sessionId} "MESSAGE" (or yuj --resume ${ctx.sessionId})\n`);
  return 0;
}

async function ask(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await rl.question(question)).trim());
  } finally {
    rl.close();
  }
}
