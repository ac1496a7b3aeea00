// Linux /proc reading for the job manager. A pid number alone proves
// nothing: once a process dies its number can be handed to a stranger. The
// pair (pid, start time) does, because the kernel never gives one pid number
// to two processes that started in the same clock tick. Everything here
// returns undefined or [] where /proc is missing (other platforms) or the
// process is gone, so callers treat "cannot see it" as "cannot prove it".

import * as fs from "node:fs";

export interface ProcStat {
  pid: number;
  /** One-letter state: R, S, D, T, Z (zombie), X (dead), ... */
  state: string;
  ppid: number;
  pgid: number;
  /** Field 22: clock ticks after boot at which the process started. */
  startTime: number;
}

/** A process recorded as belonging to a job, identified beyond its pid. */
export interface Member {
  pid: number;
  startTime: number;
}

/** Parses the text of /proc/<pid>/stat; undefined when malformed. */
export function parseStat(text: string): ProcStat | undefined {
  // The command name sits in parentheses and may itself hold spaces or ")",
  // so the fields after it are found from the last ")".
  const close = text.lastIndexOf(")");
  if (close < 0) return undefined;
  const pid = Number.parseInt(text, 10);
  const rest = text.slice(close + 2).split(" ");
  // rest[0] is field 3 (state), so field N is rest[N - 3].
  const state = rest[0];
  const ppid = Number(rest[1]);
  const pgid = Number(rest[2]);
  const startTime = Number(rest[19]);
  if (!state || !Number.isFinite(pid) || !Number.isFinite(pgid) || !Number.isFinite(startTime)) {
    return undefined;
  }
  return { pid, state, ppid, pgid, startTime };
}

/** The stat line of one process, or undefined when it is gone or unreadable. */
export function readStat(pid: number): ProcStat | undefined {
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    return parseStat(fs.readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return undefined;
  }
}

/** Start time of a pid (field 22), or undefined when it is gone. */
export function readStartTime(pid: number): number | undefined {
  return readStat(pid)?.startTime;
}

/** A zombie has died and only waits for its parent to collect it. */
export function isZombie(stat: ProcStat): boolean {
  return stat.state === "Z" || stat.state === "X";
}

/**
 * Every process whose group is `pgid`, zombies included (a zombie still
 * holds its group, so it still counts for proof, though not for liveness).
 * One pass over /proc: cheap enough for occasional use, not for hot loops.
 */
export function groupMembers(pgid: number): ProcStat[] {
  let entries: string[];
  try {
    entries = fs.readdirSync("/proc");
  } catch {
    return [];
  }
  const members: ProcStat[] = [];
  for (const entry of entries) {
    const c = entry.charCodeAt(0);
    if (c < 48 || c > 57) continue; // only numeric entries are processes
    const stat = readStat(Number(entry));
    if (stat && stat.pgid === pgid) members.push(stat);
  }
  return members;
}

/** The kernel's id for this boot; start times only compare within one boot. */
export function readBootId(): string | undefined {
  try {
    return fs.readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
  } catch {
    return undefined;
  }
}
