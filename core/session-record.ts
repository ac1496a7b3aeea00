// The session's saved state kept current while it runs: the loop reports each
// completed step and the record writes state.json (core/session-state.ts);
// todos, jobs and the question are picked up from the events as they pass.
// What a run's end leaves in the state is decided here too, once, for every
// front end (the TUI, `yuj code`, `yuj resume`, a replay).

import type { CoreEvent, FinishReason, Usage } from "./events.js";
import type { RunOutcome } from "./loop.js";
import type { SyncFileSystem } from "./atomic-write.js";
import { HistoryLog } from "./history-log.js";
import { writeState, type SessionState, type SessionStatus } from "./session-state.js";
import { StateWriteError } from "./storage-error.js";

/** The stored status a run's end leaves the session in. */
const STATUS_AFTER: Record<FinishReason, SessionStatus> = {
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
  live: {
    usage: Usage;
    lastSeq(): number;
    saveState?: (state: SessionState, opts?: { durable?: boolean }) => void;
    /** Writes state.json and session.json when no saveState does (default node's). */
    fs?: SyncFileSystem;
  },
): SessionRecord {
  state.status = "running";
  state.pid = process.pid;
  // Used only when no open session saves the state (it has its own writer).
  const log = new HistoryLog();
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
          // The same call asked again (its asker went away and the session
          // now pauses for it): the saved question is the one it pauses on.
          if (!state.question || (state.question.callId === e.callId && state.question.answer === undefined)) {
            state.question = { callId: e.callId, question: e.question, askedAt: state.question?.askedAt ?? e.ts };
          }
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
      else writeState(dir, state, { ...opts, log, ...(live.fs ? { fs: live.fs } : {}) });
    },
  };
}

/**
 * The record of a stored session this process answers but does not run
 * (`yuj approve`, `reject`, `answer`): saving writes the state as it is, and
 * the status and pid stay what the last run left.
 */
export function storedRecord(dir: string, state: SessionState, log = new HistoryLog()): SessionRecord {
  return { state, observe() {}, save: (opts) => writeState(dir, state, { ...opts, log }) };
}

/** Why a run was stopped from outside the loop: its storage failed, its output went away, or yuj itself failed. */
export interface RunStop {
  code: "state_write" | "output_closed" | "internal";
  message: string;
}

/** How a run ended: the loop's outcome, a stop, or both (the output closed after the work was done). */
export interface RunEnd {
  outcome?: RunOutcome;
  stopped?: RunStop;
  /** Set when the state saying so could not be saved. */
  saveError?: string;
}

/** A run starts: the session is running, in this process. */
export function beginRun(record: SessionRecord): void {
  record.state.status = "running";
  record.state.pid = process.pid;
}

/**
 * Puts how the run ended in the state and saves it durably: the status, the
 * reason and its message, the calls a pause waits on. Returns the end with
 * why it could not be saved, when it could not.
 */
export function endRun(record: SessionRecord, end: Omit<RunEnd, "saveError">): RunEnd {
  const state = record.state;
  const { outcome, stopped } = end;
  // A run whose output closed after it had finished its work keeps its status.
  const finished = outcome && (outcome.reason === "done" || outcome.reason === "answered");
  if (stopped && !(stopped.code === "output_closed" && finished)) {
    state.status = "failed";
    state.lastReason = "error";
    state.lastMessage = stopped.message;
  } else if (outcome) {
    state.status = STATUS_AFTER[outcome.reason];
    state.lastReason = outcome.reason;
    if (outcome.message === undefined) delete state.lastMessage;
    else state.lastMessage = outcome.message;
    if (outcome.pending) state.pending = outcome.pending;
  }
  delete state.pid;
  try {
    record.save();
    return end;
  } catch (err) {
    return { ...end, saveError: err instanceof StateWriteError ? err.short : (err as Error).message };
  }
}

/**
 * The process lets the session go (the TUI quits): a session still marked
 * running (opened, no run finished since) is paused. A session that never
 * got a message is not saved: its folder is not listed.
 */
export function releaseRecord(record: SessionRecord): void {
  const state = record.state;
  if (state.history.length === 0) return;
  if (state.status === "running") state.status = "paused";
  delete state.pid;
  record.save();
}
