// The Chord surface's background-job completion notice, in the block Chord
// wakes its model with: `[Background job j3 finished]`, the status in the
// words of a job read, how long it ran and had been quiet, its purpose and
// command, the end of its output (where failures and summaries land), and,
// unless it completed, the call that reads the rest. A job whose end the
// model already read gets none.

import { outputTail } from "../../../core/jobs/output-file.js";
import { commandLabel } from "../../../core/jobs/snapshot.js";
import type { JobEnd, NoticeStyle } from "../../../core/jobs/notices.js";
import type { JobManager, JobSnapshot } from "../../../core/jobs/types.js";
import { formatElapsed, statusWords } from "../job-format.js";

/** Bytes of output the notice carries at most. */
const NOTICE_TAIL_BYTES = 500;

export function chordNoticeStyle(jobs: JobManager): NoticeStyle {
  return {
    describe: (end, readTool) => chordNotice(end, jobs.get(end.exit.jobId), jobs, readTool),
    seen: (jobId) => jobs.get(jobId)?.endRead === true,
  };
}

function chordNotice(end: JobEnd, snap: JobSnapshot | undefined, jobs: JobManager, readTool: string | undefined): string {
  const { exit } = end;
  // Another workspace's job (an isolated child's) is not in this manager: its event says how it ended.
  const status = statusWords(snap ?? { status: exit.status ?? "exited", exitCode: exit.exitCode, signal: exit.signal ?? null, leaderExited: false, startedAt: 0 });
  const lines = [`[Background job ${exit.jobId} finished]`, "", `Status: ${status}`];
  if (snap?.endedAt !== undefined) {
    // How long it ran and how long it had been silent when it ended, as a job table states them.
    lines.push(`Elapsed: ${formatElapsed(snap.endedAt - snap.startedAt)}`);
    lines.push(`Quiet: ${formatElapsed(snap.endedAt - snap.lastOutputAt)}${snap.totalBytes === 0 ? " (no output yet)" : ""}`);
  }
  const purpose = end.description?.trim();
  if (purpose) lines.push(`Purpose: ${purpose}`);
  // The first line, cut past 200 characters: a heredoc must not fill the notice.
  const command = commandLabel(end.command);
  if (command) lines.push(`Command: ${command}`);
  const output = snap ? relevantOutput(jobs, exit.jobId) : "";
  if (output) lines.push("", "Relevant output:", output);
  // A clean exit is news enough; after anything else the rest of the output may matter.
  if (!status.startsWith("completed") && readTool) lines.push("", `Read its output with ${readTool}(${exit.jobId}).`);
  return lines.join("\n");
}

function relevantOutput(jobs: JobManager, id: string): string {
  const tail = outputTail(jobs.log(id), NOTICE_TAIL_BYTES);
  const text = tail.text.trim();
  if (text === "") return "";
  const notes = [
    ...(tail.dropped > 0 ? [`(earlier output dropped from the log: ${tail.dropped} bytes)`] : []),
    ...(tail.cut ? [`...(showing the last ${NOTICE_TAIL_BYTES} bytes)`] : []),
  ];
  return [...notes, text].join("\n");
}
