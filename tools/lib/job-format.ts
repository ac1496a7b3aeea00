// Words shared by the command tools of both surfaces: how a job's state and
// times read to the model.

import { formatDuration } from "../../core/format.js";
import type { JobSnapshot } from "../../core/jobs/types.js";

export { formatDuration };

/** The `[status: ...]` line that ends every job read. */
export function statusLine(job: JobSnapshot): string {
  return `[status: ${statusWords(job)}]`;
}

function statusWords(job: JobSnapshot): string {
  switch (job.status) {
    case "running":
      return job.leaderExited ? "running (the command exited; processes it started still run)" : "running";
    case "stopping":
      return "stopping";
    case "timed_out":
      return "timed out (stopped at its deadline)";
    case "killed":
      return "killed";
    case "exited":
      return job.exitCode !== null ? `exited (code ${job.exitCode})` : `exited (signal ${job.signal ?? "unknown"})`;
  }
}

/** `[yuj: …]`: what yuj undid in the project's repositories after the command; "" when nothing. */
export function repoNoticeLine(job: JobSnapshot): string {
  return job.repoNotice ? `[yuj: ${job.repoNotice}]` : "";
}

export function isLive(job: JobSnapshot): boolean {
  return job.status === "running" || job.status === "stopping";
}

/** One row of a job table: id, status, elapsed, quiet, deadline, label. */
export function jobRow(job: JobSnapshot, now: number): string {
  const end = job.endedAt ?? now;
  const parts = [
    job.id,
    statusWords(job),
    `elapsed ${formatDuration(end - job.startedAt)}`,
    `quiet ${formatDuration(end - job.lastOutputAt)}`,
    job.deadlineAt === undefined
      ? "no deadline"
      : isLive(job)
        ? `deadline in ${formatDuration(Math.max(0, job.deadlineAt - now))}`
        : "deadline passed or unused",
    job.label,
  ];
  return parts.join(" | ");
}
