// The model loop: request → stream → validate → dispatch → append → repeat,
// until the model finishes, a limit ends the run, or it is cancelled. Every
// path out leaves a valid history: each tool call has a result.

import { duplicateStop, errorNudge, guardStop } from "./loop-guardrails.js";
import type { Config } from "./config/schema.js";
import type { CoreEvent, Emit, FinishReason, Usage } from "./events.js";
import type { HistoryItem, ToolCall, ToolSpec } from "./history.js";
import type { ActiveToolset } from "./profiles/activate.js";
import type { Provider } from "./providers/types.js";
import type { Services } from "./services.js";
import { memoryKey } from "./session-memory.js";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { ATTACHED_FILES, resolveMentions, type ResolvedMessage } from "./mentions.js";
import type { ApprovalRequest } from "./approvals/types.js";
import {
  CANCELLED_TEXT,
  handlersOf,
  planPhaseOf,
  reportResults,
  settleResult,
  type CallOutcome,
  type DispatchDeps,
  type PermissionGate,
} from "./dispatch.js";
import { streamTurn, toolViews } from "./turn-stream.js";
import { dispatchAll, pushResult } from "./loop-batch.js";
import { conversationRoles, shapeHistory } from "./context/shape.js";
import { compactHistory, contextLimit, estimateTokens, nearlyFull, requestHistory } from "./compaction.js";
import { beforeModelRequest } from "./hooks/loop-points.js";
import type { HostedTool } from "./providers/hosted.js";

export interface LoopDeps {
  provider: Provider;
  model: string;
  system: string;
  toolset: ActiveToolset;
  config: Config;
  services: Services;
  emit: Emit;
  setTurn: (turn: number | undefined) => void;
  cwd: string;
  sessionDir: string;
  /** The session's in-process memory (core/session-memory.ts). */
  memory: DispatchDeps["memory"];
  signal: AbortSignal;
  gate?: PermissionGate;
  /** Session-scoped services (jobs, terminal) the tools reach. */
  session?: DispatchDeps["session"];
  redact?: DispatchDeps["redact"];
  guards?: DispatchDeps["guards"];
  /** Running token totals for the session; updated in place. */
  usage: Usage;
  /** Runtime notices (a background job finished, …) to hand the model next. */
  wake?: WakeSource;
  /**
   * Called after each completed step — the user message, an assistant
   * message, each batch of tool results — with the history as it now is, so
   * the caller can save the session. A throw ends the run with that error.
   */
  onStep?: (history: readonly HistoryItem[]) => void;
  /**
   * Called with how the run ends, before `run_finished` is emitted, so the
   * state the end leaves is saved before anything reports it. A throw ends
   * the run with that error instead.
   */
  onFinish?: (outcome: RunOutcome) => void;
  /** True once when the user asked to compact (/compact) while this run works. */
  takeCompactRequest?: () => boolean;
  /** Tools the provider runs itself ([compat] hosted_tools), declared in every request. */
  hostedTools?: readonly HostedTool[];
  /** The session's [hooks]; absent: none. */
  hooks?: DispatchDeps["hooks"];
  /** The session may ask one question only (the Yuj surface), so a second one in a response is spent, not deferred. */
  oneQuestion?: boolean;
  /**
   * Hears every event of the session's workers and task children (each
   * stamped with its task id as agentId), so a view can show each agent's
   * own transcript while it runs; their traces keep them regardless.
   */
  observeAgent?: (event: CoreEvent) => void;
  /**
   * What must be done before anything follows a model response (a tool
   * runs, the run ends): the workspace snapshot, taken while the first
   * request is built and sent, so no tool can have changed a file before it.
   */
  toolsReady?: Promise<void>;
}

/** Where notices come from that the model must see between turns. */
export interface WakeSource {
  /** Notices that arrived since the last call; empties the queue. */
  take(): string[];
  /**
   * Waits until a notice arrives. Resolves false at once when nothing is
   * pending that could ever produce one (no background job runs).
   */
  wait(signal: AbortSignal): Promise<boolean>;
}

export interface RunOutcome {
  reason: FinishReason;
  message?: string;
  turns: number;
  /** Set when the run paused for an approval: the calls of the turn not yet run, the first one asking. */
  pending?: { calls: ToolCall[]; request: ApprovalRequest };
  /** Set when the run paused for an answer (ask_user): the call the answer will be the result of. */
  question?: { callId: string; question: string };
}

/**
 * A new user message, the continuation of a run paused on an approval, or a
 * plain continuation of a history that waits for the model (after an
 * answered question or an interrupted run), or loop mode's continuation
 * request (its text goes to the model, not shown as the user's).
 */
export type LoopInput = { userText: string } | { resumeCalls: ToolCall[] } | { continue: true } | { continueWith: string };

// Ids for calls the model sent without one (or with one it already used):
// counted across the session's runs, so a run that starts in the same
// millisecond as the last one ended never hands out its ids again, and
// tagged per session, so two sessions sharing a folder never save two
// calls' outputs under one name.
const CALL_IDS = memoryKey("call ids", () => ({ tag: randomBytes(3).toString("hex"), count: 0 }));

/**
 * Runs one user message to its end. `history` is the conversation so far and
 * is extended in place, so the caller keeps it for the next message.
 */
export async function runLoop(history: HistoryItem[], input: LoopInput | string, deps: LoopDeps): Promise<RunOutcome> {
  const { emit } = deps;
  const ids = deps.memory.of(CALL_IDS);
  const newCallId = () => `yc_${Date.now().toString(36)}_${ids.tag}_${(++ids.count).toString(36)}`;
  const start = typeof input === "string" ? { userText: input } : input;

  let firstTurn = 0;
  if ("userText" in start) {
    const message = attachMentions(start.userText, deps);
    emit({ type: "user_message", text: start.userText, ...(message.attachments.length ? { attachments: message.attachments } : {}) });
    for (const problem of message.problems) emit({ type: "notice", level: "warning", text: `not attached: ${problem}` });
    history.push({ role: "user", text: message.modelText });
    deps.onStep?.(history);
  } else if ("continueWith" in start) {
    history.push({ role: "user", text: start.continueWith });
    deps.onStep?.(history);
  } else {
    // The paused turn goes on where it stopped; turns count from the run's start.
    const lastUser = history.map((h) => h.role).lastIndexOf("user");
    firstTurn = history.slice(lastUser + 1).filter((h) => h.role === "assistant").length;
    if ("resumeCalls" in start) {
      deps.setTurn(firstTurn - 1);
      const ended = await afterDispatch(history, start.resumeCalls, deps, firstTurn);
      if (ended) return ended;
    }
  }

  const maxTurns = deps.config.loop.max_turns;
  let lastContextTokens: number | undefined;
  for (let turn = firstTurn; ; turn++) {
    if (turn >= maxTurns) {
      return finish(deps, { reason: "max_turns", message: `stopped after ${maxTurns} turns ([loop].max_turns)`, turns: turn });
    }
    if (deps.signal.aborted) return finish(deps, { reason: "cancelled", turns: turn });
    const stop = guardStop(deps.guards);
    if (stop) {
      emit({ type: "error", code: "guard_stop", message: stop });
      return finish(deps, { reason: "error", message: stop, turns: turn });
    }
    deps.setTurn(turn);
    deliverNotices(history, deps);

    const tools = visibleSpecs(deps);
    const blocked = await requestHooks(history, deps, turn, tools);
    if (blocked !== undefined) {
      emit({ type: "error", code: "hook_blocked", message: blocked });
      return finish(deps, { reason: "error", message: blocked, turns: turn });
    }
    const view = await requestView(history, deps, tools, lastContextTokens);
    let collected;
    try {
      collected = await streamTurn(
        {
          model: deps.model,
          system: deps.system,
          history: view,
          tools,
          maxOutputTokens: deps.config.provider.max_output_tokens,
          ...(deps.hostedTools?.length ? { hostedTools: deps.hostedTools } : {}),
        },
        { provider: deps.provider, emit, signal: deps.signal, usageTotal: deps.usage, newCallId, views: toolViews(deps.toolset, deps.cwd) },
      );
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      emit({ type: "error", code: "provider", message });
      return finish(deps, { reason: "error", message, turns: turn + 1 });
    }

    if (deps.toolsReady) await deps.toolsReady;
    if (collected.usage) lastContextTokens = collected.usage.inputTokens + collected.usage.cachedTokens + collected.usage.outputTokens;
    if (collected.text) emit({ type: "assistant_message", text: collected.text });
    const calls = [...collected.calls, ...(collected.cancelled ? collected.unfinished : [])];
    deps.hooks?.observe("on_after_llm_call", { turn, text: collected.text, tool_calls: calls.map((c) => c.name), usage: collected.usage ?? null });
    history.push({ role: "assistant", text: collected.text, toolCalls: calls });
    deps.onStep?.(history);

    if (collected.cancelled) {
      const closed = calls.map((call) => cancelCall(call, deps));
      for (const outcome of closed) pushResult(history, outcome);
      deps.onStep?.(history);
      reportResults(closed, emit);
      emit({ type: "turn_finished", toolCalls: calls.length });
      return finish(deps, { reason: "cancelled", turns: turn + 1 });
    }
    if (calls.length === 0) {
      emit({ type: "turn_finished", toolCalls: 0 });
      // A model may end its turn while its background jobs run: it is woken
      // by their completion instead of polling.
      if (deps.wake && (await deps.wake.wait(deps.signal))) continue;
      if (deps.signal.aborted) return finish(deps, { reason: "cancelled", turns: turn + 1 });
      return finish(deps, { reason: "answered", message: collected.text, turns: turn + 1 });
    }

    const ended = await afterDispatch(history, calls, deps, turn + 1);
    if (ended) return ended;
  }
}

/** Dispatches a turn's calls and says whether the run ends here (and how). */
async function afterDispatch(
  history: HistoryItem[],
  calls: ToolCall[],
  deps: LoopDeps,
  turns: number,
): Promise<RunOutcome | undefined> {
  if (deps.toolsReady) await deps.toolsReady;
  const { outcomes, pending, question } = await dispatchAll(history, calls, deps, turns - 1);
  if (question) {
    deps.emit({ type: "turn_finished", toolCalls: calls.length });
    return finish(deps, { reason: "input_required", message: question.question, turns, question });
  }
  if (pending) {
    const request = pending[0]!.paused!;
    return finish(deps, {
      reason: "approval_required",
      message: `${request.summary} — ${request.reason}`,
      turns,
      pending: { calls: pending.map((o) => o.call), request },
    });
  }
  deps.emit({ type: "turn_finished", toolCalls: calls.length });
  if (deps.signal.aborted || outcomes.some((o) => o.cancelled)) return finish(deps, { reason: "cancelled", turns });
  const done = outcomes.find((o) => o.finish);
  if (done) {
    const message = done.finish?.message;
    return finish(deps, message === undefined ? { reason: "done", turns } : { reason: "done", message, turns });
  }
  const repeated = duplicateStop(history, deps.config.loop.duplicate_abort);
  if (repeated) {
    deps.emit({ type: "error", code: "duplicate_calls", message: repeated });
    return finish(deps, { reason: "error", message: repeated, turns });
  }
  const nudge = errorNudge(history, deps.config.loop.error_nudge_threshold);
  if (nudge) {
    deps.emit({ type: "notice", level: "warning", text: nudge });
    history.push({ role: "user", text: nudge });
    deps.onStep?.(history);
  }
  return undefined;
}

/**
 * Before a request: the automation reports waiting for the model, then the
 * on_before_llm_call hooks. Their texts go into the history as one user
 * message; a block's reason is returned (the run ends with it).
 */
async function requestHooks(history: HistoryItem[], deps: LoopDeps, turn: number, tools: readonly ToolSpec[]): Promise<string | undefined> {
  if (!deps.hooks) return undefined;
  const reports = await deps.hooks.contextForNextRequest(deps.signal);
  const decided = await beforeModelRequest(deps.hooks, { turn, model: deps.model, messages: history.length, tools: tools.map((t) => t.name) });
  if ("blocked" in decided) return decided.blocked;
  const notes = [...reports, ...decided.notes.map((n) => `[hook] ${n}`)];
  if (notes.length === 0) return undefined;
  history.push({ role: "user", text: notes.join("\n\n") });
  deps.onStep?.(history);
  return undefined;
}

function cancelCall(call: ToolCall, deps: LoopDeps): CallOutcome {
  return settleResult(call, { ok: false, modelText: CANCELLED_TEXT }, true, deps, 0);
}

/** The tool list of the next request: the active tools less those a guard hides now. */
function visibleSpecs(deps: LoopDeps) {
  const ctx = { cwd: deps.cwd, config: deps.config, activeTools: deps.toolset.names, handlers: handlersOf(deps.toolset), ...planPhaseOf(deps.toolset) };
  const hidden = new Set<string>();
  for (const g of deps.guards ?? []) for (const name of g.hiddenTools?.(ctx) ?? []) hidden.add(name);
  return hidden.size ? deps.toolset.specs.filter((s) => !hidden.has(s.name)) : deps.toolset.specs;
}

/** Pending notices go to the model as one user message before the request. */
function deliverNotices(history: HistoryItem[], deps: LoopDeps): void {
  const notices = deps.wake?.take() ?? [];
  if (notices.length === 0) return;
  const text = notices.map((n) => `[yuj] ${n}`).join("\n");
  deps.emit({ type: "notice", level: "info", text });
  history.push({ role: "user", text });
  deps.onStep?.(history);
}

function finish(deps: LoopDeps, outcome: RunOutcome): RunOutcome {
  deps.setTurn(undefined);
  deps.onFinish?.(outcome);
  deps.emit(
    outcome.message === undefined
      ? { type: "run_finished", reason: outcome.reason }
      : { type: "run_finished", reason: outcome.reason, message: outcome.message },
  );
  return outcome;
}

/**
 * The history as the next request carries it: think and rewind shape it,
 * and a compaction summary stands in for what it covers. When the request
 * would nearly fill the context window (or the user asked), older turns are
 * summarised first. The history itself keeps every row.
 */
async function requestView(history: HistoryItem[], deps: LoopDeps, tools: ToolSpec[], lastTokens: number | undefined) {
  const shape = () =>
    requestHistory(shapeHistory(history, { roles: conversationRoles(deps.toolset.tools), thinkKeepTurns: deps.config.tools.think_keep_turns }));
  let view = shape();
  const asked = deps.takeCompactRequest?.() ?? false;
  const limit = contextLimit(deps.config, deps.provider.name, deps.model);
  // Sizing the request walks the whole history: only when a window is known.
  const tokens = limit === undefined ? lastTokens : Math.max(lastTokens ?? 0, estimateTokens(view, deps.system, JSON.stringify(tools).length));
  if (asked || (limit !== undefined && tokens !== undefined && nearlyFull(tokens, limit, deps.config))) {
    const compactDeps = { provider: deps.provider, model: deps.model, system: deps.system, config: deps.config, emit: deps.emit, signal: deps.signal, ...(deps.onStep ? { onStep: deps.onStep } : {}) };
    const reason = asked ? "manual" : "auto";
    deps.hooks?.observe("on_before_compress", { reason, tokens: tokens ?? null });
    const compacted = await compactHistory(history, compactDeps, reason, tokens);
    deps.hooks?.observe("on_after_compress", { reason, compacted });
    if (compacted) view = shape();
  }
  return view;
}

/** The user's message with the files its @-mentions name, bounded and redacted as tool output is. */
function attachMentions(text: string, deps: LoopDeps): ResolvedMessage {
  return resolveMentions(text, {
    cwd: deps.cwd,
    maxChars: deps.config.output.max_output_chars,
    headRatio: deps.config.output.truncate_head_ratio,
    saveDir: join(deps.sessionDir, "tool-output"),
    ...(deps.redact ? { redact: deps.redact } : {}),
    attached: (real, sha) => deps.memory.of(ATTACHED_FILES).set(real, sha),
  });
}
