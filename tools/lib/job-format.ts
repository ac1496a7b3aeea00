// Words shared by the command tools of both surfaces: how a job's state and
// times read to the model.

import { formatDuration } from "../../core/format.js";
import type { JobSnapshot } from "../../core/jobs/types.js";

export { formatDuration };

/** The `[status: ...]` line that ends every job read. */
export function statusLine(job: JobSnapshot): string {
  return `[status: ${statusWords(job)}]`;
}

// The words are Chord's: a clean exit is `completed (exit code 0)`, any
// other end of the command `failed (…)`, a stop `killed (…)`.
export function statusWords(job: Pick<JobSnapshot, "status" | "leaderExited" | "deadlineAt" | "startedAt" | "exitCode" | "signal" | "killReason">): string {
  switch (job.status) {
    case "running":
      return job.leaderExited ? "running (the command exited; processes it started still run)" : "running";
    case "stopping":
      return "stopping";
    case "timed_out":
      if (job.deadlineAt === undefined) return "killed (timed out)";
      return `killed (timed out after ${limitWords(job.deadlineAt - job.startedAt)})`;
    case "killed":
      // Every later read says why, as the stop itself did.
      return job.killReason ? `killed (${job.killReason})` : "killed";
    case "exited":
      if (job.exitCode === 0) return "completed (exit code 0)";
      return job.exitCode !== null ? `failed (exit code ${job.exitCode})` : `failed (${signalWords(job.signal)})`;
  }
}

// How Go, and so Chord, names the common signals in an exit status.
const SIGNAL_WORDS: Record<string, string> = {
  SIGTERM: "terminated",
  SIGKILL: "killed",
  SIGINT: "interrupt",
  SIGHUP: "hangup",
  SIGQUIT: "quit",
  SIGABRT: "aborted",
  SIGSEGV: "segmentation fault",
  SIGPIPE: "broken pipe",
  SIGBUS: "bus error",
  SIGFPE: "floating point exception",
  SIGILL: "illegal instruction",
};

function signalWords(signal: string | null): string {
  if (signal === null) return "signal: unknown";
  const words = SIGNAL_WORDS[signal];
  return words ? `signal: ${words}, ${signal}` : `signal: ${signal}`;
}

/** `[yuj: …]`: what yuj undid in the project's repositories after the command; "" when nothing. */
export function repoNoticeLine(job: JobSnapshot): string {
  return job.repoNotice ? `[yuj: ${job.repoNotice}]` : "";
}

export function isLive(job: JobSnapshot): boolean {
  return job.status === "running" || job.status === "stopping";
}

/**
 * A job table's durations as Chord writes them: whole seconds, rounded
 * (`0s`, `45s`, `3m05s`, `1h02m03s`), and anything under a second `0s`,
 * so a job that has not run a full second never reads as `1s`.
 */
export function formatElapsed(ms: number): string {
  const total = ms < 1000 ? 0 : Math.round(ms / 1000);
  const [h, m, s] = [Math.floor(total / 3600), Math.floor((total % 3600) / 60), total % 60];
  const two = (n: number) => String(n).padStart(2, "0");
  if (h > 0) return `${h}h${two(m)}m${two(s)}s`;
  if (m > 0) return `${m}m${two(s)}s`;
  return `${s}s`;
}

/** A deadline as Chord states it (`30s`); under a second in milliseconds. */
const limitWords = (ms: number) => (ms < 1000 ? `${Math.round(ms)}ms` : formatElapsed(ms));

/** A running job silent this long gets Chord's remark that it may still be working. */
const QUIET_REMARK_AFTER_MS = 5 * 60_000;

/**
 * How long a job has been silent, in Chord's words: `quiet 5s` after output,
 * `no output for 12m00s` before any, and past five minutes of silence while
 * running `; the runner may still be working` (a long silence is not proof
 * of a hang).
 */
export function quietWords(job: JobSnapshot, now: number): string {
  const quietMs = (job.endedAt ?? now) - job.lastOutputAt;
  const words = job.totalBytes === 0 ? `no output for ${formatElapsed(quietMs)}` : `quiet ${formatElapsed(quietMs)}`;
  return job.status === "running" && quietMs >= QUIET_REMARK_AFTER_MS ? `${words}; the runner may still be working` : words;
}

/** One row of a job table: id, status, elapsed, quiet, deadline, label. */
export function jobRow(job: JobSnapshot, now: number): string {
  const end = job.endedAt ?? now;
  const parts = [
    job.id,
    statusWords(job),
    `elapsed ${formatElapsed(end - job.startedAt)}`,
    quietWords(job, now),
    job.deadlineAt === undefined
      ? "no deadline"
      : isLive(job)
        ? `deadline in ${formatElapsed(Math.max(0, job.deadlineAt - now))}`
        : "deadline passed or unused",
    job.label,
  ];
  return parts.join(" | ");
}
