// `yuj resume [ID] [MESSAGE]`: continue a stored session headless — one
// paused on an approval (once `yuj approve` / `yuj reject` answered it) or a
// question (once `yuj answer` did), one that was stopped or interrupted
// mid-run, or, with a new message, one that finished.

import { hasRunningTasks } from "../../core/orchestration/store.js";
import type { ParsedArgs } from "../args.js";
import { UsageError } from "../args.js";
import { claimSession, type ClaimedSession } from "../claim-session.js";
import { runHeadless } from "../headless.js";
import { argsFromSettings } from "../pause.js";
import { checkResumable } from "../resume-plan.js";

// Session ids are YYYYMMDD-HHMMSS-xxxxxx (core/session.ts).
const ID_PREFIX = /^\d{1,8}(-\d{0,6}(-[0-9a-z]{0,6})?)?$/;

export async function resumeCommand(args: ParsedArgs, version: string): Promise<number> {
  if (args.positionals.length > 2) {
    throw new UsageError('yuj resume takes a session id and a message at most: yuj resume [ID] ["what to do next"]');
  }
  // A lone argument is the id when it looks like one (or a prefix of one),
  // else the message for the newest session here.
  const [first, second] = args.positionals;
  const [id, message] = second !== undefined || (first !== undefined && ID_PREFIX.test(first)) ? [first, second] : [undefined, first];
  return continueHeadless(await claimSession(process.env, process.cwd(), id), args, version, message);
}

/** Runs a claimed session on, headless, with the settings it was started with (`yuj resume`, `yuj answer`). */
export async function continueHeadless(found: ClaimedSession, args: ParsedArgs, version: string, message?: string): Promise<number> {
  const { dir, state, status, lock, skipped, log } = found;
  try {
    checkResumable(state, status, message, args.input === "jsonl", hasRunningTasks(dir));
  } catch (err) {
    lock.release();
    throw err;
  }
  return runHeadless({
    args: argsFromSettings(state.settings, args),
    cwd: state.cwd,
    env: process.env,
    version,
    start: { resume: state, dir, lock, skipped, log, ...(message !== undefined ? { message } : {}) },
  });
}
