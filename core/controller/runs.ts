// A session's runs, one at a time: a message sent while the model works
// waits and starts when the run ends; compacting while idle holds the
// session the same way. Each run marks the session running, and the state
// its end leaves is saved (core/session-record.ts) before `run_finished`
// reports it. A run that pauses (nobody could answer its ask) drops the
// messages still waiting, since the session now waits for that answer first.

import { mark } from "../startup-timing.js";
import { compactHistory } from "../compaction.js";
import type { Emit } from "../events.js";
import type { JobManager } from "../jobs/types.js";
import { runLoop, type LoopDeps, type LoopInput, type RunOutcome } from "../loop.js";
import type { ActiveToolset } from "../profiles/activate.js";
import { beginRun, endRun, type RunEnd, type RunStop, type SessionRecord } from "../session-record.js";
import { StateWriteError } from "../storage-error.js";
import type { LoopMode } from "./loop-mode.js";
import type { ModelChoice } from "./model-switch.js";

/** How this process runs the session's turns. */
export interface RunDeps {
  /** Everything the loop needs except the abort signal, which each run gets fresh. */
  loopDeps: Omit<LoopDeps, "signal">;
  jobs?: JobManager;
  /** The tools a model gets (some depend on the model); for switch_model. */
  toolsetFor?(model: string, opts?: { loopRunning?: boolean }): ActiveToolset;
  /**
   * Settles when the session may start its first run (the workspace snapshot
   * is recorded): the view draws at once, a message waits for this.
   */
  ready?: Promise<void>;
  /** Throws the storage failure that ends the run (the trace stopped taking rows). */
  checkStorage?(): void;
  /** Each run's end, once the state it leaves is saved. */
  onRunEnd?(end: RunEnd): void;
}

export interface Runs {
  /** Queues a run; false when the session is stopping and takes no more. */
  enqueue(input: LoopInput): boolean;
  /** Summarises older turns now, or before the next request of the running turn. */
  compact(): void;
  /** Cancels the running turn (and whatever it waits on). */
  cancel(): void;
  /** Cancels the running turn, drops what waits, and takes nothing more; `reason` is saved as the run's failure. */
  stop(reason?: RunStop): void;
  /** A turn works (or a compaction). */
  running(): boolean;
  /** Anything holds the session: a run, a compaction, or one about to start. */
  busy(): boolean;
  idle(): Promise<void>;
  lastEnd(): RunEnd | undefined;
}

export function createRuns(x: { record: SessionRecord; emit: Emit; runs: RunDeps; models: ModelChoice; loop?: LoopMode }): Runs {
  const { record, emit, runs, models, loop } = x;
  const queue: LoopInput[] = [];
  let active: AbortController | undefined;
  let current: Promise<void> | undefined;
  let stopped = false;
  let stopReason: RunStop | undefined;
  let last: RunEnd | undefined;
  let compactAsked = false;

  const takeCompactRequest = () => {
    const asked = compactAsked;
    compactAsked = false;
    return asked;
  };

  const execute = async (input: LoopInput, signal: AbortSignal): Promise<void> => {
    beginRun(record);
    // The end is saved before `run_finished` reports it: a script that sees
    // the event and reads the session finds the state that goes with it.
    const settle = (outcome: RunOutcome) => {
      runs.checkStorage?.();
      last = endRun(record, stopReason ? { outcome, stopped: stopReason } : { outcome });
    };
    try {
      await runs.ready;
      mark("run ready (extensions, snapshot)");
      last = undefined;
      loop?.beforeRun(input);
      // In loop mode the model gets the tool that asks to leave it.
      const deps = { ...runs.loopDeps, model: models.model(), toolset: models.toolset(loop?.on() ?? false), takeCompactRequest, onFinish: settle, signal };
      const outcome = await runLoop(record.state.history, input, deps);
      if (!last) settle(outcome);
    } catch (err) {
      last = failRun(record, emit, err, stopReason);
    } finally {
      runs.loopDeps.setTurn(undefined);
    }
    runs.onRunEnd?.(last!);
    const next = stopped ? undefined : continueLoop(last!);
    if (next) queue.push(next);
  };

  const continueLoop = (end: RunEnd): LoopInput | undefined => {
    try {
      return loop?.afterRun(end, queue.length);
    } catch (err) {
      // The loop's state could not be saved: said, and the loop goes no further.
      emit({ type: "error", code: err instanceof StateWriteError ? "state_write" : "internal", message: (err as Error).message });
      return undefined;
    }
  };

  const paused = () => last?.outcome?.reason === "approval_required" || last?.outcome?.reason === "input_required";

  const dropQueue = () => {
    const why = stopped ? "the session stopped" : `the session waits for ${last?.outcome?.reason === "input_required" ? "an answer" : "an approval"} first`;
    for (const input of queue.splice(0)) {
      if ("userText" in input) emit({ type: "notice", level: "warning", text: `message not sent (${why}): ${input.userText.split("\n")[0]}` });
    }
  };

  /** Work that holds the session: what is queued starts after it. */
  const hold = (work: (signal: AbortSignal) => Promise<void>) => {
    active = new AbortController();
    current = work(active.signal).finally(() => {
      active = undefined;
      startNext();
    });
  };

  const startNext = () => {
    if (stopped || paused()) dropQueue();
    const input = queue.shift();
    if (input === undefined) current = undefined;
    else hold((signal) => execute(input, signal));
  };

  const compactNow = (signal: AbortSignal) => {
    const { provider, system, config, onStep } = runs.loopDeps;
    const deps = { provider, model: models.model(), system, config, emit, signal, ...(onStep ? { onStep } : {}) };
    return compactHistory(record.state.history, deps, "manual")
      .then(() => undefined)
      .catch((err: unknown) => void emit({ type: "error", code: "internal", message: `compaction failed: ${(err as Error).message}` }));
  };

  return {
    enqueue(input) {
      if (stopped) return false;
      queue.push(input);
      if (!current) startNext();
      return true;
    },
    compact() {
      if (active) {
        // The running loop compacts before its next request.
        compactAsked = true;
        emit({ type: "notice", level: "info", text: "Compacting before the next request." });
        return;
      }
      // Idle: compacting is the session's work of the moment, like a run:
      // cancel stops it, and a message sent meanwhile waits for it.
      hold(compactNow);
    },
    cancel: () => active?.abort(new Error("cancelled by the user")),
    stop(reason) {
      stopped = true;
      stopReason ??= reason;
      active?.abort(new Error(reason?.message ?? "cancelled by the user"));
      dropQueue();
    },
    running: () => active !== undefined,
    busy: () => current !== undefined,
    async idle() {
      while (current) await current;
    },
    lastEnd: () => last,
  };
}

/**
 * A run that threw (its state could not be saved, or yuj failed): the
 * failure is saved as the run's end, then said (an `error` event and
 * `run_finished`). `stopped` is a reason already known (the output closed).
 */
export function failRun(record: SessionRecord, emit: Emit, err: unknown, stopped?: RunStop): RunEnd {
  const message = err instanceof Error ? err.message : String(err);
  const code = err instanceof StateWriteError ? "state_write" : "internal";
  const end = endRun(record, { stopped: stopped ?? { code, message } });
  emit({ type: "error", code, message });
  emit({ type: "run_finished", reason: "error", message });
  return end;
}
