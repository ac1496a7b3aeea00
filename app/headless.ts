// A headless run: one task (or the continuation of a stored session), the
// transcript or the JSONL event stream on stdout, the session's state on
// disk, and an exit status that says how it ended. The session runs through
// its controller; with `--input jsonl` a script on stdin is its operator
// (approvals, answers, cancel, more messages) until stdin ends.

import type { CoreEvent } from "../core/events.js";
import type { HistoryLog, SkippedLine } from "../core/history-log.js";
import type { Env } from "../core/paths.js";
import { secretValues } from "../core/redact.js";
import { newSessionId } from "../core/session.js";
import type { Operator } from "../core/controller/operator.js";
import { failRun } from "../core/controller/runs.js";
import type { SessionController } from "../core/session-controller.js";
import type { SessionLock } from "../core/session-lock.js";
import { createSessionRecord, type RunEnd, type RunStop, type SessionRecord } from "../core/session-record.js";
import { newSessionState, type SessionState } from "../core/session-state.js";
import { StateWriteError } from "../core/storage-error.js";
import { createRedactor } from "../core/trace.js";
import { mark } from "../core/startup-timing.js";
import type { ParsedArgs } from "./args.js";
import { driveSession } from "./drive-session.js";
import { FatalError } from "./errors.js";
import { reportEnd, said } from "./headless-report.js";
import { readOperations, type OperationInput } from "./jsonl-input.js";
import { storedSettings } from "./pause.js";
import { createTextRenderer } from "./render-text.js";
import { prepareResume, resumedSeq, type ResumePlan } from "./resume-plan.js";
import { headlessWake, settleJobsAtRunEnd } from "./run-end-jobs.js";
import { announceSession, buildProvider, loadSetupHandlers, openSession, requireProvider, resolveSession, type OpenSession, type Resolved } from "./session.js";
import { handleStopSignals, type StopSignals } from "./signals.js";
import { guardStdout } from "./stdout-guard.js";
import { announceUntrusted } from "./trust-notice.js";
import { announceDroppedTools } from "./tool-cap-notice.js";
import { snapshotWorkspace } from "./workspace-snapshot.js";
import { offerSpeculativeTemplate } from "./speculative-template.js";

type Resumed = { resume: SessionState; dir: string; lock: SessionLock; skipped?: SkippedLine[]; log?: HistoryLog; message?: string };

export interface HeadlessOptions {
  args: ParsedArgs;
  cwd: string;
  env: Env;
  version: string;
  /** A new task, or a stored session to continue (its lock held), with a new message maybe. */
  start: { task: string } | Resumed;
  demo?: { overrides: Record<string, unknown>; footer: string; delayMs: number };
}

export async function runHeadless(opts: HeadlessOptions): Promise<number> {
  const resumed = "resume" in opts.start ? opts.start : undefined;
  try {
    return await run(opts, resumed);
  } finally {
    resumed?.lock.release();
  }
}

/** What the run writes to: the event sink, and why the output stopped when it did. */
interface Output {
  render(e: CoreEvent): void;
  write(text: string): void;
  /** Set once stdout closed (`yuj code … | head`). */
  stop(): RunStop | undefined;
}

async function run(opts: HeadlessOptions, resumed: Resumed | undefined): Promise<number> {
  mark("headless modules loaded");
  const task = resumed ? resumed.resume.task : (opts.start as { task: string }).task;
  if (!task.trim()) throw new FatalError('the task is empty: give it as `yuj code "what to do"`');
  const resolved = resolveSession({
    args: opts.args,
    cwd: opts.cwd,
    env: opts.env,
    topLevel: !opts.args.measure,
    // A stored session may use any handler at once (a call it resumes); a new task's first use is a model's call.
    lazyTools: !resumed,
    ...(opts.demo ? { extraOverrides: opts.demo.overrides } : {}),
  });
  mark("config, profile, tool schemas resolved");
  const choice = requireProvider(resolved);
  if (opts.demo) choice.scriptDelayMs = opts.demo.delayMs;
  offerSpeculativeTemplate({ args: opts.args, task, env: opts.env, cwd: opts.cwd, resolved, choice, fresh: !resumed && !opts.demo });
  const provider = await buildProvider(choice, resolved.config);
  mark("provider built");
  // Provider keys and secret-looking variables never reach the trace, the
  // JSONL stream or the model.
  const secrets = secretValues(opts.env, choice.secrets);
  const signals = handleStopSignals();
  let session: OpenSession | undefined;
  let operator: Operator | undefined;
  const output = openOutput(opts.args, secrets, signals, () => session, () => operator?.attached() === true);

  const state = resumed?.resume ?? newSessionState({ sessionId: newSessionId(), cwd: opts.cwd, task, settings: storedSettings(opts.args, opts.cwd) });
  const storedStatus = state.status;
  let record: SessionRecord | undefined;
  try {
    const target = resumed
      ? { resume: { id: state.sessionId, dir: resumed.dir, lastSeq: resumedSeq(state, resumed.dir), lock: resumed.lock, ...(resumed.log ? { log: resumed.log } : {}) } }
      : { create: state, syncLater: true };
    const observe = (e: CoreEvent) => {
      record?.observe(e);
      output.render(e);
    };
    session = await openSession(opts.env, secrets, observe, resolved, ["SIGHUP"], target);
  } catch (err) {
    signals.dispose();
    // No session exists to save a status in: the reason alone.
    if (err instanceof StateWriteError) return said(`yuj: ${err.message}\n`, 1);
    throw err;
  }
  const open = session;
  mark("session opened (first state saved)");
  if (!resumed) await loadSetupHandlers(resolved);
  const saved = createSessionRecord(open.dir, state, open);
  record = saved;

  let end: RunEnd | undefined;
  let input: OperationInput | undefined;
  let snapshot: Promise<void> | undefined;
  try {
    ({ snapshot } = await startUp(open, { opts, resolved, choice: { name: choice.name, model: choice.model }, resumed, state }));
    mark("start-up events (orphans reaped)");
    const driven = driveSession({
      resolved,
      choice,
      provider,
      session: open,
      record: saved,
      args: opts.args,
      cwd: opts.cwd,
      secrets,
      attached: opts.args.input === "jsonl",
      wake: headlessWake(open.services.notices, opts.args.keepJobs === true),
      // The first request goes out while the snapshot is taken and the first state is fsynced.
      toolsReady: Promise.all([snapshot, open.durable]).then(() => undefined),
      // A run that could not be saved ends the process: nothing it is told next could be kept.
      onRunEnd: (e) => void (e.stopped && input?.close()),
    });
    operator = driven.operator;
    const plan: ResumePlan = resumed ? prepareResume(state, storedStatus, resumed.message) : { input: { userText: task }, reports: [] };
    // A new session's first state is being fsynced (open.durable, which the first response waits
    // for); this save adds only what the controller set up, so it is not fsynced: a killed process
    // keeps it all the same.
    // A resumed session's repairs are saved durably.
    saved.save(resumed ? {} : { durable: false });
    mark("controller built, state saved");
    open.checkTrace();
    for (const report of plan.reports) open.emit(report);
    // --loop: the task is the loop's target, its first message.
    if (opts.args.loop && !resumed) driven.controller.submit({ type: "set_loop", on: true, target: task });
    else driven.controller.resume(plan.input);
    end = await operate(driven.controller, driven.operator, {
      signals,
      outputStop: output.stop,
      read: opts.args.input === "jsonl" ? () => (input = readOperations(process.stdin, sink(driven.controller, open))) : undefined,
    });
  } catch (err) {
    if (!(err instanceof StateWriteError)) {
      signals.dispose();
      throw err;
    }
    end = failRun(saved, open.emit, err);
  }

  try {
    // Once the status is saved (a --keep-jobs wait may be long), and while
    // Ctrl+C and SIGTERM still end the wait.
    await settleJobsAtRunEnd(open.services.jobs, open.emit, opts.args.keepJobs === true, signals.signal);
    return reportEnd({
      id: open.id,
      end: end ?? {},
      jsonl: opts.args.output === "jsonl",
      exitCode: signals.exitCode(),
      out: output.write,
      ...(opts.demo ? { footer: opts.demo.footer } : {}),
    });
  } finally {
    signals.dispose();
    // A run that ended before its first response (a provider error) still records the snapshot;
    // whatever failed in writing it, the run has said already.
    await snapshot?.catch(() => undefined);
    await open.close();
  }
}


/** stdout as the transcript or the JSONL stream; a closed stdout stops the run (and is said in the trace). */
function openOutput(
  args: ParsedArgs,
  secrets: string[],
  signals: StopSignals,
  session: () => OpenSession | undefined,
  operated: () => boolean,
): Output {
  let stopped: RunStop | undefined;
  const stdout = guardStdout((reason) => {
    stopped ??= { code: "output_closed", message: `${reason}; the run stopped` };
    // Said in the trace at once; the run ends as for a cancel, and the status is saved.
    session()?.emit({ type: "error", code: "output_closed", message: stopped.message });
    signals.stop(new Error(stopped.message));
  });
  const serialize = createRedactor(secrets);
  const render =
    args.output === "jsonl"
      ? (e: CoreEvent) => stdout.write(`${serialize(e)}\n`)
      : createTextRenderer({ out: (t) => stdout.write(t), err: (t) => void process.stderr.write(t), operated });
  return { render, write: stdout.write, stop: () => stopped };
}

/**
 * The first events of the run: the session, the untrusted settings, damaged
 * log lines. The files the session starts from (for `yuj replay`; also for a
 * session whose start-up was killed before its task began) are taken in
 * parallel with the first request: returned is when their event is written,
 * which the model's first response waits for before any tool runs. With
 * hooks configured (a hook's command could change files as the run starts)
 * the snapshot is taken first, as it is written.
 */
async function startUp(
  open: OpenSession,
  x: { opts: HeadlessOptions; resolved: Resolved; choice: { name: string; model: string }; resumed: Resumed | undefined; state: SessionState },
): Promise<{ snapshot?: Promise<void> }> {
  const { opts } = x;
  const taking = !x.resumed || x.state.history.length === 0 ? snapshotWorkspace(opts.cwd) : undefined;
  await announceSession(open, {
    cwd: opts.cwd,
    toolset: x.resolved.toolset,
    provider: x.choice.name,
    model: x.choice.model,
    version: opts.version,
    demo: opts.demo !== undefined,
  });
  const untrusted = announceUntrusted(x.resolved, open.emit);
  announceDroppedTools(x.resolved.toolset, open.emit);
  // The text transcript puts it on stderr itself; the JSONL stream is stdout's.
  if (untrusted && opts.args.output === "jsonl") process.stderr.write(`yuj: ${untrusted}\n`);
  for (const s of x.resumed?.skipped ?? []) {
    open.emit({ type: "notice", level: "warning", text: `history.jsonl line ${s.line} was skipped: ${s.reason}` });
  }
  if (!taking) return {};
  const written = taking.then((s) => void open.emit(s));
  if (!hooksConfigured(x.resolved)) return { snapshot: written };
  await written;
  return {};
}

function hooksConfigured(resolved: Resolved): boolean {
  return Object.values(resolved.config.hooks).some((entries) => Array.isArray(entries) && entries.length > 0);
}

/**
 * Waits for the session's work to end: the runs, and with `--input jsonl`
 * the operations until stdin ends (then nobody is left to answer, and what
 * waits pauses as in a run without input). Ctrl+C, SIGTERM or a closed
 * stdout stop the run and the reading. Returns how the last run ended.
 */
async function operate(
  controller: SessionController,
  operator: Operator,
  x: { signals: StopSignals; outputStop: () => RunStop | undefined; read: (() => OperationInput) | undefined },
): Promise<RunEnd | undefined> {
  let input: OperationInput | undefined;
  const stop = () => {
    controller.stop(x.outputStop());
    input?.close();
  };
  if (x.signals.signal.aborted) stop();
  else x.signals.signal.addEventListener("abort", stop, { once: true });
  if (x.read && !x.signals.signal.aborted) {
    input = x.read();
    await input.closed;
    operator.detach();
  }
  await controller.idle();
  return controller.lastEnd();
}

/** Where the operations read from stdin go: the controller, and a line that is none is said as an error event. */
function sink(controller: SessionController, open: OpenSession) {
  return {
    submit: (op: Parameters<SessionController["submit"]>[0], source: string) => void controller.submit(op, source),
    problem: (text: string) => void open.emit({ type: "error", code: "bad_operation", message: text }),
  };
}
