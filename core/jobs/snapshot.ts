// A job's snapshot: how it starts, when it counts as live, and the sentence
// that tells what yuj undid in the project's repositories after it.

import type { Emit } from "../events.js";
import type { Sandbox } from "../sandbox/index.js";
import type { JobSnapshot, JobSpec, JobStatus } from "./types.js";

export const isLive = (status: JobStatus) => status === "running" || status === "stopping";

/** One sentence for the model and the user: what was undone, and why it mattered. */
export function repoNoticeText(undone: readonly string[]): string {
  return (
    "the command left git settings in the project's repositories that git would run on the host, outside the " +
    `sandbox; yuj undid them: ${undone.join("; ")}`
  );
}

const LABEL_MAX_CHARS = 200;

/**
 * A job named by its command: the first line, cut past 200 characters with
 * `...(truncated)`, so a heredoc or a long one-liner keeps job tables and
 * notices one line each (the full command stays in `command`).
 */
export function commandLabel(command: string): string {
  const first = command.trim().split("\n")[0] ?? "";
  return first.length > LABEL_MAX_CHARS ? `${first.slice(0, LABEL_MAX_CHARS)}...(truncated)` : first;
}

export function newSnapshot(id: string, spec: JobSpec, pid: number, outputFile: string, now: number): JobSnapshot {
  return {
    id,
    command: spec.command,
    label: spec.label ?? commandLabel(spec.command),
    status: "running",
    background: spec.background,
    pid,
    startedAt: now,
    lastOutputAt: now,
    exitCode: null,
    signal: null,
    ...(spec.deadlineMs !== undefined ? { deadlineAt: now + spec.deadlineMs } : {}),
    totalBytes: 0,
    outputFile,
    leaderExited: false,
    ...(spec.callId !== undefined ? { callId: spec.callId } : {}),
    ...(spec.owner !== undefined ? { owner: spec.owner } : {}),
  };
}

/**
 * After a sandboxed job: the project's repositories are checked for what it
 * planted (Sandbox.afterCommand); what was undone goes into the snapshot, for
 * the model, and into a notice, for the user.
 */
export async function checkReposAfter(snap: JobSnapshot, sandbox: Sandbox, emit: Emit): Promise<void> {
  try {
    const undone = await sandbox.afterCommand();
    if (undone.length === 0) return;
    snap.repoNotice = repoNoticeText(undone);
    emit({ type: "notice", level: "warning", text: `job ${snap.id} (${snap.label}): ${snap.repoNotice}` });
  } catch (err) {
    emit({ type: "notice", level: "warning", text: `job ${snap.id}: checking the project's git repositories failed: ${(err as Error).message}` });
  }
}
