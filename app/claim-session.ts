// Taking a stored session for a process that will change it (resume, answer,
// approve/reject, the TUI): the session's lock first, then its state read
// again under the lock, so the process goes on from what the last one saved
// and never from a copy read while another process was still running it.

import type { Env } from "../core/paths.js";
import { lockSession, SessionBusyError, type SessionLock } from "../core/session-lock.js";
import { join } from "node:path";
import { removeStaleTemps } from "../core/atomic-write.js";
import { META_FILE, readSession, STATE_FILE, type SessionState } from "../core/session-state.js";
import type { HistoryLog, SkippedLine } from "../core/history-log.js";
import { FatalError } from "./errors.js";
import { findSession, type ShownStatus } from "./find-session.js";

export interface ClaimedSession {
  dir: string;
  state: SessionState;
  /** As stored; `running` is shown as `interrupted`: this process holds the lock, so no other runs it. */
  status: ShownStatus;
  lock: SessionLock;
  /** Lines of the conversation log that were skipped as damaged. */
  skipped: SkippedLine[];
  /** The conversation log's writer, knowing what the log holds (a step appends only itself). */
  log: HistoryLog;
}

/** findSession's session, locked for this process; a FatalError naming the holder when another process has it. */
export async function claimSession(
  env: Env,
  cwd: string,
  id: string | undefined,
  want?: Parameters<typeof findSession>[3],
): Promise<ClaimedSession> {
  const found = findSession(env, cwd, id, want);
  let lock: SessionLock;
  try {
    lock = await lockSession(found.dir);
  } catch (err) {
    if (err instanceof SessionBusyError) throw new FatalError(err.message);
    throw new FatalError(`cannot lock session ${found.state.sessionId} (${found.dir}): ${(err as Error).message}`, 1);
  }
  // A process killed while it saved left its temporary copy: gone now, never read as the state.
  for (const file of [STATE_FILE, META_FILE]) removeStaleTemps(join(found.dir, file));
  const read = readSession(found.dir);
  if (!read) {
    lock.release();
    throw new FatalError(`the state of session ${found.state.sessionId} cannot be read: ${found.dir}/state.json is missing or damaged`);
  }
  const stored = read.state.status;
  return { dir: found.dir, state: read.state, status: stored === "running" ? "interrupted" : stored, lock, skipped: read.skipped, log: read.log };
}
