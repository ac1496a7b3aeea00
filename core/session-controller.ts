// The one thing that runs a session: operations in (core/ops.ts), events out.
// Every front end drives a session through it — the TUI, `yuj code` and
// `yuj resume` (with or without `--input jsonl`), `yuj approve` / `reject` /
// `answer` — so a run starts, waits for the operator, ends and is saved the
// same way whoever drives it. It knows nothing of any view.
//
// The parts: the runs, one at a time (controller/runs.ts), the operator who
// answers asks or is absent (controller/operator.ts), answers recorded for a
// session paused in an earlier process (controller/stored-answers.ts), and
// the model the next run uses (controller/model-switch.ts).

import { createLoopMode, type LoopMode } from "./controller/loop-mode.js";
import { createModelChoice, type ModelChoice } from "./controller/model-switch.js";
import type { Operator } from "./controller/operator.js";
import { createRuns, type RunDeps, type Runs } from "./controller/runs.js";
import { applySetting, type SessionSettings } from "./controller/settings.js";
import { recordStoredAnswer, recordStoredApproval } from "./controller/stored-answers.js";
import type { Emit } from "./events.js";
import type { HistoryItem } from "./history.js";
import type { LoopInput } from "./loop.js";
import { USER_STOP_REASON } from "./jobs/types.js";
import { checkOperation, type OpOf, type Operation } from "./ops.js";
import type { RunEnd, RunStop, SessionRecord } from "./session-record.js";

export interface ControllerDeps {
  /** The session's state (its history is the conversation) and how it is saved. */
  record: SessionRecord;
  emit: Emit;
  /** Who answers approvals and questions. */
  operator: Operator;
  /** Absent in a process that only answers a stored session (`yuj approve`, `reject`, `answer`). */
  runs?: RunDeps;
  /** YOLO and the permission rules of the running session (absent where nothing runs it). */
  settings?: SessionSettings;
}

export interface SessionController {
  /**
   * One operation. It is checked against the schema; a problem (a bad
   * operation, or one the session cannot take now) is emitted as an `error`
   * event (code bad_operation) and returned, and nothing else happens.
   * `source` names where it came from in that message.
   */
  submit(op: Operation, source?: string): string | undefined;
  /** Continues a stored session: its next run starts from what the resume repairs left (core/loop.ts LoopInput). */
  resume(input: LoopInput): void;
  /**
   * The session's work ends: the running turn is cancelled, waiting messages
   * are dropped, nothing asks the operator any more, and nothing new starts.
   * `reason` is saved as the run's failure (absent: a plain cancel).
   */
  stop(reason?: RunStop): void;
  running(): boolean;
  /** The conversation so far. */
  history(): readonly HistoryItem[];
  /** Resolves when the current run (if any) and the queued messages are done. */
  idle(): Promise<void>;
  /** How the last run ended, as saved. */
  lastEnd(): RunEnd | undefined;
}

export function createSessionController(deps: ControllerDeps): SessionController {
  const { record, emit, operator } = deps;
  const made = deps.runs ? runsFor(deps, deps.runs) : undefined;
  const runs = made?.runs;
  // Where the operation being applied came from ("stdin line 3"), for its problems.
  let origin: string | undefined;
  const refuse = (problem: string): string => {
    const said = origin ? `${origin}: ${problem}` : problem;
    emit({ type: "error", code: "bad_operation", message: said });
    return said;
  };
  const notRun = () => refuse("this process does not run the session; continue it with yuj resume");

  const enqueue = (input: LoopInput): string | undefined => {
    if (!runs) return notRun();
    return runs.enqueue(input) ? undefined : refuse("the session is stopping; the message was not sent");
  };

  /** An answer goes to the ask waiting for it, or, in a session paused by an earlier process, into its state. */
  const answer = <T extends OpOf<"approval_answer"> | OpOf<"question_answer">>(
    op: T,
    live: (op: T) => string | undefined,
    pausedOn: "approval_required" | "input_required",
    store: (op: T) => string | undefined,
  ): string | undefined => {
    const problem = live(op);
    if (problem === undefined) return undefined;
    if (runs?.busy() || record.state.status !== pausedOn) return refuse(problem);
    const refused = store(op);
    if (refused !== undefined) return refuse(refused);
    // On disk before anything reports it.
    record.save();
    return undefined;
  };

  const killJob = (op: OpOf<"kill_job">): string | undefined => {
    const jobs = deps.runs?.jobs;
    if (!jobs?.get(op.jobId)) return refuse(`no job ${op.jobId} in this session`);
    // Every later read of the job says so: `killed (stopped by user)`, or `killed (stopped by user: <reason>)`.
    const reason = op.reason ? `${USER_STOP_REASON}: ${op.reason}` : USER_STOP_REASON;
    void jobs.kill(op.jobId, reason).catch((err: unknown) => refuse(`could not stop job ${op.jobId}: ${(err as Error).message}`));
    return undefined;
  };

  /** The conversation goes on from before the edited message, with the new text. */
  const editMessage = (op: OpOf<"edit_message">): string | undefined => {
    if (!runs) return notRun();
    if (runs.busy()) return refuse("a turn is running: wait for it to end, or cancel it (Esc), before editing a message");
    const history = record.state.history;
    const at = userItemAt(history, op.message, op.occurrence ?? 0);
    if (at === undefined) return refuse(`no user message ${JSON.stringify(op.message.slice(0, 60))} in the conversation`);
    const dropped = history.length - at;
    history.splice(at);
    // What waited belonged to the dropped turns.
    delete record.state.pending;
    delete record.state.answer;
    delete record.state.question;
    record.save();
    emit({ type: "conversation_forked", droppedItems: dropped, message: op.message });
    return enqueue({ userText: op.text });
  };

  const apply = (op: Operation): string | undefined => {
    switch (op.type) {
      case "user_message":
        return enqueue({ userText: op.text });
      case "approval_answer":
        return answer(op, operator.answerApproval, "approval_required", (o) => recordStoredApproval(record.state, o));
      case "question_answer":
        return answer(op, operator.answerQuestion, "input_required", (o) => recordStoredAnswer(record.state, o));
      case "cancel":
        runs?.cancel();
        return undefined;
      case "kill_job":
        return killJob(op);
      case "switch_model":
        if (!made) return notRun();
        void made.models.switchTo(op.model);
        return undefined;
      case "compact":
        if (!runs) return notRun();
        runs.compact();
        return undefined;
      case "edit_message":
        return editMessage(op);
      case "set_loop":
      case "loop_answer": {
        if (!made) return notRun();
        const out = op.type === "set_loop" ? made.loop.set(op) : made.loop.answer(op);
        if ("problem" in out) return refuse(out.problem);
        return out.start ? enqueue(out.start) : undefined;
      }
      case "set_yolo":
      case "set_main_role":
      case "rename_session":
      case "list_rules":
      case "remove_rule":
      case "set_mcp_server": {
        const problem = applySetting(op, { record, emit, ...(deps.settings ? { settings: deps.settings } : {}) });
        return problem === undefined ? undefined : refuse(problem);
      }
    }
  };

  return {
    submit(op, source) {
      origin = source;
      try {
        const checked = checkOperation(op);
        return checked.ok ? apply(checked.op) : refuse(checked.problem);
      } finally {
        origin = undefined;
      }
    },
    resume(input) {
      const problem = enqueue(input);
      if (problem !== undefined) throw new Error(problem);
    },
    stop(reason) {
      runs?.stop(reason);
      operator.detach();
    },
    running: () => runs?.running() ?? false,
    history: () => record.state.history,
    idle: async () => runs?.idle(),
    lastEnd: () => runs?.lastEnd(),
  };
}

/** The index of the `occurrence`-th user item with exactly `text`. */
function userItemAt(history: readonly HistoryItem[], text: string, occurrence: number): number | undefined {
  let seen = 0;
  for (let i = 0; i < history.length; i++) {
    const item = history[i]!;
    if (item.role === "user" && item.text === text && seen++ === occurrence) return i;
  }
  return undefined;
}

/** The runs of a process that runs the session, with the model its next run uses and loop mode. */
function runsFor(deps: ControllerDeps, r: RunDeps): { runs: Runs; models: ModelChoice; loop: LoopMode } {
  const { provider, model, toolset, config } = r.loopDeps;
  const models = createModelChoice({ provider, model, toolset, emit: deps.emit, ...(r.toolsetFor ? { toolsetFor: r.toolsetFor } : {}) });
  // With nobody to ask, done's report is confirmed as it comes.
  const loop = createLoopMode({ record: deps.record, emit: deps.emit, maxIterations: config.loop.max_iterations, autoConfirm: () => !deps.operator.attached() });
  return { runs: createRuns({ record: deps.record, emit: deps.emit, runs: r, models, loop }), models, loop };
}
