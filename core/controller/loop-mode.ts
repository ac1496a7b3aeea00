// Loop mode (continuous execution): while it is on, a run the model ends
// without finishing is followed by a continuation request, up to
// [loop].max_iterations runs in all. The model leaves the loop with `done`
// (mounted for it while the loop is on), and its report is only a request:
// the operator confirms it, which ends the loop, or sends it back with a
// message, which starts the next iteration. Nobody to ask (a headless run
// without input) confirms at once. The loop lives in the session's state, so
// a resumed session is still in it, at the same iteration, its report still
// waiting when it was.

import type { Emit } from "../events.js";
import type { LoopInput } from "../loop.js";
import type { OpOf } from "../ops.js";
import type { RunEnd, SessionRecord } from "../session-record.js";
import type { LoopRecord } from "../session-state.js";

export interface LoopMode {
  on(): boolean;
  /** /loop on|off; what to run at once (the target as the first message), or why not. */
  set(op: OpOf<"set_loop">): { problem: string } | { start?: LoopInput };
  /** The operator's answer to done's report. */
  answer(op: OpOf<"loop_answer">): { problem: string } | { start?: LoopInput };
  /** A run starts with `input`: while the loop is on, a new message or continuation is the next iteration. */
  beforeRun(input: LoopInput): void;
  /** A run ended: the continuation to queue when the loop goes on by itself (`waiting`: messages already queued). */
  afterRun(end: RunEnd, waiting: number): LoopInput | undefined;
}

export function createLoopMode(x: {
  record: SessionRecord;
  emit: Emit;
  maxIterations: number;
  /** True when nobody can answer the report now: it is confirmed as it comes. */
  autoConfirm(): boolean;
}): LoopMode {
  const { record, emit } = x;
  const state = () => record.state.loop;

  /** Saved first, then said: a resumed session is in the loop the view last showed. */
  const changed = (loop: LoopRecord | undefined, ended?: "confirmed" | "limit" | "off", last?: LoopRecord) => {
    if (loop) record.state.loop = loop;
    else delete record.state.loop;
    record.save();
    const shown = loop ?? last!;
    emit({
      type: "loop_changed",
      on: loop !== undefined,
      iteration: shown.iteration,
      maxIterations: shown.maxIterations,
      ...(shown.target ? { target: shown.target } : {}),
      ...(loop?.report !== undefined ? { report: loop.report } : {}),
      ...(ended ? { ended } : {}),
    });
  };

  const end = (why: "confirmed" | "limit" | "off") => {
    const last = state();
    if (last) changed(undefined, why, last);
  };

  return {
    on: () => state() !== undefined,
    set(op) {
      const loop = state();
      if (!op.on) {
        if (!loop) return { problem: "no loop is on" };
        end("off");
        return {};
      }
      if (loop) return { problem: `a loop is already on (iteration ${loop.iteration} of ${loop.maxIterations}): /loop off ends it first` };
      changed({ iteration: 0, maxIterations: x.maxIterations, ...(op.target ? { target: op.target } : {}) });
      return op.target ? { start: { userText: op.target } } : {};
    },
    answer(op) {
      const loop = state();
      if (loop?.report === undefined) return { problem: "no loop report waits for an answer" };
      if (op.decision === "confirm") {
        end("confirmed");
        return {};
      }
      const { report: _sent, ...rest } = loop;
      changed(rest);
      return { start: op.message ? { userText: op.message } : { continueWith: continuation(rest, "The report was sent back: the work is not finished yet.") } };
    },
    beforeRun(input) {
      const loop = state();
      if (!loop || !("userText" in input || "continueWith" in input)) return;
      // A message typed while the report waits sends the report back, with that message.
      const { report: _dropped, ...rest } = loop;
      changed({ ...rest, iteration: loop.iteration + 1 });
    },
    afterRun(run, waiting) {
      const loop = state();
      const outcome = run.outcome;
      if (!loop || run.stopped || !outcome) return undefined;
      if (outcome.reason === "done") {
        changed({ ...loop, report: outcome.message?.trim() || "(done was called without a report)" });
        if (x.autoConfirm()) end("confirmed");
        return undefined;
      }
      // A cancelled, failed or paused run holds the loop where it is: the next message goes on with it.
      if (outcome.reason !== "answered" && outcome.reason !== "max_turns") return undefined;
      if (loop.iteration >= loop.maxIterations) {
        emit({ type: "notice", level: "warning", text: `Loop stopped after ${loop.maxIterations} iterations without done ([loop].max_iterations).` });
        end("limit");
        return undefined;
      }
      // A message the user sent meanwhile is the next iteration.
      if (waiting > 0) return undefined;
      return { continueWith: continuation(loop) };
    },
  };
}

/** What a continuation request tells the model. */
function continuation(loop: LoopRecord, lead = "Keep working."): string {
  const towards = loop.target ? ` The target: ${loop.target}` : "";
  return `[loop iteration ${loop.iteration + 1} of ${loop.maxIterations}] ${lead}${towards}\nWhen the work is complete and checked, call done with your final report; until then continue without waiting for the user.`;
}
