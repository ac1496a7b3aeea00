// The job manager: every command runs as `bash -c` leading its own process
// group, with stdout and stderr both on ONE pipe, so the two streams keep
// their order. yuj reads the pipe into the job's log (job-log.ts): redacted,
// capped at [output].max_job_log_bytes, its lines counted on the way, and
// written synchronously, so memory stays flat however much a command prints
// and a reader only ever reads the byte ranges it shows.
//
// With a sandbox, the group leader is bwrap and the shell runs inside it:
// bwrap runs with --die-with-parent in its own pid namespace, so signalling
// the group (or yuj dying) still ends every process the command started.
// Without it, what leaves the group (setsid, daemons) is found at the end by
// the marker in its environment (escapees.ts).

import * as fs from "node:fs";
import * as path from "node:path";
import { spawn as nodeSpawn } from "node:child_process";
import type { Emit } from "../events.js";
import { systemClock, type Clock } from "../services.js";
import type { JobManager, JobSnapshot, JobSpec, KillResult, WaitResult } from "./types.js";
import { DEFAULT_MAX_LOG_BYTES, type LogReader } from "./job-log.js";
import { JobOutput } from "./job-output.js";
import { extendMembers, groupAnswers, groupLive, jobEnv, mayStillBeOurs, signalGroup, spawnGroupLeader, terminateGroup } from "./process-group.js";
import { commandEnv } from "./shell-env.js";
import { groupMembers, readStartTime, type Member } from "./proc.js";
import { OrphanRegistry, selfIdentity } from "./orphans.js";
import { unavailableMessage, type Sandbox } from "../sandbox/index.js";
import { EscapeWatch, killMarkedSync, stopMarked, type Marked } from "./escapees.js";
import { logIdAllocator } from "./ids.js";
import { checkReposAfter, isLive, newSnapshot } from "./snapshot.js";

export interface JobManagerOptions {
  /** Output files go to `<sessionDir>/jobs/<jobId>.log`, beside registry.json. */
  sessionDir: string;
  emit: Emit;
  clock?: Clock;
  /**
   * Base environment of every job, already filtered (shell-env.ts); when
   * absent, yuj's own environment under the default policy.
   */
  env?: NodeJS.ProcessEnv;
  /** Values hidden from the output logs (see redact.ts). */
  secrets?: readonly string[];
  /** Bytes of one job's output kept on disk ([output].max_job_log_bytes). */
  maxLogBytes?: number;
  /** Between SIGTERM and SIGKILL. Default 2000. */
  killGraceMs?: number;
  /** Default budget of readNew(). Default 16384. */
  previewBytes?: number;
  /** yuj's state dir: enables the `<stateDir>/running/<pid>.json` pointer for reapOrphans(). */
  stateDir?: string;
  /** Injected for tests; node's spawn by default. */
  spawn?: typeof nodeSpawn;
  /** Runs every command through it; none means plain `bash -c` (tests, sandbox off). */
  sandbox?: Sandbox;
  /** The marker of every command, shared with the terminal beside it; a new one when absent. */
  escapees?: EscapeWatch;
}

const TICK_MS = 80; // poll of the group's liveness once the shell has exited
/** How long an output wait lets a burst of output go on before it wakes. */
const OUTPUT_SETTLE_MS = 25;

interface Job {
  snap: JobSnapshot;
  out: JobOutput;
  leaderStartTime?: number;
  /** The shell has exited and been reaped: its pid no longer holds the group number. */
  reaped: boolean;
  /** Group members recorded when the shell exited, extended while provable. */
  members: Member[];
  /** Runs inside the sandbox: bwrap leads the group, and its pid namespace holds everything else. */
  confined: boolean;
  endAs?: "killed" | "timed_out";
  /** Its repositories are being checked (sandboxed jobs) before it is reported ended. */
  checking?: boolean;
  killing?: Promise<KillResult>;
  tick?: NodeJS.Timeout;
  deadline?: NodeJS.Timeout;
  /** Called on new output and at the end; waiters hook in here. */
  listeners: Set<() => void>;
}

export function createJobManager(opts: JobManagerOptions): JobManager {
  const clock = opts.clock ?? systemClock;
  const graceMs = opts.killGraceMs ?? 2000;
  const jobsDir = path.join(opts.sessionDir, "jobs");
  const registry = new OrphanRegistry(opts.sessionDir, opts.stateDir);
  const self = selfIdentity();
  const watch = opts.escapees ?? new EscapeWatch();
  watch.onArmed(() => registry.keepMarker(watch.marker));
  const jobs = new Map<string, Job>();
  const nextId = logIdAllocator(jobsDir, "j");

  const copy = (job: Job): JobSnapshot => ({ ...job.snap });
  const must = (id: string): Job => {
    const job = jobs.get(id);
    if (!job) throw new Error(`unknown job: ${id}`);
    return job;
  };
  const wake = (job: Job) => {
    for (const listener of [...job.listeners]) listener();
  };

  function saveRegistry(): void {
    const live = [...jobs.values()].filter((j) => isLive(j.snap.status) && j.snap.pid > 1);
    registry.write(
      live.map((j) => ({
        jobId: j.snap.id,
        pgid: j.snap.pid,
        ...(j.leaderStartTime !== undefined ? { leaderStartTime: j.leaderStartTime } : {}),
        members: j.members,
        command: j.snap.command,
        ...self,
      })),
    );
  }

  function onLeaderExit(job: Job, code: number | null, signal: NodeJS.Signals | null): void {
    job.snap.exitCode = code;
    job.snap.signal = signal;
    job.reaped = true;
    // Most commands leave nothing behind: when the group number answers no
    // signal, skip the walk over /proc. Otherwise record who is left, so a
    // later kill can prove the group is still ours. Until the output pipe is
    // drained the job still runs, but only leftovers make it "leader exited".
    if (!groupAnswers(job.snap.pid)) return groupGone(job);
    job.members = groupMembers(job.snap.pid).map((s) => ({ pid: s.pid, startTime: s.startTime }));
    if (!groupLive(job.snap.pid, job.members)) return groupGone(job);
    saveRegistry();
    // Inside the sandbox the leader is bwrap, which exits as soon as the
    // command's shell has; what is still in the group then is the sandbox
    // ending: bwrap's child (the pid namespace's init) dies with it
    // (--die-with-parent), and the kernel kills whatever else the namespace
    // holds. Nothing there outlives it, however long the teardown takes (a
    // process freeing a lot of memory takes a while), so it is not "left
    // running": the job ends when the tick sees the group gone.
    if (job.confined) return;
    job.snap.leaderExited = true;
  }

  /** Nothing of the job runs any more: it ends once its output is all in. */
  function groupGone(job: Job): void {
    // Whatever was left behind has ended or left the group (setsid).
    job.snap.leaderExited = false;
    if (job.out.afterGroupGone(() => finish(job))) finish(job);
  }

  function grew(job: Job): void {
    job.snap.totalBytes = job.out.size;
    job.snap.lastOutputAt = clock.now();
    wake(job);
  }

  /**
   * Nothing of the job runs and its output is in. A sandboxed job is
   * reported ended only once the project's repositories are checked for
   * what it planted there, so its result can say what was undone.
   */
  function finish(job: Job): void {
    if (!isLive(job.snap.status) || job.checking) return;
    clearInterval(job.tick);
    clearTimeout(job.deadline);
    if (!job.confined || !opts.sandbox) return close(job);
    job.checking = true;
    void checkReposAfter(job.snap, opts.sandbox, opts.emit).finally(() => close(job));
  }

  function close(job: Job): void {
    job.out.end(); // flushes the last job_output before job_exited
    job.snap.totalBytes = job.out.size;
    job.snap.status = job.endAs ?? "exited";
    job.snap.endedAt = clock.now();
    opts.emit({
      type: "job_exited",
      jobId: job.snap.id,
      exitCode: job.snap.exitCode,
      signal: job.snap.signal,
      durationMs: job.snap.endedAt - job.snap.startedAt,
      status: job.snap.status as "exited" | "killed" | "timed_out",
    });
    saveRegistry();
    wake(job);
  }

  /** Whether signalling the group is safe right now (see process-group.ts). */
  function isOurs(job: Job): boolean {
    if (job.snap.pid <= 1) return false;
    // Our unreaped shell holds the group number: nobody else can have it.
    if (!job.reaped) return true;
    job.members = extendMembers(job.snap.pid, job.members);
    return mayStillBeOurs(job.snap.pid, job.members);
  }

  function terminate(job: Job, endAs: "killed" | "timed_out", reason: string): Promise<KillResult> {
    job.endAs ??= endAs;
    job.snap.status = "stopping";
    const confirmed = isOurs(job);
    opts.emit({ type: "job_killed", jobId: job.snap.id, reason, confirmed });
    if (!confirmed) {
      // The number may belong to a stranger now: stop tracking, signal nothing.
      finish(job);
      return Promise.resolve({ confirmed, snapshot: copy(job) });
    }
    return terminateGroup(job.snap.pid, {
      graceMs,
      clock,
      isOurs: () => isOurs(job),
      isGone: () => !isLive(job.snap.status),
    }).then(() => ({ confirmed, snapshot: copy(job) }));
  }

  /** Tracks a new job and announces it. */
  function register(id: string, spec: JobSpec, pid: number, out: JobOutput, confined = false): Job {
    const outputFile = out.log.path;
    const snap = newSnapshot(id, spec, pid, outputFile, clock.now());
    const job: Job = { snap, out, reaped: false, members: [], confined, listeners: new Set() };
    if (pid > 1) job.leaderStartTime = readStartTime(pid);
    jobs.set(id, job);
    opts.emit({
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

  function start(spec: JobSpec): JobSnapshot {
    fs.mkdirSync(jobsDir, { recursive: true });
    const id = nextId();
    const out = new JobOutput(path.join(jobsDir, `${id}.log`), {
      maxBytes: opts.maxLogBytes ?? DEFAULT_MAX_LOG_BYTES,
      secrets: opts.secrets ?? [],
      now: () => clock.now(),
      onText: (text, totalBytes) => opts.emit({ type: "job_output", jobId: id, text, totalBytes }),
    });
    const env = { ...jobEnv(opts.env ?? commandEnv(process.env), spec.env), ...watch.env() };
    const wrapped = opts.sandbox?.wrap(spec.command, spec.cwd, env);
    if (wrapped && "error" in wrapped) return refuse(id, spec, out, wrapped.error);
    const confined = wrapped !== undefined && opts.sandbox?.active === true;
    watch.started(confined);
    const notice = opts.sandbox?.takeNotice();
    if (notice) opts.emit({ type: "notice", level: "warning", text: notice });
    // The sandbox wraps exactly `bash -o pipefail -c command`.
    const argv = wrapped ? [wrapped.file, ...wrapped.args] : ["bash", "-o", "pipefail", "-c", spec.command];
    const childEnv = wrapped ? { ...wrapped.env, ...spec.env } : env;
    const { child, error } = spawnGroupLeader(opts.spawn ?? nodeSpawn, argv, spec.cwd, childEnv);
    const pid = child?.pid ?? 0;
    const job = register(id, spec, pid, out, confined);
    const snap = job.snap;

    const failStart = (err: Error) => {
      // Shown where the output would be: the job reads like a failed command.
      out.append(Buffer.from(`yuj: failed to start bash: ${err.message}\n`));
      grew(job);
      snap.exitCode = 127;
      job.reaped = true;
      finish(job);
    };
    if (!child) {
      queueMicrotask(() => failStart(error ?? new Error("no process")));
      return copy(job);
    }
    // Without a pid the spawn failed (bad cwd, no bash): 'error' comes, 'exit' never does.
    child.on("error", (err) => pid === 0 && failStart(err));
    child.on("exit", (code, signal) => onLeaderExit(job, code, signal));
    if (child.stdout) out.follow(child.stdout, () => grew(job), () => finish(job));
    saveRegistry();
    job.tick = setInterval(() => {
      if (job.reaped && !groupLive(pid, job.members)) groupGone(job);
    }, TICK_MS);
    if (spec.deadlineMs !== undefined) {
      job.deadline = setTimeout(() => {
        if (isLive(snap.status)) job.killing ??= terminate(job, "timed_out", "deadline");
      }, spec.deadlineMs);
    }
    return copy(job);
  }

  /**
   * A required sandbox that cannot start: nothing is spawned. The job still
   * exists and ends at once, so every tool shows the reason the way it shows
   * a failed command (exit code 126: found but could not be run).
   */
  function refuse(id: string, spec: JobSpec, out: JobOutput, reason: string): JobSnapshot {
    const job = register(id, spec, 0, out);
    out.append(Buffer.from(`yuj: ${unavailableMessage(reason)}\n`));
    grew(job);
    job.snap.exitCode = 126;
    job.reaped = true;
    finish(job);
    return copy(job);
  }

  function wait(id: string, until: "exit" | "output", timeoutMs: number, signal?: AbortSignal): Promise<WaitResult> {
    const job = must(id);
    const hasNew = () => job.out.unread;
    return new Promise<WaitResult>((resolve) => {
      if (!isLive(job.snap.status)) return resolve("exited");
      if (until === "output" && hasNew()) return resolve("output");
      if (signal?.aborted) return resolve("cancelled");
      let settle: NodeJS.Timeout | undefined;
      const done = (result: WaitResult) => {
        clearTimeout(timer);
        clearTimeout(settle);
        job.listeners.delete(listener);
        signal?.removeEventListener("abort", onAbort);
        resolve(result);
      };
      // New output wakes the wait a moment later, so the rest of a burst (and
      // the exit of a command that just printed its last line) comes with it.
      const listener = () => {
        if (!isLive(job.snap.status)) return done("exited");
        if (until === "output" && hasNew()) settle ??= setTimeout(() => done("output"), OUTPUT_SETTLE_MS);
      };
      const onAbort = () => done("cancelled");
      const timer = setTimeout(() => done("timeout"), timeoutMs);
      job.listeners.add(listener);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  /** Processes that had left their job's group, stopped at the end: named, as nothing else shows them. */
  function reportEscapees(stopped: Marked[]): void {
    if (stopped.length === 0) return;
    const names = stopped.map((p) => `${p.pid} (${p.command || "?"})`).join(", ");
    opts.emit({ type: "notice", level: "info", text: `stopped ${stopped.length} process(es) that had left their command's process group: ${names}` });
  }

  const manager: JobManager = {
    start,
    wait,
    get: (id) => {
      const job = jobs.get(id);
      return job ? copy(job) : undefined;
    },

    list(listOpts) {
      const all = [...jobs.values()];
      return (listOpts?.includeFinished ? all : all.filter((j) => isLive(j.snap.status))).map(copy);
    },

    async readNew(id, previewBytes) {
      const job = must(id);
      const read = job.out.readNew(isLive(job.snap.status), previewBytes ?? opts.previewBytes ?? 16384);
      return { ...read, snapshot: copy(job) };
    },

    log(id): LogReader {
      return must(id).out.log;
    },

    kill(id, reason) {
      const job = must(id);
      if (!isLive(job.snap.status)) return Promise.resolve({ confirmed: true, snapshot: copy(job) });
      job.killing ??= terminate(job, "killed", reason ?? "killed");
      return job.killing;
    },

    async shutdown() {
      const live = [...jobs.values()].filter((j) => isLive(j.snap.status));
      await Promise.all(live.map((j) => manager.kill(j.snap.id, "session end")));
      if (watch.armed) {
        reportEscapees(await stopMarked(watch.marker, graceMs, clock));
        watch.disarm();
        registry.dropMarker();
      }
      registry.removePointer();
    },

    killAllSync() {
      for (const job of jobs.values()) {
        if (isLive(job.snap.status) && isOurs(job)) signalGroup(job.snap.pid, "SIGKILL");
      }
      if (watch.armed) {
        killMarkedSync(watch.marker);
        watch.disarm();
        registry.dropMarker();
      }
      registry.write([]);
      registry.removePointer();
    },
  };
  return manager;
}
