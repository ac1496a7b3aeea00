// A headless run: one task (or the continuation of a paused one), the
// transcript or the JSONL event stream on stdout, the session's state on
// disk, and an exit status that says how it ended.

import type { CoreEvent, FinishReason } from "../core/events.js";
import type { SkippedLine } from "../core/history-log.js";
import { runLoop, type RunOutcome } from "../core/loop.js";
import type { Env } from "../core/paths.js";
import { secretValues } from "../core/redact.js";
import { newSessionId } from "../core/session.js";
import type { SessionLock } from "../core/session-lock.js";
import { newSessionState, StateWriteError, type SessionState } from "../core/session-state.js";
import { createRedactor } from "../core/trace.js";
import type { ParsedArgs } from "./args.js";
import { FatalError } from "./errors.js";
import { buildGate } from "./permission-setup.js";
import { loopDepsFor } from "./loop-deps.js";
import { pauseHelp, questionHelp, storedSettings } from "./pause.js";
import { createTextRenderer } from "./render-text.js";
import { prepareResume, resumedSeq, type ResumePlan } from "./resume-plan.js";
import { headlessWake, settleJobsAtRunEnd } from "./run-end-jobs.js";
import { createSessionRecord, STATUS_AFTER, type SessionRecord } from "./session-record.js";
import { announceSession, buildProvider, openSession, requireProvider, resolveSession, type OpenSession } from "./session.js";
import { handleStopSignals } from "./signals.js";
import { guardStdout } from "./stdout-guard.js";
import { announceUntrusted } from "./trust-notice.js";
import { snapshotWorkspace } from "./workspace-snapshot.js";

export interface HeadlessOptions {
  args: ParsedArgs;
  cwd: string;
  env: Env;
  version: string;
  /** A new task, or a stored session to continue (its lock held), with a new message maybe. */
  start: { task: string } | { resume: SessionState; dir: string; lock: SessionLock; skipped?: SkippedLine[]; message?: string };
  demo?: { overrides: Record<string, unknown>; footer: string; delayMs: number };
}

export const EXIT_CODES: Record<FinishReason, number> = {
  done: 0,
  answered: 0,
  max_turns: 1,
  error: 1,
  approval_required: 3,
  input_required: 4,
  cancelled: 130,
};

/** Why a run was stopped from outside the loop: its storage failed, or its output went away. */
interface Stopped {
  code: "state_write" | "output_closed";
  message: string;
}

export async function runHeadless(opts: HeadlessOptions): Promise<number> {
  const resumed = "resume" in opts.start ? opts.start : undefined;
  try {
    return await run(opts, resumed);
  } finally {
    resumed?.lock.release();
  }
}

async function run(opts: HeadlessOptions, resumed: Extract<HeadlessOptions["start"], { resume: SessionState }> | undefined): Promise<number> {
  const task = resumed ? resumed.resume.task : (opts.start as { task: string }).task;
  if (!task.trim()) throw new FatalError('the task is empty: give it as `yuj code "what to do"`');
  const resolved = resolveSession({
    args: opts.args,
    cwd: opts.cwd,
    env: opts.env,
    topLevel: !opts.args.measure,
    ...(opts.demo ? { extraOverrides: opts.demo.overrides } : {}),
  });
  const choice = requireProvider(resolved);
  if (opts.demo) choice.scriptDelayMs = opts.demo.delayMs;
  const provider = await buildProvider(choice, resolved.config);

  const jsonl = opts.args.output === "jsonl";
  // Provider keys and secret-looking variables never reach the trace, the
  // JSONL stream or the model.
  const secrets = secretValues(opts.env, choice.secrets);
  const serialize = createRedactor(secrets);
  const signals = handleStopSignals();
  const keepJobs = opts.args.keepJobs === true;
  let stopped: Stopped | undefined;
  let session: OpenSession | undefined;
  const stdout = guardStdout((reason) => {
    stopped ??= { code: "output_closed", message: `${reason}; the run stopped` };
    // Said in the trace at once; the loop ends as for a cancel, and the status is saved.
    session?.emit({ type: "error", code: "output_closed", message: stopped.message });
    signals.stop(new Error(stopped.message));
  });
  const render = jsonl
    ? (e: CoreEvent) => stdout.write(`${serialize(e)}\n`)
    : createTextRenderer({ out: (t) => stdout.write(t), err: (t) => void process.stderr.write(t) });

  const state =
    resumed?.resume ??
    newSessionState({ sessionId: newSessionId(), cwd: opts.cwd, task, settings: storedSettings(opts.args, opts.cwd) });
  const storedStatus = state.status;
  let record: SessionRecord | undefined;
  try {
    session = await openSession(
      opts.env,
      secrets,
      (e) => {
        record?.observe(e);
        render(e);
      },
      resolved.toolset,
      ["SIGHUP"],
      resumed
        ? { resume: { id: state.sessionId, dir: resumed.dir, lastSeq: resumedSeq(state, resumed.dir), lock: resumed.lock } }
        : { create: state },
    );
  } catch (err) {
    signals.dispose();
    // No session exists to save a status in: the reason alone.
    if (err instanceof StateWriteError) return said(`yuj: ${err.message}\n`, 1);
    throw err;
  }
  record = createSessionRecord(session.dir, state, session);

  let outcome: RunOutcome | undefined;
  try {
    await announceSession(session, {
      cwd: opts.cwd,
      toolset: resolved.toolset,
      provider: choice.name,
      model: choice.model,
      version: opts.version,
      demo: opts.demo !== undefined,
    });
    const untrusted = announceUntrusted(resolved, session.emit);
    // The text transcript puts it on stderr itself; the JSONL stream is stdout's.
    if (untrusted && jsonl) process.stderr.write(`yuj: ${untrusted}\n`);
    for (const s of resumed?.skipped ?? []) {
      session.emit({ type: "notice", level: "warning", text: `history.jsonl line ${s.line} was skipped: ${s.reason}` });
    }
    // The files the session starts from (for `yuj replay`), before any tool can change them; also for
    // a session whose start-up was killed before its task began.
    if (!resumed || state.history.length === 0) session.emit(await snapshotWorkspace(opts.cwd));
    // Before the resume repairs: the gate takes the recorded approval answer.
    const gate = buildGate({ resolved, state, emit: session.emit, cwd: opts.cwd, args: opts.args });
    const plan: ResumePlan = resumed ? prepareResume(state, storedStatus, resumed.message) : { input: { userText: task }, reports: [] };
    record.save();
    session.checkTrace();
    for (const report of plan.reports) session.emit(report);
    outcome = await runLoop(state.history, plan.input, {
      ...loopDepsFor({ resolved, choice, provider, session, args: opts.args, cwd: opts.cwd, secrets, gate, record }),
      wake: headlessWake(session.services.notices, keepJobs),
      signal: signals.signal,
    });
    session.checkTrace();
  } catch (err) {
    if (!(err instanceof StateWriteError)) {
      signals.dispose();
      throw err;
    }
    stopped = { code: "state_write", message: err.message };
    session.emit({ type: "error", code: "state_write", message: err.message });
    session.emit({ type: "run_finished", reason: "error", message: err.message });
  }

  try {
    const saveError = saveEnd(record, stopped, outcome);
    // Once the status is saved (a --keep-jobs wait may be long), and while
    // Ctrl+C and SIGTERM still end the wait.
    await settleJobsAtRunEnd(session.services.jobs, session.emit, keepJobs, signals.signal);
    return report({ id: session.id, stopped, outcome, saveError, jsonl, demo: opts.demo, exitCode: signals.exitCode(), out: stdout.write });
  } finally {
    signals.dispose();
    await session.close();
  }
}

/** Saves how the run ended; returns why it could not be saved, if it could not. */
function saveEnd(record: SessionRecord, stopped: Stopped | undefined, outcome: RunOutcome | undefined): string | undefined {
  const state = record.state;
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
    return undefined;
  } catch (err) {
    return err instanceof StateWriteError ? err.short : (err as Error).message;
  }
}

/** The lines on stderr that go with the end, and the exit status. */
function report(x: {
  id: string;
  stopped: Stopped | undefined;
  outcome: RunOutcome | undefined;
  saveError: string | undefined;
  jsonl: boolean;
  demo: HeadlessOptions["demo"];
  exitCode: number | undefined;
  out: (text: string) => void;
}): number {
  const unsaved = x.saveError
    ? `yuj: the status of session ${x.id} could not be saved (${x.saveError}); yuj resume ${x.id} continues from its last saved step\n`
    : "";
  if (x.stopped) {
    // The text transcript printed the error event's line on stderr already.
    return said(`${x.jsonl ? `yuj: ${x.stopped.message}\n` : ""}${unsaved}`, 1);
  }
  const outcome = x.outcome!;
  if (x.saveError) return said(unsaved, 1);
  if (!x.jsonl && x.demo) x.out(`\n${x.demo.footer}\n`);
  if (outcome.reason === "approval_required" && outcome.pending) {
    process.stderr.write(pauseHelp(x.id, outcome.pending.request));
  } else if (outcome.reason === "input_required" && outcome.question) {
    process.stderr.write(questionHelp(x.id, outcome.question.question));
  } else if (EXIT_CODES[outcome.reason] !== 0 && (x.jsonl || outcome.reason !== "error")) {
    // The text transcript already printed the provider's error on stderr.
    process.stderr.write(`yuj: ${reasonLine(outcome.reason, outcome.message)}\n`);
  }
  return x.exitCode ?? EXIT_CODES[outcome.reason];
}

function said(text: string, code: number): number {
  process.stderr.write(text);
  return code;
}

function reasonLine(reason: FinishReason, message?: string): string {
  if (reason === "error") return `run failed: ${message ?? "unknown error"}`;
  if (reason === "max_turns") return message ?? "stopped at the turn limit";
  if (reason === "cancelled") return "cancelled";
  return message ?? reason;
}
