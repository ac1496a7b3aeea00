// The session's saved state kept current while it runs: the loop reports each
// completed step and the record writes state.json (core/session-state.ts);
// todos, jobs and the question are picked up from the events as they pass.

import type { CoreEvent, FinishReason, Usage } from "../core/events.js";
import { writeState, type SessionState, type SessionStatus } from "../core/session-state.js";

/** The stored status a run's end leaves the session in. */
export const STATUS_AFTER: Record<FinishReason, SessionStatus> = {
  done: "done",
  answered: "done",
  max_turns: "failed",
  error: "failed",
  approval_required: "approval_required",
  input_required: "input_required",
  // Ctrl+C or SIGTERM: stopped by the user, to be resumed when they like.
  cancelled: "paused",
};

export interface SessionRecord {
  readonly state: SessionState;
  /** Feed every event of the session through here. */
  observe(event: CoreEvent): void;
  /**
   * Writes the state now; throws StateWriteError when it cannot. Steps
   * inside a run pass durable: false (see writeState).
   */
  save(opts?: { durable?: boolean }): void;
}

// Every bash call is a job: keep the running ones and the latest finished.
const FINISHED_JOBS_KEPT = 20;

function pruneFinished(state: SessionState): void {
  const finished = state.jobs.filter((j) => j.status !== "running");
  if (finished.length <= FINISHED_JOBS_KEPT) return;
  const drop = new Set(finished.slice(0, finished.length - FINISHED_JOBS_KEPT));
  state.jobs = state.jobs.filter((j) => !drop.has(j));
}

/**
 * The record of the session this process now runs: marks the state running
 * under this pid and carries its token counts on into the live session.
 */
export function createSessionRecord(
  dir: string,
  state: SessionState,
  live: { usage: Usage; lastSeq(): number; saveState?: (state: SessionState, opts?: { durable?: boolean }) => void },
): SessionRecord {
  state.status = "running";
  state.pid = process.pid;
  Object.assign(live.usage, state.usage);
  return {
    state,
    observe(e) {
      switch (e.type) {
        case "user_message":
          // A TUI session has no task until its first message.
          if (!state.task) state.task = e.text;
          break;
        case "todo_updated":
          state.todos = e.todos;
          break;
        case "job_started":
          state.jobs.push({
            jobId: e.jobId,
            command: e.command,
            background: e.background,
            status: "running",
            ...(e.callId ? { callId: e.callId } : {}),
            ...(e.outputFile ? { outputFile: e.outputFile } : {}),
          });
          break;
        case "job_exited": {
          const job = state.jobs.find((j) => j.jobId === e.jobId);
          if (job) Object.assign(job, { status: e.status ?? "exited", exitCode: e.exitCode });
          pruneFinished(state);
          break;
        }
        case "question_asked":
          state.question ??= { callId: e.callId, question: e.question, askedAt: e.ts };
          break;
        case "question_answered":
          // The TUI's inline answer is the call's result at once.
          if (state.question?.callId === e.callId) Object.assign(state.question, { answer: e.answer, delivered: true });
          break;
        default:
          break;
      }
    },
    save(opts) {
      state.usage = { ...live.usage };
      state.lastSeq = live.lastSeq();
      // The open session knows where its state goes (a staged one is published by its first save).
      if (live.saveState) live.saveState(state, opts);
      else writeState(dir, state, opts);
    },
  };
}
