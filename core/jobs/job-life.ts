// One job from its start to its end: what happens when its shell exits, when
// its process group is gone, when it grows output, and how it is stopped.
// The job manager (manager.ts) holds the table of jobs; these functions act
// on one job and report what they see as events.

import type { Emit } from "../events.js";
import type { Clock } from "../services.js";
import type { Sandbox } from "../sandbox/index.js";
import type { JobSnapshot, KillResult } from "./types.js";
import type { JobOutput } from "./job-output.js";
import { extendMembers, groupAnswers, groupLive, mayStillBeOurs, terminateGroup } from "./process-group.js";
import { groupMembers, type Member } from "./proc.js";
import { checkReposAfter, isLive } from "./snapshot.js";
import { leftRunningStatus } from "./sandbox-supervisor.js";

export interface Job {
  snap: JobSnapshot;
  out: JobOutput;
  leaderStartTime?: number;
  /** The shell has exited and been reaped: its pid no longer holds the group number. */
  reaped: boolean;
  /** Group members recorded when the shell exited, extended while provable. */
  members: Member[];
  /** Runs inside the sandbox: bwrap leads the group, and its pid namespace holds everything else. */
  confined: boolean;
  /** A sandboxed shell's status, reported when it exited leaving processes running. */
  shellStatus?: number;
  endAs?: "killed" | "timed_out";
  /** Its repositories are being checked (sandboxed jobs) before it is reported ended. */
  checking?: boolean;
  killing?: Promise<KillResult>;
  tick?: NodeJS.Timeout;
  deadline?: { cancel(): void };
  /** Called on new output and at the end; waiters hook in here. */
  listeners: Set<() => void>;
}

/** What every job of one manager shares. */
export interface JobRuntime {
  emit: Emit;
  clock: Clock;
  sandbox?: Sandbox;
  /** Between SIGTERM and SIGKILL. */
  graceMs: number;
  /** Rewrites the registry of live jobs, which a later yuj uses to reap orphans. */
  saveRegistry(): void;
}

export const snapshotOf = (job: Job): JobSnapshot => ({ ...job.snap });

function wake(job: Job): void {
  for (const listener of [...job.listeners]) listener();
}

/** New output is in the log. */
export function grew(rt: JobRuntime, job: Job): void {
  job.snap.totalBytes = job.out.size;
  job.snap.lastOutputAt = rt.clock.now();
  wake(job);
}

export function onLeaderExit(rt: JobRuntime, job: Job, code: number | null, signal: NodeJS.Signals | null): void {
  // A sandboxed command's status is its shell's, as outside, even when
  // what it left running was stopped later (and took bwrap with it).
  job.snap.exitCode = job.shellStatus ?? code;
  job.snap.signal = job.shellStatus === undefined ? signal : null;
  job.reaped = true;
  // Most commands leave nothing behind: when the group number answers no
  // signal, skip the walk over /proc. Otherwise record who is left, so a
  // later kill can prove the group is still ours. Until the output pipe is
  // drained the job still runs, but only leftovers make it "leader exited".
  if (!groupAnswers(job.snap.pid)) return groupGone(rt, job);
  job.members = groupMembers(job.snap.pid).map((s) => ({ pid: s.pid, startTime: s.startTime }));
  if (!groupLive(job.snap.pid, job.members)) return groupGone(rt, job);
  rt.saveRegistry();
  // Inside the sandbox the leader is bwrap, which exits only once nothing of
  // the command runs (its supervisor waits for that); what is still in the
  // group then is the sandbox ending: bwrap's child (the pid namespace's
  // init) dies with it (--die-with-parent), and the kernel kills whatever
  // else the namespace holds. Nothing there outlives it, however long the
  // teardown takes, so it is not "left running": the job ends when the tick
  // sees the group gone. What a sandboxed shell leaves running is reported
  // by its supervisor (followShellExit).
  if (job.confined) return;
  job.snap.leaderExited = true;
}

/**
 * A sandboxed job's supervisor says when the command's shell exited while
 * other processes it started still run: the job is then "leader exited",
 * as the same command would be outside the sandbox.
 */
export function followShellExit(job: Job, status: NodeJS.ReadableStream): void {
  let text = "";
  status.on("data", (chunk: Buffer) => {
    text += chunk.toString("utf8");
    const line = text.split("\n")[0]!;
    const shellStatus = text.includes("\n") ? leftRunningStatus(line) : undefined;
    if (shellStatus === undefined || job.snap.status !== "running" || job.reaped) return;
    job.shellStatus = shellStatus;
    job.snap.leaderExited = true;
    wake(job);
  });
  status.on("error", () => undefined);
}

/** Nothing of the job runs any more: it ends once its output is all in. */
export function groupGone(rt: JobRuntime, job: Job): void {
  // Whatever was left behind has ended or left the group (setsid).
  job.snap.leaderExited = false;
  if (job.out.afterGroupGone(() => finish(rt, job))) finish(rt, job);
}

/**
 * Nothing of the job runs and its output is in. A sandboxed job is
 * reported ended only once the project's repositories are checked for
 * what it planted there, so its result can say what was undone.
 */
export function finish(rt: JobRuntime, job: Job): void {
  if (!isLive(job.snap.status) || job.checking) return;
  clearInterval(job.tick);
  job.deadline?.cancel();
  if (!job.confined || !rt.sandbox) return close(rt, job);
  job.checking = true;
  void checkReposAfter(job.snap, rt.sandbox, rt.emit).finally(() => close(rt, job));
}

function close(rt: JobRuntime, job: Job): void {
  job.out.end(); // flushes the last job_output before job_exited
  job.snap.totalBytes = job.out.size;
  job.snap.status = job.endAs ?? "exited";
  job.snap.endedAt = rt.clock.now();
  rt.emit({
    type: "job_exited",
    jobId: job.snap.id,
    exitCode: job.snap.exitCode,
    signal: job.snap.signal,
    durationMs: job.snap.endedAt - job.snap.startedAt,
    status: job.snap.status as "exited" | "killed" | "timed_out",
  });
  rt.saveRegistry();
  wake(job);
}

/** Whether signalling the group is safe right now (see process-group.ts). */
export function isOurs(job: Job): boolean {
  if (job.snap.pid <= 1) return false;
  // Our unreaped shell holds the group number: nobody else can have it.
  if (!job.reaped) return true;
  job.members = extendMembers(job.snap.pid, job.members);
  return mayStillBeOurs(job.snap.pid, job.members);
}

/** Stops the job's group (once: a second call gets the first one's promise). */
export function stop(rt: JobRuntime, job: Job, endAs: "killed" | "timed_out", reason: string): Promise<KillResult> {
  job.killing ??= terminate(rt, job, endAs, reason);
  return job.killing;
}

function terminate(rt: JobRuntime, job: Job, endAs: "killed" | "timed_out", reason: string): Promise<KillResult> {
  job.endAs ??= endAs;
  job.snap.killReason ??= reason;
  job.snap.status = "stopping";
  const confirmed = isOurs(job);
  rt.emit({ type: "job_killed", jobId: job.snap.id, reason, confirmed });
  if (!confirmed) {
    // The number may belong to a stranger now: stop tracking, signal nothing.
    finish(rt, job);
    return Promise.resolve({ confirmed, snapshot: snapshotOf(job) });
  }
  return terminateGroup(job.snap.pid, {
    graceMs: rt.graceMs,
    clock: rt.clock,
    isOurs: () => isOurs(job),
    isGone: () => !isLive(job.snap.status),
  }).then(() => ({ confirmed, snapshot: snapshotOf(job) }));
}
