// The job manager: every command runs as `bash -c` leading its own process
// group, with stdout and stderr both on ONE pipe, so the two streams keep
// their order. yuj reads the pipe into the job's log (job-log.ts): redacted,
// capped at [output].max_job_log_bytes, its lines counted on the way, and
// written synchronously, so memory stays flat however much a command prints
// and a reader only ever reads the byte ranges it shows.
//
// With a sandbox, the group leader is bwrap and the shell runs inside it,
// under a supervisor that keeps the namespace while the command's processes
// run (sandbox-supervisor.ts): bwrap runs with --die-with-parent in its own
// pid namespace, so signalling the group (or yuj dying) still ends every
// process the command started.
// Without it, what leaves the group (setsid, daemons) is found at the end by
// the marker in its environment (escapees.ts).

import * as path from "node:path";
import { spawn as nodeSpawn } from "node:child_process";
import type { Emit } from "../events.js";
import { systemClock, type Clock } from "../services.js";
import type { Sandbox } from "../sandbox/index.js";
import { MAIN_READER, type JobManager } from "./types.js";
import { signalGroup } from "./process-group.js";
import { OrphanRegistry, selfIdentity } from "./orphans.js";
import { EscapeWatch, killMarkedSync, stopMarked, type Marked } from "./escapees.js";
import { logIdAllocator } from "./ids.js";
import { isLive } from "./snapshot.js";
import { isOurs, snapshotOf, stop, type Job, type JobRuntime } from "./job-life.js";
import { startJob, type JobStarter } from "./job-start.js";
import { waitForJob } from "./job-wait.js";

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

export function createJobManager(opts: JobManagerOptions): JobManager {
  const jobs = new Map<string, Job>();
  const registry = new OrphanRegistry(opts.sessionDir, opts.stateDir);
  const watch = opts.escapees ?? new EscapeWatch();
  watch.onArmed(() => registry.keepMarker(watch.marker));
  const rt = runtime(opts, jobs, registry);
  const starter = jobStarter(opts, rt, jobs, watch);
  const must = (id: string): Job => {
    const job = jobs.get(id);
    if (!job) throw new Error(`unknown job: ${id}`);
    return job;
  };
  const live = () => [...jobs.values()].filter((j) => isLive(j.snap.status));

  const manager: JobManager = {
    start: (spec) => startJob(starter, spec),
    wait: (id, until, timeoutMs, signal, reader) => waitForJob(must(id), until, timeoutMs, rt.clock, signal, reader ?? MAIN_READER),
    get: (id) => {
      const job = jobs.get(id);
      return job ? snapshotOf(job) : undefined;
    },
    list: (listOpts) => (listOpts?.includeFinished ? [...jobs.values()] : live()).map(snapshotOf),
    async readNew(id, previewBytes, reader = MAIN_READER) {
      const job = must(id);
      const running = isLive(job.snap.status);
      const read = job.out.readNew(running, previewBytes ?? opts.previewBytes ?? 16384, reader);
      // A read of an ended job reads to its end (nothing is held back), with its status.
      // The completion notice goes to the main agent: only its own read makes it unneeded.
      if (!running && reader === MAIN_READER) job.snap.endRead = true;
      return { ...read, snapshot: snapshotOf(job) };
    },
    log: (id) => must(id).out.log,
    kill(id, reason) {
      const job = must(id);
      if (!isLive(job.snap.status)) return Promise.resolve({ confirmed: true, snapshot: snapshotOf(job) });
      return stop(rt, job, "killed", reason ?? "killed");
    },
    async shutdown() {
      await Promise.all(live().map((j) => manager.kill(j.snap.id, "session end")));
      if (watch.armed) {
        reportEscapees(opts.emit, await stopMarked(watch.marker, rt.graceMs, rt.clock));
        disarm(watch, registry);
      }
      registry.removePointer();
    },
    killAllSync() {
      for (const job of live()) if (isOurs(job)) signalGroup(job.snap.pid, "SIGKILL");
      if (watch.armed) {
        killMarkedSync(watch.marker);
        disarm(watch, registry);
      }
      registry.write([]);
      registry.removePointer();
    },
  };
  return manager;
}

/** The runtime every job shares; saving the registry writes what a later yuj needs to reap the live ones. */
function runtime(opts: JobManagerOptions, jobs: Map<string, Job>, registry: OrphanRegistry): JobRuntime {
  const self = selfIdentity();
  const saveRegistry = () => {
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
  };
  return {
    emit: opts.emit,
    clock: opts.clock ?? systemClock,
    graceMs: opts.killGraceMs ?? 2000,
    saveRegistry,
    ...(opts.sandbox ? { sandbox: opts.sandbox } : {}),
  };
}

function jobStarter(opts: JobManagerOptions, rt: JobRuntime, jobs: Map<string, Job>, watch: EscapeWatch): JobStarter {
  const jobsDir = path.join(opts.sessionDir, "jobs");
  return {
    ...rt,
    jobsDir,
    nextId: logIdAllocator(jobsDir, "j"),
    jobs,
    watch,
    spawn: opts.spawn ?? nodeSpawn,
    secrets: opts.secrets ?? [],
    ...(opts.env ? { env: opts.env } : {}),
    ...(opts.maxLogBytes !== undefined ? { maxLogBytes: opts.maxLogBytes } : {}),
  };
}

function disarm(watch: EscapeWatch, registry: OrphanRegistry): void {
  watch.disarm();
  registry.dropMarker();
}

/** Processes that had left their job's group, stopped at the end: named, as nothing else shows them. */
function reportEscapees(emit: Emit, stopped: Marked[]): void {
  if (stopped.length === 0) return;
  const names = stopped.map((p) => `${p.pid} (${p.command || "?"})`).join(", ");
  emit({ type: "notice", level: "info", text: `stopped ${stopped.length} process(es) that had left their command's process group: ${names}` });
}
