// Runs a recorded session again as a new session: in a fresh copy of the
// files it started from, against a provider that gives the recorded model
// replies, with the recorded operator inputs, comparing every request the
// loop sends with the one the recording holds.

import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ApprovalAnswer, Approver } from "../../core/approvals/types.js";
import type { CoreEvent } from "../../core/events.js";
import { findInstructions } from "../../core/instructions.js";
import { runLoop } from "../../core/loop.js";
import { parseScenario } from "../../core/providers/scenario.js";
import { scriptedProvider } from "../../core/providers/scripted.js";
import type { Provider } from "../../core/providers/types.js";
import { secretValues } from "../../core/redact.js";
import { newSessionState, type SessionState } from "../../core/session-state.js";
import { buildSystemPrompt } from "../../core/system-prompt.js";
import { createRedactor } from "../../core/trace.js";
import type { ParsedArgs } from "../args.js";
import { FatalError } from "../errors.js";
import { loopDepsFor } from "../loop-deps.js";
import { argsFromSettings, storedSettings } from "../pause.js";
import { buildInteractiveGate } from "../permission-setup.js";
import { createSessionRecord, STATUS_AFTER } from "../session-record.js";
import { announceSession, buildProvider, openSession, requireProvider, resolveSession, type Resolved } from "../session.js";
import { extractSnapshot } from "../workspace-snapshot.js";
import { firstDifference, normaliseRecorded, type PathSwap } from "./compare.js";
import type { Exchange, Recording } from "./recording.js";
import { startReplayServer, type ReplayServer } from "./server.js";

// The replay's own key variable: the adapters need a key, the local server ignores it.
const KEY_VAR = "YUJ_REPLAY_API_KEY";

export interface Difference {
  /** 0-based request number. */
  index: number;
  turn?: number;
  recorded: string;
  replayed: string;
  at: number;
}

export interface ReplayResult {
  sessionId: string;
  recorded: number;
  replayed: number;
  differences: Difference[];
  /** How the replay's last run ended. */
  reason: string;
}

export interface ReplayInputs {
  source: { state: SessionState; dir: string };
  recording: Recording;
  args: ParsedArgs;
  version: string;
  allowDivergence: boolean;
  /** Every event of the replay (for --output jsonl). */
  onEvent?: (line: string) => void;
}

export async function runReplay(x: ReplayInputs): Promise<ReplayResult> {
  const { recording, source } = x;
  const providerName = recording.started.provider;
  const scripted = providerName === "scripted";
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), "yuj-replay-")));
  let server: ReplayServer | undefined;
  try {
    let cwd: string;
    try {
      cwd = await extractSnapshot(recording.snapshot, join(workspace, "repo"));
    } catch (err) {
      throw new FatalError(`cannot replay session ${source.state.sessionId}: ${(err as Error).message}`);
    }
    if (!scripted) server = await startReplayServer(recording.exchanges);
    const args: ParsedArgs = {
      ...argsFromSettings(source.state.settings, x.args),
      provider: providerName as ParsedArgs["provider"],
      model: recording.started.model,
      output: "text",
    };
    if (server) {
      args.baseUrl = providerName === "anthropic" ? server.url : `${server.url}/v1`;
      args.apiKeyEnv = KEY_VAR;
    }
    const env = { ...process.env, [KEY_VAR]: "yuj-replay-no-key" };
    const resolved = resolveLike(recording, { args, cwd, env });
    const choice = requireProvider(resolved);
    const provider: Provider = scripted ? recordedScript(recording.exchanges) : await buildProvider(choice, resolved.config);
    const secrets = secretValues(env, choice.secrets);
    const serialize = createRedactor(secrets);

    const controller = new AbortController();
    const differences: Difference[] = [];
    let replayed = 0;
    let swaps: PathSwap[] = [];
    const compare = (e: CoreEvent) => {
      if (e.type !== "provider_request") return;
      const n = replayed++;
      const recorded = recording.exchanges[n];
      if (!recorded) return; // counted as an extra request in the report
      const want = normaliseRecorded(recorded.request.body, swaps);
      const at = firstDifference(want, e.body);
      if (at < 0) return;
      differences.push({ index: n, ...(recorded.request.turn !== undefined ? { turn: recorded.request.turn } : {}), recorded: want, replayed: e.body, at });
      if (!x.allowDivergence) controller.abort(new Error("the replay diverged from the recording"));
    };
    let record: ReturnType<typeof createSessionRecord> | undefined;
    const session = openSession(env, secrets, (e) => {
      record?.observe(e);
      compare(e);
      x.onEvent?.(serialize(e));
    }, resolved.toolset, ["SIGHUP"]);
    swaps = [
      { from: source.dir, to: session.dir },
      { from: recording.started.cwd, to: cwd },
      ...(recording.snapshot.repo ? [{ from: recording.snapshot.repo, to: join(workspace, "repo") }] : []),
    ];
    const state = newSessionState({ sessionId: session.id, cwd, task: recording.messages[0] ?? "", settings: storedSettings(args, cwd) });
    state.pid = process.pid;
    record = createSessionRecord(session.dir, state, session);
    let reason = "answered";
    try {
      await announceSession(session, { cwd, toolset: resolved.toolset, provider: choice.name, model: choice.model, version: x.version });
      session.emit({ type: "notice", level: "info", text: `replay of session ${source.state.sessionId}` });
      // The copy is removed when the replay ends, so this session cannot itself be replayed.
      session.emit({ type: "workspace_snapshot", unavailable: "a replay runs in a temporary copy that is removed afterwards" });
      const gate = buildInteractiveGate(resolved, args, session.emit, cwd, recordedApprover(recording));
      const deps = {
        ...loopDepsFor({ resolved, choice, provider, session, args, cwd, secrets, gate, record, ask: recordedAnswers(recording, session.emit) }),
        // The recorded day, so a replay on another day sends the same prompt.
        system: buildSystemPrompt({ cwd, toolNames: [...resolved.toolset.tools.keys()], instructions: findInstructions(cwd), date: recording.date }),
        signal: controller.signal,
      };
      record.save();
      for (const text of recording.messages) {
        if (controller.signal.aborted) break;
        const outcome = await runLoop(state.history, { userText: text }, deps);
        reason = outcome.reason;
        state.status = STATUS_AFTER[outcome.reason];
        state.lastReason = outcome.reason;
        if (outcome.reason === "approval_required" || outcome.reason === "input_required") break;
      }
      delete state.pid;
      record.save();
    } finally {
      await session.close();
    }
    return { sessionId: session.id, recorded: recording.exchanges.length, replayed, differences, reason };
  } finally {
    await server?.close();
    rmSync(workspace, { recursive: true, force: true });
  }
}

/**
 * Resolves the session's tools as the recording had them: a TUI session has
 * the interactive surface, a headless one the other; the first request's
 * tool names tell which.
 */
function resolveLike(recording: Recording, base: { args: ParsedArgs; cwd: string; env: NodeJS.ProcessEnv }): Resolved {
  const inputs = { ...base, topLevel: !base.args.measure };
  const headless = resolveSession(inputs);
  const names = recording.firstToolNames;
  if (!names || names.every((n) => headless.toolset.tools.has(n))) return headless;
  const interactive = resolveSession({ ...inputs, interactive: true });
  return names.every((n) => interactive.toolset.tools.has(n)) ? interactive : headless;
}

/** The scripted provider playing the recorded turns: each response body is the scenario turn it played. */
function recordedScript(exchanges: readonly Exchange[]): Provider {
  const turns: unknown[] = [];
  for (const [i, ex] of exchanges.entries()) {
    let turnNo = i;
    try {
      const body = JSON.parse(ex.request.body) as { turn?: unknown };
      if (typeof body.turn === "number") turnNo = body.turn;
      turns[turnNo] = JSON.parse(ex.response?.body ?? "{}");
    } catch {
      throw new FatalError(`recorded scripted request ${i + 1} or its response is not JSON; the trace is damaged`);
    }
  }
  for (let i = 0; i < turns.length; i++) turns[i] ??= {};
  try {
    return scriptedProvider(parseScenario({ turns }, "the recorded responses"));
  } catch (err) {
    throw new FatalError((err as Error).message);
  }
}

/** Approval asks answered with the recorded decision for the same call id. */
function recordedApprover(recording: Recording): Approver {
  return {
    async ask(request): Promise<ApprovalAnswer> {
      const got = recording.approvals.get(request.callId);
      if (!got) return { decision: "reject_with_message", message: `replay: the recording has no decision for call ${request.callId}` };
      if (got.decision === "allow_always") return { decision: "allow_always", rule: request.suggestedRule, scope: "session" };
      if (got.decision === "reject_with_message") return { decision: "reject_with_message", message: got.message ?? "" };
      return { decision: got.decision };
    },
  };
}

/** ask_user answered with the recorded answer, shown in the trace as the TUI shows it. */
function recordedAnswers(recording: Recording, emit: ReturnType<typeof openSession>["emit"]) {
  return async (q: { callId: string; question: string }): Promise<string> => {
    emit({ type: "question_asked", callId: q.callId, question: q.question });
    const answer = recording.answers.get(q.callId);
    if (answer === undefined) throw new Error(`replay: the recording has no answer for question ${q.callId}`);
    emit({ type: "question_answered", callId: q.callId, answer });
    return answer;
  };
}
