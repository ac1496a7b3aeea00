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
import type { Provider } from "../../core/providers/types.js";
import { secretValues } from "../../core/redact.js";
import { newSessionId } from "../../core/session.js";
import { newSessionState, type SessionState } from "../../core/session-state.js";
import { createRedactor } from "../../core/trace.js";
import type { ParsedArgs } from "../args.js";
import { FatalError } from "../errors.js";
import { joinExtensions } from "../extensions.js";
import { loopDepsFor } from "../loop-deps.js";
import { argsFromSettings, storedSettings } from "../pause.js";
import { buildGate } from "../permission-setup.js";
import { createSessionRecord } from "../../core/session-record.js";
import { ignoredSummary } from "../../core/config/project-trust.js";
import { announceUntrusted } from "../trust-notice.js";
import { announceSession, buildProvider, openSession, requireProvider, resolveSession, systemPromptFor, type Resolved } from "../session.js";
import { extractSnapshot } from "../workspace-snapshot.js";
import { driveRuns } from "./drive.js";
import { stoppingProvider } from "./kill-points.js";
import { recordedAnswers, recordedApprover, recordedScript } from "./recorded-inputs.js";
import type { Recording } from "./recording.js";
import { startReplayServer, type ReplayServer } from "./server.js";
import { ReplayWatch, type Difference } from "./watch.js";

// The replay's own key variable: the adapters need a key, the local server ignores it.
const KEY_VAR = "YUJ_REPLAY_API_KEY";

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
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), "yuj-replay-")));
  let server: ReplayServer | undefined;
  try {
    const cwd = await extractCopy(x, join(workspace, "repo"));
    if (x.recording.started.provider !== "scripted") server = await startReplayServer(x.recording.exchanges);
    const setup = replaySetup(x, cwd, server);
    const watch = new ReplayWatch(x.recording.exchanges, x.allowDivergence);
    return await replayInSession(x, setup, watch, workspace);
  } finally {
    await server?.close();
    rmSync(workspace, { recursive: true, force: true });
  }
}

/** The files the recorded session started from, in a fresh copy: the replay's working directory. */
async function extractCopy(x: ReplayInputs, dir: string): Promise<string> {
  try {
    return await extractSnapshot(x.recording.snapshot, dir);
  } catch (err) {
    throw new FatalError(`cannot replay session ${x.source.state.sessionId}: ${(err as Error).message}`);
  }
}

interface ReplaySetup {
  cwd: string;
  args: ParsedArgs;
  env: NodeJS.ProcessEnv;
  resolved: Resolved;
  choice: ReturnType<typeof requireProvider>;
  secrets: string[];
}

/** The recorded settings, provider and model, pointed at the local server that plays the recorded replies. */
function replaySetup(x: ReplayInputs, cwd: string, server: ReplayServer | undefined): ReplaySetup {
  const providerName = x.recording.started.provider;
  const args: ParsedArgs = {
    ...argsFromSettings(x.source.state.settings, x.args),
    provider: providerName as ParsedArgs["provider"],
    model: x.recording.started.model,
    output: "text",
  };
  if (server) {
    args.baseUrl = providerName === "anthropic" ? server.url : `${server.url}/v1`;
    args.apiKeyEnv = KEY_VAR;
  }
  const env = { ...process.env, [KEY_VAR]: "yuj-replay-no-key" };
  const resolved = resolveLike(x.recording, { args, cwd, env });
  const choice = requireProvider(resolved);
  return { cwd, args, env, resolved, choice, secrets: secretValues(env, choice.secrets) };
}

/** The provider of the recorded replies, stopping where a recorded process was killed. */
async function replayProvider(x: ReplayInputs, setup: ReplaySetup, watch: ReplayWatch): Promise<Provider> {
  const inner = x.recording.started.provider === "scripted" ? recordedScript(x.recording.exchanges) : await buildProvider(setup.choice, setup.resolved.config);
  return stoppingProvider(inner, () => watch.stopAt, () => watch.replayed, (kill) => (watch.stoppedBy = kill));
}

/** The replay as a new session: opened, announced, its runs driven, its state saved, closed. */
async function replayInSession(x: ReplayInputs, setup: ReplaySetup, watch: ReplayWatch, workspace: string): Promise<ReplayResult> {
  const { recording } = x;
  const { cwd, args, resolved, choice, secrets } = setup;
  const provider = await replayProvider(x, setup, watch);
  const serialize = createRedactor(secrets);
  let record: ReturnType<typeof createSessionRecord> | undefined;
  const state = newSessionState({ sessionId: newSessionId(), cwd, task: recording.messages[0] ?? "", settings: storedSettings(args, cwd) });
  const session = await openSession(setup.env, secrets, (e) => {
    record?.observe(e);
    watch.observe(e);
    x.onEvent?.(serialize(e));
  }, resolved, ["SIGHUP"], { create: state });
  watch.swaps = [
    { from: x.source.dir, to: session.dir },
    { from: recording.started.cwd, to: cwd },
    ...(recording.snapshot.repo ? [{ from: recording.snapshot.repo, to: join(workspace, "repo") }] : []),
  ];
  const saved = (record = createSessionRecord(session.dir, state, session));
  const notes: string[] = [];
  try {
    await announceSession(session, { cwd, toolset: resolved.toolset, provider: choice.name, model: choice.model, version: x.version });
    session.emit({ type: "notice", level: "info", text: `replay of session ${x.source.state.sessionId}` });
    if (announceUntrusted(resolved, session.emit)) notes.push(`${ignoredSummary(resolved.projectTrust!)}; the recorded run may have had them`);
    // The copy is removed when the replay ends, so this session cannot itself be replayed.
    session.emit({ type: "workspace_snapshot", unavailable: "a replay runs in a temporary copy that is removed afterwards" });
    const gate = buildGate({ resolved, state, emit: session.emit, cwd, args, approver: recordedApprover(recording) });
    // The same MCP tools and skill catalogue as the recorded run had, before its first request.
    await joinExtensions(resolved, session.services.mcp, session.services.skills).ready;
    const systemFor = (date: string) => systemPromptFor(cwd, resolved.toolset, session.services.skills, date);
    const deps = {
      ...loopDepsFor({ resolved, choice, provider, session, args, cwd, secrets, gate, record: saved, ask: recordedAnswers(recording, session.emit) }),
      // The recorded day, so a replay on another day sends the same prompt.
      system: systemFor(recording.date),
      signal: watch.abort.signal,
    };
    saved.save();
    const driven = await driveRuns({ runs: recording.runs, date: recording.date, state, record: saved, emit: session.emit, deps, systemFor, watch });
    delete state.pid;
    saved.save();
    return {
      sessionId: session.id, recorded: recording.exchanges.length, replayed: watch.replayed, differences: watch.differences,
      reason: driven.reason, notes: [...notes, ...driven.notes],
      ...(driven.unreproducible ? { unreproducible: driven.unreproducible } : {}),
    };
  } finally {
    await session.close();
  }
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

