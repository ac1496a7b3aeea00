// A headless run: one task, the transcript (or the JSONL event stream) on
// stdout, and an exit status that says how it ended.

import type { CoreEvent, FinishReason } from "../core/events.js";
import type { HistoryItem } from "../core/history.js";
import { runLoop } from "../core/loop.js";
import type { Env } from "../core/paths.js";
import type { ParsedArgs } from "./args.js";
import { FatalError } from "./errors.js";
import { createRedact, secretValues } from "../core/redact.js";
import { createRedactor } from "../core/trace.js";
import { createTextRenderer } from "./render-text.js";
import { buildProvider, openSession, requireProvider, resolveSession, systemPromptFor } from "./session.js";

export interface HeadlessOptions {
  args: ParsedArgs;
  task: string;
  cwd: string;
  env: Env;
  version: string;
  demo?: { overrides: Record<string, unknown>; footer: string; delayMs: number };
}

export const EXIT_CODES: Record<FinishReason, number> = {
  done: 0,
  answered: 0,
  input_required: 0,
  max_turns: 1,
  error: 1,
  cancelled: 130,
};

const SIGNAL_CODES = { SIGINT: 130, SIGTERM: 143 } as const;

export async function runHeadless(opts: HeadlessOptions): Promise<number> {
  if (!opts.task.trim()) throw new FatalError('the task is empty: give it as `yuj code "what to do"`');
  const resolved = resolveSession({
    args: opts.args,
    cwd: opts.cwd,
    env: opts.env,
    topLevel: true,
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

  // SIGINT and SIGTERM cancel the run; the jobs end with the session below.
  const session = openSession(opts.env, secrets, render, resolved.toolset, ["SIGHUP"]);
  const controller = new AbortController();
  let stopSignal: "SIGINT" | "SIGTERM" | undefined;
  const onSignal = (signal: "SIGINT" | "SIGTERM") => {
    // The first signal cancels cleanly; a second one leaves at once (the
    // exit hook still kills every job's group on the way out).
    if (stopSignal) process.exit(SIGNAL_CODES[signal]);
    stopSignal = signal;
    controller.abort(new Error(signal === "SIGINT" ? "cancelled by the user" : "terminated"));
  };
  const onSigint = () => onSignal("SIGINT");
  const onSigterm = () => onSignal("SIGTERM");
  process.on("SIGINT", onSigint);
  process.on("SIGTERM", onSigterm);

  try {
    session.emit({
      type: "session_started",
      cwd: opts.cwd,
      profile: resolved.toolset.profile.name,
      provider: choice.name,
      model: choice.model,
      version: opts.version,
      traceFile: session.trace.path,
      ...(opts.demo ? { demo: true } : {}),
    });
    await session.reapOrphans();
    const history: HistoryItem[] = [];
    const outcome = await runLoop(history, opts.task, {
      provider,
      model: choice.model,
      system: systemPromptFor(opts.cwd, resolved.toolset),
      toolset: resolved.toolset,
      config: resolved.config,
      services: resolved.services,
      emit: session.emit,
      setTurn: session.setTurn,
      cwd: opts.cwd,
      sessionDir: session.dir,
      signal: controller.signal,
      usage: session.usage,
      session: { jobs: session.services.jobs, terminals: session.services.terminals },
      wake: session.services.notices,
      redact: createRedact(secrets),
    });
    if (!jsonl && opts.demo) process.stdout.write(`\n${opts.demo.footer}\n`);
    const failed = EXIT_CODES[outcome.reason] !== 0;
    // The text transcript already printed the provider's error on stderr.
    if (failed && (jsonl || outcome.reason !== "error")) {
      process.stderr.write(`yuj: ${reasonLine(outcome.reason, outcome.message)}\n`);
    }
    return stopSignal ? SIGNAL_CODES[stopSignal] : EXIT_CODES[outcome.reason];
  } finally {
    process.off("SIGINT", onSigint);
    process.off("SIGTERM", onSigterm);
    await session.close();
  }
}

function reasonLine(reason: FinishReason, message?: string): string {
  if (reason === "error") return `run failed: ${message ?? "unknown error"}`;
  if (reason === "max_turns") return message ?? "stopped at the turn limit";
  if (reason === "cancelled") return "cancelled";
  return message ?? reason;
}
