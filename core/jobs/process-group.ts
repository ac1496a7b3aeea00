// Stopping a whole process group. A shell command started with
// `detached: true` leads its own group, so signalling -pid reaches every
// process it forked (pipelines, `&` jobs, test runners' workers), not just the
// shell, which is what leaves orphans behind when only the child is killed.
//
// Signalling -pgid is only safe while the group provably still is ours: while
// our unreaped shell holds the number, or while a member we recorded (pid and
// start time) is still in the group. A group number cannot be reused while
// any process, zombies included, still belongs to it, so one proven member
// proves the whole group.

import type { ChildProcess, spawn as nodeSpawn } from "node:child_process";
import type { Clock } from "../services.js";
import { groupMembers, isZombie, readStat, type Member, type ProcStat } from "./proc.js";

/** Sends `signal` to the group led by `pid`; false when no member is left. */
export function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  // -0 and -1 would mean "our own group" and "every process we may signal".
  if (!Number.isInteger(pid) || pid <= 1) return false;
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether the kernel still knows the group at all. EPERM counts as present:
 * a member that changed user (sudo) still belongs to the job.
 */
export function groupAnswers(pgid: number): boolean {
  if (!Number.isInteger(pgid) || pgid <= 1) return false;
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

export type StatReader = (pid: number) => ProcStat | undefined;

/** A recorded member still present (even as a zombie) in `pgid` with its start time. */
function provenMember(
  pgid: number,
  members: readonly Member[],
  read: StatReader = readStat,
): Member | undefined {
  return members.find((m) => {
    const stat = read(m.pid);
    return stat !== undefined && stat.startTime === m.startTime && stat.pgid === pgid;
  });
}

/**
 * The decision behind a kill after the shell exited: true only when some
 * recorded member still proves the group is ours. When false the number may
 * have been recycled, and the caller must not signal it.
 */
export function mayStillBeOurs(pgid: number, members: readonly Member[], read: StatReader = readStat): boolean {
  return provenMember(pgid, members, read) !== undefined;
}

/**
 * Adds the group's current members to `members` when the scan can be tied to
 * a proven member (scan first, then prove: a member alive after the scan
 * means the group stayed ours throughout). Returns the same array otherwise.
 */
export function extendMembers(pgid: number, members: readonly Member[], read: StatReader = readStat): Member[] {
  const scan = groupMembers(pgid);
  if (!mayStillBeOurs(pgid, members, read)) return [...members];
  const known = new Set(members.map((m) => `${m.pid}:${m.startTime}`));
  const out = [...members];
  for (const s of scan) {
    if (!known.has(`${s.pid}:${s.startTime}`)) out.push({ pid: s.pid, startTime: s.startTime });
  }
  return out;
}

/**
 * Whether anything in the group still runs. Zombies do not count: where no
 * init reaps orphans (containers), dead members linger as zombies and keep
 * `kill(-pgid, 0)` answering forever. When /proc shows no member at all we
 * cannot look inside, so the kernel's answer stands.
 */
export function groupLive(pgid: number, members: readonly Member[] = [], read: StatReader = readStat): boolean {
  if (!groupAnswers(pgid)) return false;
  // Cheap path: a recorded member that still runs settles it without a scan.
  for (const m of members) {
    const stat = read(m.pid);
    if (stat && stat.startTime === m.startTime && stat.pgid === pgid && !isZombie(stat)) return true;
  }
  const scan = groupMembers(pgid);
  if (scan.length === 0) return true;
  return scan.some((s) => !isZombie(s));
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

export interface TerminateOptions {
  graceMs: number;
  clock: Clock;
  /** Asked before every signal; a false answer stops the teardown unsignalled. */
  isOurs: () => boolean;
  /** True once the group is gone (or the job that owns it has ended). */
  isGone: () => boolean;
  /** How long to wait after SIGKILL before giving up on seeing it gone. */
  afterKillMs?: number;
}

/**
 * TERM (+CONT), then KILL after the grace, proving ownership before each
 * signal. Returns false when the first proof failed and nothing was sent.
 */
export async function terminateGroup(pgid: number, opts: TerminateOptions): Promise<boolean> {
  if (!opts.isOurs()) return false;
  signalGroup(pgid, "SIGTERM");
  signalGroup(pgid, "SIGCONT");
  if (await pollUntil(opts.isGone, opts.graceMs, opts.clock)) return true;
  if (opts.isOurs()) signalGroup(pgid, "SIGKILL");
  await pollUntil(opts.isGone, opts.afterKillMs ?? 2000, opts.clock);
  return true;
}

async function pollUntil(done: () => boolean, ms: number, clock: Clock): Promise<boolean> {
  for (let waited = 0; ; waited += POLL_MS) {
    if (done()) return true;
    if (waited >= ms) return false;
    await clock.sleep(POLL_MS);
  }
}

/** What every job sees on top of its base environment: no pagers, no colour. */
export function jobEnv(base: NodeJS.ProcessEnv, extra?: Record<string, string>): NodeJS.ProcessEnv {
  return { ...base, PAGER: "cat", GIT_PAGER: "cat", TERM: "dumb", NO_COLOR: "1", ...extra };
}

/**
 * Runs the program it is given with stderr joined to stdout, so one pipe
 * carries both streams in the order they were written. `sh` sets that up and
 * then becomes the program (exec): same pid, same argv, nothing in between.
 */
const JOIN_STREAMS = 'exec 2>&1; exec "$@"';

/**
 * Starts `argv` (normally `bash -o pipefail -c command`, or bwrap around it)
 * as the leader of a new session and group (setsid: no controlling terminal),
 * stdin on /dev/null so a read gets EOF, stdout and stderr both on the
 * child's stdout pipe.
 */
export function spawnGroupLeader(
  spawn: typeof nodeSpawn,
  argv: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  statusPipe = false,
): { child?: ChildProcess; error?: Error } {
  try {
    const child = spawn("/bin/sh", ["-c", JOIN_STREAMS, "sh", ...argv], {
      cwd,
      detached: true,
      // fd 4: a sandboxed job's supervisor reports there (sandbox-supervisor.ts);
      // fd 3 is where bwrap is handed its seccomp filter.
      stdio: statusPipe ? ["ignore", "pipe", "ignore", "ignore", "pipe"] : ["ignore", "pipe", "ignore"],
      env,
    });
    return { child };
  } catch (err) {
    return { error: err as Error };
  }
}
