// Stopping everything an interactive terminal started. The PTY child leads
// its own session, and an interactive shell puts each job in its own process
// group, so signalling only the leader's group would miss the program the
// shell is running (and whatever it left in the background).

import * as fs from "node:fs";
import { constants as osConstants } from "node:os";
import type { Clock } from "../services.js";

const KILL_GRACE_MS = 1000;
const POLL_MS = 50;

/**
 * The process groups of the session led by `sid`. Linux lists the members in
 * /proc; elsewhere the leader's group is the best we can name.
 */
function sessionGroups(sid: number): number[] {
  let entries: string[];
  try {
    entries = fs.readdirSync("/proc");
  } catch {
    return alive(sid) ? [sid] : [];
  }
  const groups = new Set<number>();
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      // Fields after "(comm)": state ppid pgrp session ...; comm may hold spaces.
      const [state, , pgrp, session] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(session) === sid && state !== "Z") groups.add(Number(pgrp));
    } catch {
      // The process ended while we looked.
    }
  }
  return [...groups];
}

function alive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

function signalGroups(groups: number[], signal: NodeJS.Signals): void {
  for (const g of groups) {
    try {
      process.kill(-g, signal);
    } catch {
      // Already gone.
    }
  }
}

/**
 * Stops everything in the terminal's session: SIGHUP (what closing a terminal
 * sends; interactive shells ignore SIGTERM but obey it) with SIGTERM, then
 * SIGKILL for whatever is left after the grace time.
 */
export async function killSession(sid: number, clock: Clock): Promise<void> {
  let groups = sessionGroups(sid);
  if (groups.length === 0) return;
  signalGroups(groups, "SIGHUP");
  signalGroups(groups, "SIGTERM");
  signalGroups(groups, "SIGCONT"); // a stopped process would hold the signals pending
  for (let waited = 0; waited < KILL_GRACE_MS; waited += POLL_MS) {
    await clock.sleep(POLL_MS);
    groups = sessionGroups(sid);
    if (groups.length === 0) return;
  }
  signalGroups(groups, "SIGKILL");
}

/** "SIGHUP" for 1, and so on. */
export function nameOfSignal(num: number): string {
  const entry = Object.entries(osConstants.signals).find(([, n]) => n === num);
  return entry ? entry[0] : `signal ${num}`;
}
