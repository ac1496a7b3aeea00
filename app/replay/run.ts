// Runs a recorded session again as a new session: in a fresh copy of the
// files it started from, against a provider that gives the recorded model
// replies, with the recorded operator inputs, comparing every request the
// loop sends with the one the recording holds.
//
// Unlike the front ends, which drive a session through its controller, the
// replay runs the loop itself, run by run: it reproduces where each recorded
// process was killed (a run stopped dead between two steps, as SIGKILL
// stops it), which no operation can ask for. The state each run leaves is
// decided as for any other run (endRun in core/session-record.ts).

import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ApprovalAnswer, Approver } from "../../core/approvals/types.js";
import type { CoreEvent, EventBody } from "../../core/events.js";
import { findInstructions } from "../../core/instructions.js";
import { runLoop, type LoopInput, type RunOutcome } from "../../core/loop.js";
import { parseScenario } from "../../core/providers/scenario.js";
import { scriptedProvider } from "../../core/providers/scripted.js";
import type { Provider } from "../../core/providers/types.js";
import { secretValues } from "../../core/redact.js";
import { newSessionId } from "../../core/session.js";
import { newSessionState, type SessionState } from "../../core/session-state.js";
import { buildSystemPrompt } from "../../core/system-prompt.js";
import { createRedactor } from "../../core/trace.js";
import type { ParsedArgs } from "../args.js";
import { FatalError } from "../errors.js";
import { loopDepsFor } from "../loop-deps.js";
import { argsFromSettings, storedSettings } from "../pause.js";
import { buildGate } from "../permission-setup.js";
import { beginRun, createSessionRecord, endRun } from "../../core/session-record.js";
import { ignoredSummary } from "../../core/config/project-trust.js";
import { announceUntrusted } from "../trust-notice.js";
import { announceSession, buildProvider, openSession, requireProvider, resolveSession, type OpenSession, type Resolved } from "../session.js";
import { prepareResume } from "../resume-plan.js";
import { extractSnapshot } from "../workspace-snapshot.js";
import { firstDifference, normaliseRecorded, type PathSwap } from "./compare.js";
import { atKilledCall, RecordedKill, stoppingProvider, type StopAt } from "./kill-points.js";
import type { Exchange, Recording } from "./recording.js";
import type { RecordedRun } from "./runs.js";
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
  /** What the replay could not reproduce exactly, or did differently from the recording, said for the report. */
  notes: string[];
  /** Set when the replay's history could not be brought to the recorded one at a resume. */
  unreproducible?: string;
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
    let stopAt: StopAt | undefined;
    const inner: Provider = scripted ? recordedScript(recording.exchanges) : await buildProvider(choice, resolved.config);
    let stoppedBy: RecordedKill | undefined;
    const provider = stoppingProvider(inner, () => stopAt, () => replayed, (kill) => (stoppedBy = kill));
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
    const state = newSessionState({ sessionId: newSessionId(), cwd, task: recording.messages[0] ?? "", settings: storedSettings(args, cwd) });
    const session = await openSession(env, secrets, (e) => {
      record?.observe(e);
      compare(e);
      x.onEvent?.(serialize(e));
    }, resolved.toolset, ["SIGHUP"], { create: state });
    swaps = [
      { from: source.dir, to: session.dir },
      { from: recording.started.cwd, to: cwd },
      ...(recording.snapshot.repo ? [{ from: recording.snapshot.repo, to: join(workspace, "repo") }] : []),
    ];
    record = createSessionRecord(session.dir, state, session);
    const saved = record;
    let reason = "answered";
    const notes: string[] = [];
    let unreproducible: string | undefined;
    try {
      await announceSession(session, { cwd, toolset: resolved.toolset, provider: choice.name, model: choice.model, version: x.version });
      session.emit({ type: "notice", level: "info", text: `replay of session ${source.state.sessionId}` });
      if (announceUntrusted(resolved, session.emit)) notes.push(`${ignoredSummary(resolved.projectTrust!)}; the recorded run may have had them`);
      // The copy is removed when the replay ends, so this session cannot itself be replayed.
      session.emit({ type: "workspace_snapshot", unavailable: "a replay runs in a temporary copy that is removed afterwards" });
      const gate = buildGate({ resolved, state, emit: session.emit, cwd, args, approver: recordedApprover(recording) });
      const systemFor = (date: string) =>
        buildSystemPrompt({ cwd, toolNames: [...resolved.toolset.tools.keys()], instructions: findInstructions(cwd), date });
      const deps = {
        ...loopDepsFor({ resolved, choice, provider, session, args, cwd, secrets, gate, record, ask: recordedAnswers(recording, session.emit) }),
        // The recorded day, so a replay on another day sends the same prompt.
        system: systemFor(recording.date),
        signal: controller.signal,
      };
      record.save();
      const runs = recording.runs;
      for (let i = 0; i < runs.length; i++) {
        if (controller.signal.aborted) break;
        const run = runs[i]!;
        const next = runs[i + 1];
        let input: LoopInput = run.input;
        if (run.resumed) {
          const repaired = repairAsResumed(state, run, (reports) => {
            saved.save({ durable: false });
            for (const report of reports) session.emit(report);
          });
          input = repaired.input;
          if (repaired.problem) {
            unreproducible = repaired.problem;
            break;
          }
        }
        // Where this run's recorded process was killed, when it was.
        const inFlight = run.killed?.inFlight;
        stopAt = inFlight === undefined ? undefined : { request: inFlight, recorded: run.killed?.recorded !== false };
        if (stopAt && !stopAt.recorded) {
          notes.push("a request was in flight when a recorded process was killed, before any of its response came, so the trace " +
            "holds nothing of it: the replay did not send it (the resume sent it again, and that request is compared)");
        }
        const closed = new Set(run.killed && stopAt === undefined ? (next?.closes ?? []).map((c) => c.callId) : []);
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
        stoppedBy = undefined;
        beginRun(saved);
        const outcome = await runOnce(state, input, () => stoppedBy, {
          ...deps,
          ...(run.date && run.date !== recording.date ? { system: systemFor(run.date) } : {}),
          onStep: (history) => {
            deps.onStep?.(history);
            if (atKilledCall(history, closed)) throw new RecordedKill(`before call ${[...closed].join(", ")}`);
          },
        }, session.emit);
        reason = outcome.reason;
        endRun(saved, { outcome });
        if (outcome.reason === "approval_required" || outcome.reason === "input_required") break;
        // A kill with neither a request in flight nor a call left open fell between two steps: the next
        // continuation would send what this run goes on to send, so the replay went straight on.
        if (run.killed && stopAt === undefined && closed.size === 0 && next && "continue" in next.input && !next.closes.length) i++;
      }
      delete state.pid;
      record.save();
    } finally {
      await session.close();
    }
    return {
      sessionId: session.id, recorded: recording.exchanges.length, replayed, differences, reason, notes,
      ...(unreproducible ? { unreproducible } : {}),
    };
  } finally {
    await server?.close();
    rmSync(workspace, { recursive: true, force: true });
  }
}

/** One run of the loop; a run stopped where the recorded process was killed ends as that process did, unfinished. */
async function runOnce(
  state: SessionState,
  input: LoopInput,
  /** The stop the provider made, if it made one: the loop reports it as a provider error. */
  stopped: () => RecordedKill | undefined,
  deps: Parameters<typeof runLoop>[2],
  emit: OpenSession["emit"],
): Promise<RunOutcome> {
  const said = (kill: RecordedKill) =>
    emit({ type: "notice", level: "info", text: `replay: ${kill.message}; the next run goes on as \`yuj resume\` did` });
  try {
    const outcome = await runLoop(state.history, input, deps);
    const kill = stopped();
    if (kill) said(kill);
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
function repairAsResumed(state: SessionState, run: RecordedRun, commit: (reports: EventBody[]) => void) {
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

/**
 * Resolves the session's tools as the recording had them: a TUI session has
 * the interactive surface, a headless one the other; the first request's
 * tool names tell which.
 */
function resolveLike(recording: Recording, base: { args: ParsedArgs; cwd: string; env: NodeJS.ProcessEnv }): Resolved {
  // The copy's project config is trusted when the recorded project trusts this very content.
  const inputs = { ...base, topLevel: !base.args.measure, trustAs: recording.started.cwd };
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
function recordedAnswers(recording: Recording, emit: OpenSession["emit"]) {
  return async (q: { callId: string; question: string }): Promise<string> => {
    emit({ type: "question_asked", callId: q.callId, question: q.question });
    const answer = recording.answers.get(q.callId);
    if (answer === undefined) throw new Error(`replay: the recording has no answer for question ${q.callId}`);
    emit({ type: "question_answered", callId: q.callId, answer });
    return answer;
  };
}
