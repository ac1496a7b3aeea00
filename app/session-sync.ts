// A new session's first state fsynced after it is written (headless: while
// the first request goes out). writeState with `durable: false` renamed the
// files into place already; this makes the same files, and the renames, survive
// a power cut. The run's first response waits for it (OpenSession.durable).

import { open } from "node:fs/promises";
import * as path from "node:path";
import { META_FILE, STATE_FILE } from "../core/session-state.js";
import { StateWriteError } from "../core/storage-error.js";

/** What writeState's durable save fsyncs, and the folder's rename into the sessions folder. */
export async function syncSession(dir: string, root: string): Promise<void> {
  await Promise.all([STATE_FILE, META_FILE].map((name) => syncPath(path.join(dir, name), true)));
  await Promise.all([syncPath(dir, false), syncPath(root, false)]);
}

// A folder's fsync is best effort, as in core/atomic-write.ts: some filesystems refuse it.
async function syncPath(file: string, required: boolean): Promise<void> {
  try {
    const handle = await open(file, "r");
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (err) {
    if (required) throw new StateWriteError(`could not save the session to ${file}`, err);
  }
}
