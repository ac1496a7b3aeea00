// A headless run: one task (or the continuation of a paused one), the
// transcript or the JSONL event stream on stdout, the session's state on
// disk, and an exit status that says how it ended.

import type { CoreEvent, FinishReason } from "../core/events.js";
import { runLoop, type LoopInput, type RunOutcome } from "../core/loop.js";
import type { Env } from "../core/paths.js";
import { secretValues } from "../core/redact.js";
import { newSessionState, StateWriteError, type SessionState } from "../core/session-state.js";
import { createRedactor } from "../core/trace.js";
import type { ParsedArgs } from "./args.js";
import { FatalError } from "./errors.js";
import { buildGate } from "./permission-setup.js";
import { loopDepsFor } from "./loop-deps.js";
import { pauseHelp, questionHelp, storedSettings } from "./pause.js";
import { createTextRenderer } from "./render-text.js";
import { prepareResume, resumedSeq } from "./resume-plan.js";
import { createSessionRecord, STATUS_AFTER, type SessionRecord } from "./session-record.js";
import { announceSession, buildProvider, openSession, requireProvider, resolveSession, type OpenSession } from "./session.js";
import { handleStopSignals } from "./signals.js";
import { announceUntrusted } from "./trust-notice.js";
import { snapshotWorkspace } from "./workspace-snapshot.js";

export interface HeadlessOptions {
  args: ParsedArgs;
  cwd: string;
  env: Env;
  version: string;
  /** A new task, or a stored session to continue (with a new message, maybe). */
  start: { task: string } | { resume: SessionState; dir: string; message?: string };
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

export async function runHeadless(opts: HeadlessOptions): Promise<number> {
  const resumed = "resume" in opts.start ? opts.start : undefined;
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
  const render = jsonl
    ? (e: CoreEvent) => void process.stdout.write(`${serialize(e)}\n`)
    : createTextRenderer({ out: (t) => void process.stdout.write(t), err: (t) => void process.stderr.write(t) });

  let record: SessionRecord | undefined;
  const session = openSession(
    opts.env,
    secrets,
    (e) => {
      record?.observe(e);
      render(e);
    },
    resolved.toolset,
    ["SIGHUP"],
    resumed ? { id: resumed.resume.sessionId, dir: resumed.dir, lastSeq: resumedSeq(resumed.resume, resumed.dir) } : undefined,
  );
  const state =
    resumed?.resume ??
    newSessionState({ sessionId: session.id, cwd: opts.cwd, task, settings: storedSettings(opts.args, opts.cwd) });
  const storedStatus = state.status;
  record = createSessionRecord(session.dir, state, session);
  const signals = handleStopSignals();

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
    // A new session records the files it starts from (for `yuj replay`) before any tool can change them.
    if (!resumed) session.emit(await snapshotWorkspace(opts.cwd));
    // Before the resume repairs: the gate takes the recorded approval answer.
    const gate = buildGate({ resolved, state, emit: session.emit, cwd: opts.cwd, args: opts.args });
    const input: LoopInput = resumed ? prepareResume(state, storedStatus, resumed.message, session.emit) : { userText: task };
    let outcome: RunOutcome;
    try {
      record.save();
      outcome = await runLoop(state.history, input, {
        ...loopDepsFor({ resolved, choice, provider, session, args: opts.args, cwd: opts.cwd, secrets, gate, record }),
        signal: signals.signal,
      });
      state.status = STATUS_AFTER[outcome.reason];
      state.lastReason = outcome.reason;
      if (outcome.message === undefined) delete state.lastMessage;
      else state.lastMessage = outcome.message;
      delete state.pid;
      if (outcome.pending) state.pending = outcome.pending;
      record.save();
    } catch (err) {
      if (err instanceof StateWriteError) return stateWriteFailed(session, err);
      throw err;
    }

    if (!jsonl && opts.demo) process.stdout.write(`\n${opts.demo.footer}\n`);
    if (outcome.reason === "approval_required" && outcome.pending) {
      process.stderr.write(pauseHelp(session.id, outcome.pending.request));
    } else if (outcome.reason === "input_required" && outcome.question) {
      process.stderr.write(questionHelp(session.id, outcome.question.question));
    } else if (EXIT_CODES[outcome.reason] !== 0 && (jsonl || outcome.reason !== "error")) {
      // The text transcript already printed the provider's error on stderr.
      process.stderr.write(`yuj: ${reasonLine(outcome.reason, outcome.message)}\n`);
    }
    return signals.exitCode() ?? EXIT_CODES[outcome.reason];
  } finally {
    signals.dispose();
    await session.close();
  }
}

/**
 * The state could not be saved: the run stops at once (going on would do
 * work a later resume cannot know about), the user is told why and where,
 * and the exit status says it failed.
 */
function stateWriteFailed(session: OpenSession, err: StateWriteError): number {
  process.stderr.write(`yuj: ${err.message}\n`);
  try {
    session.emit({ type: "error", code: "state_write", message: err.message });
    session.emit({ type: "run_finished", reason: "error", message: err.message });
  } catch {
    // The trace sits on the same disk; the line above already told the user.
  }
  return 1;
}

function reasonLine(reason: FinishReason, message?: string): string {
  if (reason === "error") return `run failed: ${message ?? "unknown error"}`;
  if (reason === "max_turns") return message ?? "stopped at the turn limit";
  if (reason === "cancelled") return "cancelled";
  return message ?? reason;
}
