// Starting one job: its output log, its environment, the sandbox's wrapping,
// the spawn of its group leader, and the watchers that end it (the shell's
// exit, the liveness tick, the deadline). A start that cannot spawn still
// makes a job, which ends at once with the reason as its output, so every
// tool shows it the way it shows a failed command.

import * as fs from "node:fs";
import * as path from "node:path";
import type { spawn as nodeSpawn } from "node:child_process";
import { clockTimer } from "../services.js";
import type { JobSnapshot, JobSpec } from "./types.js";
import { DEFAULT_MAX_LOG_BYTES } from "./job-log.js";
import { JobOutput } from "./job-output.js";
import { groupLive, jobEnv, spawnGroupLeader } from "./process-group.js";
import { commandEnv } from "./shell-env.js";
import { readStartTime } from "./proc.js";
import { unavailableMessage } from "../sandbox/index.js";
import type { EscapeWatch } from "./escapees.js";
import { finish, followShellExit, grew, groupGone, onLeaderExit, snapshotOf, stop, type Job, type JobRuntime } from "./job-life.js";
import { STATUS_FD, supervisedArgv } from "./sandbox-supervisor.js";
import { isLive, newSnapshot } from "./snapshot.js";

const TICK_MS = 80; // poll of the group's liveness once the shell has exited

/** What starting a job needs beyond the shared runtime. */
export interface JobStarter extends JobRuntime {
  jobsDir: string;
  nextId(): string;
  jobs: Map<string, Job>;
  watch: EscapeWatch;
  spawn: typeof nodeSpawn;
  /** Base environment, already filtered; yuj's own under the default policy when absent. */
  env?: NodeJS.ProcessEnv;
  secrets: readonly string[];
  maxLogBytes?: number;
}

export function startJob(s: JobStarter, spec: JobSpec): JobSnapshot {
  fs.mkdirSync(s.jobsDir, { recursive: true });
  const id = s.nextId();
  const out = new JobOutput(path.join(s.jobsDir, `${id}.log`), {
    maxBytes: s.maxLogBytes ?? DEFAULT_MAX_LOG_BYTES,
    secrets: s.secrets,
    now: () => s.clock.now(),
    onText: (text, totalBytes) => s.emit({ type: "job_output", jobId: id, text, totalBytes }),
  });
  const env = { ...jobEnv(s.env ?? commandEnv(process.env), spec.env), ...s.watch.env() };
  // Inside the sandbox a supervisor keeps the pid namespace alive while the
  // command's processes run (sandbox-supervisor.ts).
  const supervise = s.sandbox?.active === true;
  const wrapped = supervise ? s.sandbox!.wrapArgv(supervisedArgv(spec.command), spec.cwd, env) : s.sandbox?.wrap(spec.command, spec.cwd, env);
  if (wrapped && "error" in wrapped) return refuse(s, register(s, id, spec, 0, out), wrapped.error);
  const confined = wrapped !== undefined && supervise;
  s.watch.started(confined);
  const notice = s.sandbox?.takeNotice();
  if (notice) s.emit({ type: "notice", level: "warning", text: notice });
  // Unsandboxed (or with bwrap unusable in auto mode) the job is `bash -o pipefail -c command`.
  const argv = wrapped ? [wrapped.file, ...wrapped.args] : ["bash", "-o", "pipefail", "-c", spec.command];
  const childEnv = wrapped ? { ...wrapped.env, ...spec.env } : env;
  const { child, error } = spawnGroupLeader(s.spawn, argv, spec.cwd, childEnv, confined);
  const job = register(s, id, spec, child?.pid ?? 0, out, confined);
  if (!child) queueMicrotask(() => failStart(s, job, error ?? new Error("no process")));
  else follow(s, job, child, spec);
  return snapshotOf(job);
}

/** Hooks the job's end onto its leader, its output pipe, the liveness tick and the deadline. */
function follow(s: JobStarter, job: Job, child: NonNullable<ReturnType<typeof spawnGroupLeader>["child"]>, spec: JobSpec): void {
  const pid = job.snap.pid;
  // Without a pid the spawn failed (bad cwd, no bash): 'error' comes, 'exit' never does.
  child.on("error", (err) => pid === 0 && failStart(s, job, err));
  child.on("exit", (code, signal) => onLeaderExit(s, job, code, signal));
  if (child.stdout) job.out.follow(child.stdout, () => grew(s, job), () => finish(s, job));
  const status = job.confined ? child.stdio[STATUS_FD] : undefined;
  if (status && "on" in status) followShellExit(job, status as NodeJS.ReadableStream);
  s.saveRegistry();
  job.tick = setInterval(() => {
    if (job.reaped && !groupLive(pid, job.members)) groupGone(s, job);
  }, TICK_MS);
  if (spec.deadlineMs !== undefined) {
    job.deadline = clockTimer(s.clock, spec.deadlineMs, () => {
      if (isLive(job.snap.status)) void stop(s, job, "timed_out", "deadline");
    });
  }
}

/** Tracks a new job and announces it. */
function register(s: JobStarter, id: string, spec: JobSpec, pid: number, out: JobOutput, confined = false): Job {
  const outputFile = out.log.path;
  const snap = newSnapshot(id, spec, pid, outputFile, s.clock.now());
  const job: Job = { snap, out, reaped: false, members: [], confined, listeners: new Set() };
  if (pid > 1) job.leaderStartTime = readStartTime(pid);
  s.jobs.set(id, job);
  s.emit({
    type: "job_started",
    jobId: id,
    command: spec.command,
    background: spec.background,
    outputFile,
    ...(pid > 0 ? { pid } : {}),
    ...(spec.label !== undefined ? { label: spec.label } : {}),
    ...(snap.deadlineAt !== undefined ? { deadlineAt: snap.deadlineAt } : {}),
    ...(spec.callId !== undefined ? { callId: spec.callId } : {}),
  });
  return job;
}

/** The shell could not be started: shown where the output would be, the job reads like a failed command. */
function failStart(s: JobStarter, job: Job, err: Error): void {
  endWith(s, job, `yuj: failed to start bash: ${err.message}\n`, 127);
}

/** A required sandbox that cannot start: nothing is spawned (exit code 126: found but could not be run). */
function refuse(s: JobStarter, job: Job, reason: string): JobSnapshot {
  endWith(s, job, `yuj: ${unavailableMessage(reason)}\n`, 126);
  return snapshotOf(job);
}

function endWith(s: JobStarter, job: Job, text: string, exitCode: number): void {
  job.out.append(Buffer.from(text));
  grew(s, job);
  job.snap.exitCode = exitCode;
  job.reaped = true;
  finish(s, job);
}
