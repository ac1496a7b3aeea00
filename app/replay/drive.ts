// The recorded runs, one after the other, through the loop. Each run begins
// as the recorded one did (a resume repairs the history as `yuj resume`
// did), stops where its recorded process was killed, and leaves the state
// any run leaves (endRun in core/session-record.ts).

import type { EventBody } from "../../core/events.js";
import { runLoop, type LoopDeps, type LoopInput, type RunOutcome } from "../../core/loop.js";
import type { SessionState } from "../../core/session-state.js";
import { beginRun, endRun, type createSessionRecord } from "../../core/session-record.js";
import type { OpenSession } from "../session.js";
import { prepareResume } from "../resume-plan.js";
import { atKilledCall, RecordedKill } from "./kill-points.js";
import type { ReplayWatch } from "./watch.js";
import type { RecordedRun } from "./runs.js";

export interface DriveInputs {
  runs: readonly RecordedRun[];
  /** The date the recording began: a run of another day gets that day's system prompt. */
  date: string;
  state: SessionState;
  record: ReturnType<typeof createSessionRecord>;
  emit: OpenSession["emit"];
  deps: LoopDeps;
  systemFor(date: string): string;
  watch: ReplayWatch;
}

export interface DriveResult {
  /** How the last run ended. */
  reason: string;
  notes: string[];
  unreproducible?: string;
}

export async function driveRuns(d: DriveInputs): Promise<DriveResult> {
  const notes: string[] = [];
  let reason = "answered";
  for (let i = 0; i < d.runs.length; i++) {
    if (d.watch.abort.signal.aborted) break;
    const run = d.runs[i]!;
    const next = d.runs[i + 1];
    const begun = beginAsRecorded(d, run);
    if (begun.problem) return { reason, notes, unreproducible: begun.problem };
    const closed = planStop(d.watch, run, next);
    notes.push(...runNotes(run, next, closed, i, d.watch));
    const outcome = await runOnce(d, run, begun.input, closed);
    reason = outcome.reason;
    endRun(d.record, { outcome });
    if (outcome.reason === "approval_required" || outcome.reason === "input_required") break;
    // A kill with neither a request in flight nor a call left open fell between two steps: the next
    // continuation would send what this run goes on to send, so the replay went straight on.
    if (run.killed && d.watch.stopAt === undefined && closed.size === 0 && next && "continue" in next.input && !next.closes.length) i++;
  }
  return { reason, notes };
}

/** The run's input; a resumed run first repairs the history as `yuj resume` did. */
function beginAsRecorded(d: DriveInputs, run: RecordedRun): { input: LoopInput; problem?: string } {
  if (!run.resumed) return { input: run.input };
  return repairAsResumed(d.state, run, (reports) => {
    d.record.save({ durable: false });
    for (const report of reports) d.emit(report);
  });
}

/**
 * Where this run's recorded process was killed, when it was: a request in
 * flight (the provider stops there), or else the calls the next run closed
 * as interrupted (the loop stops before running them). Returns those calls.
 */
function planStop(watch: ReplayWatch, run: RecordedRun, next: RecordedRun | undefined): Set<string> {
  const inFlight = run.killed?.inFlight;
  watch.stopAt = inFlight === undefined ? undefined : { request: inFlight, recorded: run.killed?.recorded !== false };
  watch.stoppedBy = undefined;
  return new Set(run.killed && watch.stopAt === undefined ? (next?.closes ?? []).map((c) => c.callId) : []);
}

/** What the replay does differently from the recording in this run, said for the report. */
function runNotes(run: RecordedRun, next: RecordedRun | undefined, closed: ReadonlySet<string>, i: number, watch: ReplayWatch): string[] {
  const notes: string[] = [];
  if (watch.stopAt && !watch.stopAt.recorded) {
    notes.push("a request was in flight when a recorded process was killed, before any of its response came, so the trace " +
      "holds nothing of it: the replay did not send it (the resume sent it again, and that request is compared)");
  }
  for (const c of closed.size ? next!.closes : []) {
    notes.push(
      `call ${c.callId} (${c.name}) was killed before it finished in the recording; the replay did not run it ` +
        "and gave it the interrupted result, so any effect it had in part is missing from the replay's files",
    );
  }
  if (run.finished === "cancelled") {
    // The moment of a Ctrl+C or SIGTERM is not in the trace as a point the loop can be stopped at.
    notes.push(`run ${i + 1} was cancelled in the recording; the replay does not cancel it, so from there its requests may differ`);
  }
  return notes;
}

/** One run of the loop; a run stopped where the recorded process was killed ends as that process did, unfinished. */
async function runOnce(d: DriveInputs, run: RecordedRun, input: LoopInput, closed: ReadonlySet<string>): Promise<RunOutcome> {
  const deps: LoopDeps = {
    ...d.deps,
    ...(run.date && run.date !== d.date ? { system: d.systemFor(run.date) } : {}),
    onStep: (history) => {
      d.deps.onStep?.(history);
      if (atKilledCall(history, closed)) throw new RecordedKill(`before call ${[...closed].join(", ")}`);
    },
  };
  const said = (kill: RecordedKill) =>
    d.emit({ type: "notice", level: "info", text: `replay: ${kill.message}; the next run goes on as \`yuj resume\` did` });
  beginRun(d.record);
  try {
    const outcome = await runLoop(d.state.history, input, deps);
    // The provider's stop reaches the loop as a provider error; the kill it stood for is said here.
    if (d.watch.stoppedBy) said(d.watch.stoppedBy);
    return outcome;
  } catch (err) {
    if (!(err instanceof RecordedKill)) throw err;
    said(err);
    return { reason: "error", message: err.message, turns: 0 };
  } finally {
    deps.setTurn(undefined);
  }
}

/**
 * Begins a run the way `yuj resume` began it (app/resume-plan.ts): calls left
 * without a result get the interrupted result. The calls it closes must be
 * those the recorded resume closed, else the histories differ from here on
 * and the replay says so instead of comparing requests that cannot match.
 */
function repairAsResumed(state: SessionState, run: RecordedRun, commit: (reports: EventBody[]) => void): { input: LoopInput; problem?: string } {
  const { input, reports } = prepareResume(state, "running", "userText" in run.input ? run.input.userText : undefined);
  // Saved, then reported, as `yuj resume` does.
  commit(reports);
  const closed = reports.flatMap((r) => (r.type === "tool_result" ? [r.callId] : []));
  const want = run.closes.map((c) => c.callId);
  if (closed.join(" ") === want.join(" ")) return { input };
  const list = (ids: string[]) => (ids.length ? ids.join(", ") : "none");
  return {
    input,
    problem:
      `at a resume the recording closed the calls ${list(want)} with the interrupted result, the replay ${list(closed)}: ` +
      "the replay cannot stop where the recorded process was killed, so it ends here",
  };
}
