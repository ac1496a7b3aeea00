// A task's checkpoint.json: whether it is completed, and the sessions it took.
// A later `yuj measure` skips a completed task and continues the last session
// of one that is not, until [loop].max_sessions sessions have been spent.

import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { atomicWriteSync } from "../../core/atomic-write.js";
import type { FinishReason } from "../../core/events.js";
import { FatalError } from "../errors.js";

const CHECKPOINT_FILE = "checkpoint.json";

export interface SessionRun {
  /** The yuj session this segment ran in (a resume continues the same id). */
  sessionId: string;
  sessionDir: string;
  /** How its run ended; absent when the process ended without saying (killed, bad config). */
  reason?: FinishReason;
  exitCode: number | null;
  wallMs: number;
  startedAt: string;
}

export interface Checkpoint {
  status: "completed" | "not_completed";
  task: string;
  sessions: SessionRun[];
}

/** The model finished the task: it called done, or answered without calls. */
export function completedBy(reason: FinishReason | undefined): boolean {
  return reason === "done" || reason === "answered";
}

export function readCheckpoint(results: string): Checkpoint | undefined {
  const file = join(results, CHECKPOINT_FILE);
  if (!existsSync(file)) return undefined;
  try {
    const data = JSON.parse(readFileSync(file, "utf8")) as Checkpoint;
    if ((data.status !== "completed" && data.status !== "not_completed") || !Array.isArray(data.sessions)) throw new Error("not a checkpoint");
    return data;
  } catch (err) {
    throw new FatalError(`yuj measure: ${file} is damaged (${(err as Error).message}); remove it to measure the task again from the start`);
  }
}

export function writeCheckpoint(results: string, cp: Checkpoint): void {
  mkdirSync(results, { recursive: true });
  atomicWriteSync(join(results, CHECKPOINT_FILE), `${JSON.stringify(cp, null, 2)}\n`);
}
