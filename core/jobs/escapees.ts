// Processes that leave their job's process group. Outside the sandbox a
// command can start something in a new session (`setsid cmd &`, a daemon's
// fork-setsid-fork, a shell in the interactive terminal doing the same), and
// signalling the job's group no longer reaches it. Inside the sandbox nothing
// escapes: bwrap dies with yuj and takes its pid namespace with it.
//
// How they are found without privileges: every command yuj starts gets
// YUJ_JOB_MARKER=<marker> in its environment, a value made of this yuj's pid,
// start time and 128 random bits. Every descendant inherits it however it
// leaves the group, and /proc/<pid>/environ shows a process's environment to
// its owner. When yuj ends, every process holding the marker is stopped; the
// marker is also written down (orphans.ts) so that the next yuj, after a
// SIGKILL, finds them too. A process that empties its environment on purpose
// (`env -i`) is not found; only the sandbox contains that.
//
// Why not a cgroup: putting each command in a cgroup of its own (and killing
// the cgroup) needs a writable, delegated cgroup hierarchy, which neither a
// normal desktop session nor most containers hand an unprivileged program.

import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import type { Clock } from "../services.js";
import { isZombie, readStartTime, readStat } from "./proc.js";

export const MARKER_VAR = "YUJ_JOB_MARKER";

export interface Marked {
  pid: number;
  startTime: number;
  /** Its command line, for reports. */
  command: string;
}

/** A new marker, unique to this process and call. */
export function newMarker(): string {
  return `${process.pid}-${readStartTime(process.pid) ?? 0}-${randomBytes(16).toString("hex")}`;
}

/** Live processes (not this one) whose environment holds exactly this marker. */
export function findMarked(marker: string): Marked[] {
  let entries: string[];
  try {
    entries = fs.readdirSync("/proc");
  } catch {
    return [];
  }
  const needle = Buffer.from(`${MARKER_VAR}=${marker}`);
  const found: Marked[] = [];
  for (const entry of entries) {
    const c = entry.charCodeAt(0);
    if (c < 48 || c > 57) continue;
    const pid = Number(entry);
    if (pid === process.pid) continue;
    let environ: Buffer;
    try {
      environ = fs.readFileSync(`/proc/${pid}/environ`);
    } catch {
      continue; // gone, or another user's
    }
    if (!holds(environ, needle)) continue;
    const stat = readStat(pid);
    if (!stat || isZombie(stat)) continue;
    found.push({ pid, startTime: stat.startTime, command: commandLine(pid) });
  }
  return found;
}

/** `needle` as one whole NUL-separated entry of `environ`. */
function holds(environ: Buffer, needle: Buffer): boolean {
  for (let at = environ.indexOf(needle); at >= 0; at = environ.indexOf(needle, at + 1)) {
    const end = at + needle.length;
    if ((at === 0 || environ[at - 1] === 0) && (end === environ.length || environ[end] === 0)) return true;
  }
  return false;
}

function commandLine(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0+$/, "").replace(/\0/g, " ");
  } catch {
    return "";
  }
}

/** Signals a found process, unless its pid now belongs to another process. */
function signalMarked(p: Marked, signal: NodeJS.Signals): void {
  if (readStartTime(p.pid) !== p.startTime) return;
  try {
    process.kill(p.pid, signal);
  } catch {
    // already gone
  }
}

// A process that forks while it is being killed leaves a child the last scan
// missed; a few rounds catch those.
const ROUNDS = 5;

/** SIGKILL to every marked process, synchronously (safe inside process 'exit'). */
export function killMarkedSync(marker: string): Marked[] {
  const killed: Marked[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const found = findMarked(marker);
    if (found.length === 0) break;
    for (const p of found) signalMarked(p, "SIGKILL");
    killed.push(...found.filter((p) => !killed.some((k) => k.pid === p.pid && k.startTime === p.startTime)));
  }
  return killed;
}

/** SIGTERM (and SIGCONT) to every marked process, SIGKILL to what is left after `graceMs`. */
export async function stopMarked(marker: string, graceMs: number, clock: Clock): Promise<Marked[]> {
  const found = findMarked(marker);
  if (found.length === 0) return [];
  for (const p of found) signalMarked(p, "SIGTERM");
  for (const p of found) signalMarked(p, "SIGCONT");
  for (let waited = 0; waited < graceMs && findMarked(marker).length > 0; waited += 50) await clock.sleep(50);
  const rest = killMarkedSync(marker);
  return [...found, ...rest.filter((p) => !found.some((f) => f.pid === p.pid && f.startTime === p.startTime))];
}

/**
 * The marker one job manager (and the terminal beside it) gives its
 * commands, and whether any of them ran outside the sandbox: only then can
 * something have escaped, and only then is /proc searched at the end.
 */
export class EscapeWatch {
  readonly marker = newMarker();
  private unconfined = false;
  private readonly listeners: Array<() => void> = [];

  get armed(): boolean {
    return this.unconfined;
  }

  /** The environment entry for a command. */
  env(): Record<string, string> {
    return { [MARKER_VAR]: this.marker };
  }

  /** A command was started; `confined` when inside the sandbox. */
  started(confined: boolean): void {
    if (confined || this.unconfined) return;
    this.unconfined = true;
    for (const fn of this.listeners) fn();
  }

  /** Called when the first unconfined command starts (again after disarm()). */
  onArmed(fn: () => void): void {
    this.listeners.push(fn);
  }

  /** Everything holding the marker was stopped: nothing needs finding until another command starts. */
  disarm(): void {
    this.unconfined = false;
  }
}
