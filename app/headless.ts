// A headless run: one task (or the continuation of a paused one), the
// transcript or the JSONL event stream on stdout, the session's state on
// disk, and an exit status that says how it ended.

import type { CoreEvent, FinishReason } from "../core/events.js";
import type { HistoryItem } from "../core/history.js";
import { runLoop, type LoopInput } from "../core/loop.js";
import type { Env } from "../core/paths.js";
import { secretValues } from "../core/redact.js";
import { writeState, type SessionState } from "../core/session-state.js";
import { createRedactor } from "../core/trace.js";
import type { ParsedArgs } from "./args.js";
import { FatalError } from "./errors.js";
import { buildGate } from "./permission-setup.js";
import { loopDepsFor } from "./loop-deps.js";
import { pauseHelp, storedSettings } from "./pause.js";
import { createTextRenderer } from "./render-text.js";
import { announceSession, buildProvider, openSession, requireProvider, resolveSession } from "./session.js";
import { handleStopSignals } from "./signals.js";

export interface HeadlessOptions {
  args: ParsedArgs;
  cwd: string;
  env: Env;
  version: string;
  /** A new task, or a paused session to continue. */
  start: { task: string } | { resume: SessionState; dir: string };
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

const STATUS: Record<FinishReason, SessionState["status"]> = {
  done: "completed",
  answered: "completed",
  max_turns: "failed",
  error: "failed",
  approval_required: "approval_required",
  input_required: "input_required",
  cancelled: "cancelled",
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

  const state: SessionState = resumed
    ? { ...resumed.resume, status: "running" }
    : {
        version: 1,
        sessionId: "",
        cwd: opts.cwd,
        status: "running",
        task,
        settings: storedSettings(opts.args, opts.cwd),
        history: [],
        sessionRules: [],
        usage: { inputTokens: 0, outputTokens: 0, cachedTokens: 0 },
        lastSeq: 0,
        updatedAt: "",
      };
  const session = openSession(
    opts.env,
    secrets,
    render,
    resolved.toolset,
    ["SIGHUP"],
    resumed ? { id: resumed.resume.sessionId, dir: resumed.dir, lastSeq: resumed.resume.lastSeq } : undefined,
  );
  state.sessionId = session.id;
  Object.assign(session.usage, state.usage);
  const save = () => writeState(session.dir, { ...state, usage: { ...session.usage }, lastSeq: session.lastSeq() });
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
    save();
    const gate = buildGate({ resolved, state, emit: session.emit, cwd: opts.cwd, args: opts.args });
    const history: HistoryItem[] = state.history;
    const input: LoopInput = resumed && state.pending ? { resumeCalls: state.pending.calls } : { userText: task };
    delete state.pending;
    delete state.answer;
    const outcome = await runLoop(history, input, {
      ...loopDepsFor({ resolved, choice, provider, session, args: opts.args, cwd: opts.cwd, secrets, gate }),
      signal: signals.signal,
    });
    state.status = STATUS[outcome.reason];
    if (outcome.pending) state.pending = outcome.pending;
    save();

    if (!jsonl && opts.demo) process.stdout.write(`\n${opts.demo.footer}\n`);
    if (outcome.reason === "approval_required" && outcome.pending) {
      process.stderr.write(pauseHelp(session.id, outcome.pending.request));
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

function reasonLine(reason: FinishReason, message?: string): string {
  if (reason === "error") return `run failed: ${message ?? "unknown error"}`;
  if (reason === "max_turns") return message ?? "stopped at the turn limit";
  if (reason === "cancelled") return "cancelled";
  return message ?? reason;
}
