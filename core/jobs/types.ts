// The job manager's contract: every command the agent runs is a job, in
// the foreground or the background, under either tool surface. One manager
// per session owns them all, so every process ends with the session.

import type { LogReader } from "./job-log.js";

export type JobStatus =
  | "running" // the command or something it left in its process group still runs
  | "stopping" // a kill was sent and the group is not gone yet
  | "exited" // ended on its own
  | "killed" // ended by a kill (job_kill, bash_kill, cancel, session end)
  | "timed_out"; // ended by its deadline

export interface JobSpec {
  command: string;
  cwd: string;
  /** Short human label (Chord's `description`); defaults to the command. */
  label?: string;
  /** Milliseconds from start after which the whole group is killed; none when undefined. */
  deadlineMs?: number;
  /** The tool call that started the job. */
  callId?: string;
  /** Started as a background job (not a foreground command). */
  background: boolean;
  /** Extra environment on top of the manager's base environment. */
  env?: Record<string, string>;
  /** The agent that started it: a worker's task id; the main agent when absent. */
  owner?: string;
}

export interface JobSnapshot {
  id: string;
  command: string;
  label: string;
  status: JobStatus;
  background: boolean;
  /** Pid of the shell, which is also the process group id. */
  pid: number;
  startedAt: number;
  endedAt?: number;
  /** Last time new output arrived (startedAt when none has). */
  lastOutputAt: number;
  /** Exit code of the shell; null when it died of a signal or is still running. */
  exitCode: number | null;
  signal: string | null;
  deadlineAt?: number;
  /** Every byte the job has written so far (stdout and stderr, in order, after redaction). */
  totalBytes: number;
  /** The output log on disk: all of it, or its head and tail past [output].max_job_log_bytes. */
  outputFile: string;
  /** The shell exited but other members of its group still run. */
  leaderExited: boolean;
  callId?: string;
  /**
   * What yuj undid after the (sandboxed) command ended: settings it planted
   * in the project's git repositories that git would have run on the host.
   */
  repoNotice?: string;
  /** Why it was stopped (the first kill's reason), once a kill was sent. */
  killReason?: string;
  /** The agent that started it (JobSpec.owner); the main agent when absent. */
  owner?: string;
  /** A read by the main agent after the job ended has taken its output to the last byte: the model has seen how it ended. */
  endRead?: boolean;
}

/**
 * Why a job the user stopped (the jobs panel, a client's kill_job) was
 * stopped, in Chord's words; a client's own reason follows it. Unlike the
 * model's own job_kill, such a stop is news to the model.
 */
export const USER_STOP_REASON = "stopped by user";

/** The reader a read without one is: the session's main agent. */
export const MAIN_READER = "main";

/** New output since the previous read, bounded for the model. */
export interface OutputRead {
  /** Terminal escapes stripped; at most the preview budget, head and tail. */
  text: string;
  /** Bytes that arrived since the previous read. */
  newBytes: number;
  /** Bytes of those left out of `text` (0 when all fit). */
  omittedBytes: number;
  /** Bytes of the range the log no longer holds (past [output].max_job_log_bytes). */
  droppedBytes: number;
  /** Newlines in the range (counted as the output arrived, never by re-reading it). */
  lines: number;
  /** Byte range of the output file this read covered: [from, to). */
  from: number;
  to: number;
  snapshot: JobSnapshot;
}

type WaitFor = "exit" | "output";

export type WaitResult =
  | "exited" // the job is no longer running
  | "output" // new output arrived (only when waiting for output)
  | "timeout" // the wait expired; the job keeps running
  | "cancelled"; // the caller's signal fired; the job keeps running

export interface KillResult {
  /** false when the group could not be proven to still be ours (see job_kill). */
  confirmed: boolean;
  snapshot: JobSnapshot;
}

export interface JobManager {
  start(spec: JobSpec): JobSnapshot;
  get(id: string): JobSnapshot | undefined;
  /** Running and stopping jobs, or all when includeFinished. Oldest first. */
  list(opts?: { includeFinished?: boolean }): JobSnapshot[];
  /** Waits until the job exits, or (for "output") output `reader` has not read exists. */
  wait(id: string, until: WaitFor, timeoutMs: number, signal?: AbortSignal, reader?: string): Promise<WaitResult>;
  /**
   * Output since `reader`'s previous read of this job; advances that reader's
   * cursor only. A budget of 0 makes no preview. The reader is the reading
   * agent ("main" when absent): each agent reads every byte once.
   */
  readNew(id: string, previewBytes?: number, reader?: string): Promise<OutputRead>;
  /** The job's output log, for reads of ranges readNew returned. */
  log(id: string): LogReader;
  /** SIGTERM to the group, SIGKILL after a grace period; resolves when it is gone. */
  kill(id: string, reason?: string): Promise<KillResult>;
  /** Ends every job (session end). */
  shutdown(): Promise<void>;
  /** Synchronous last resort for process 'exit': SIGKILL every live group. */
  killAllSync(): void;
}
