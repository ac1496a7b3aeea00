// A new session's folder on disk: created (staged until its first state is
// saved, so a kill never leaves a folder without state), published by rename,
// and its trace opened so a failure to write is recorded rather than thrown.

import { rmSync } from "node:fs";
import * as path from "node:path";
import type { HistoryLog } from "../core/history-log.js";
import { createSessionDir, createStagingDir, newSessionId, publishStagingDir } from "../core/session.js";
import { lockSession, type SessionLock } from "../core/session-lock.js";
import { writeState } from "../core/session-state.js";
import { StateWriteError } from "../core/storage-error.js";
import { openTrace, type TraceWriter } from "../core/trace.js";
import type { SessionTarget } from "./session.js";
import { syncSession } from "./session-sync.js";

/** Renames a staged session's folder to its id (the session's saved state is in it). */
export function publish(staging: string, dir: string): void {
  try {
    publishStagingDir(staging);
  } catch (err) {
    throw new StateWriteError(`could not publish session folder ${staging} as ${dir}`, err);
  }
}

/** A staged session closed before anything was saved: nothing of it is worth keeping. */
export function discardStaging(staging: string): void {
  try {
    rmSync(staging, { recursive: true, force: true });
  } catch {
    // left hidden; a later new session sweeps it
  }
}

/**
 * A new session's folder, locked from the moment it exists. With a state,
 * the folder is put together under a staging name and renamed to its id
 * once the state is saved in it: a kill at any moment leaves either no
 * session or one that `yuj resume` continues, never a folder without state.
 * With `syncLater` the state's files are written and renamed into place as
 * always, and fsynced while the process goes on (`durable`): a killed
 * process loses nothing by that, only a power cut before `durable` could.
 */
export async function createSession(
  root: string,
  target: Exclude<SessionTarget, { resume: unknown }>,
  log: HistoryLog,
): Promise<{ id: string; dir: string; lock: SessionLock; staging?: string; durable?: Promise<void> }> {
  const initial = "create" in target ? target.create : undefined;
  const id = initial?.sessionId ?? newSessionId(new Date());
  try {
    if ("fresh" in target) {
      const dir = createSessionDir(root, id);
      return { id, dir, lock: await lockSession(dir) };
    }
    if ("staged" in target) {
      const staging = createStagingDir(root, id);
      return { id, dir: path.join(root, id), lock: await lockSession(staging), staging };
    }
    const staging = createStagingDir(root, id);
    const lock = await lockSession(staging);
    initial!.pid = process.pid;
    const later = "create" in target && target.syncLater === true;
    writeState(staging, initial!, { log, durable: !later });
    const dir = publishStagingDir(staging);
    return { id, dir, lock, ...(later ? { durable: syncSession(dir, root) } : {}) };
  } catch (err) {
    if (err instanceof StateWriteError) throw err;
    throw new StateWriteError(`could not create session ${id} under ${root}`, err);
  }
}

/**
 * The trace, or when it cannot be opened a stand-in that records why and
 * drops the rows. `shownAs` is the path it is known by (a staged session's
 * trace is opened in the hidden folder and keeps its descriptor when the
 * folder is renamed).
 */
export function openTraceOrRecord(file: string, secrets: string[], failed: (err: StateWriteError) => void, shownAs: string): TraceWriter {
  try {
    const trace = openTrace(file, { secrets });
    return { path: shownAs, write: (event) => trace.write(event), close: () => trace.close() };
  } catch (err) {
    if (!(err instanceof StateWriteError)) throw err;
    failed(err);
    return { path: shownAs, write() {}, close() {} };
  }
}
