// Stopping a whole process group. A shell command started with
// `detached: true` leads its own group, so signalling -pid reaches every
// process it forked (pipelines, `&` jobs, test runners' workers), not just the
// shell, which is what leaves orphans behind when only the child is killed.

import type { Clock } from "../../core/services.js";

/** Sends `signal` to the group led by `pid`; false when no member is left. */
export function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

const POLL_MS = 50;

/**
 * SIGTERM first so programs can clean up, then SIGKILL for whatever is still
 * alive after `graceMs`. Resolves once the group is gone or SIGKILL was sent.
 */
export async function killGroup(pid: number, graceMs: number, clock: Clock): Promise<void> {
  if (!signalGroup(pid, "SIGTERM")) return;
  // Stopped processes would hold the TERM pending forever.
  signalGroup(pid, "SIGCONT");
  for (let waited = 0; waited < graceMs; waited += POLL_MS) {
    await clock.sleep(POLL_MS);
    if (!signalGroup(pid, 0)) return;
  }
  signalGroup(pid, "SIGKILL");
}
