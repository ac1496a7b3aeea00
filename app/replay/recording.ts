// What a replay takes from a session's trace: the model exchanges in the
// order they happened, the operator's inputs (messages, approval decisions,
// answers) and the workspace snapshot the session started from.

import { existsSync } from "node:fs";
import type { ApprovalDecision, CoreEvent, EventOf } from "../../core/events.js";
import { sessionLayout } from "../../core/session.js";
import type { SessionState } from "../../core/session-state.js";
import { readTrace } from "../../core/trace.js";
import { FatalError } from "../errors.js";
import type { WorkspaceSnapshot } from "../workspace-snapshot.js";
import { recordedRuns, type RecordedRun } from "./runs.js";

/** One HTTP attempt (or one scripted turn): the request, and the response when one came. */
export interface Exchange {
  request: { url: string; body: string; turn?: number };
  /** Absent when the connection failed before any response. */
  response?: { status: number; body: string };
}

export interface Recording {
  started: EventOf<"session_started">;
  snapshot: WorkspaceSnapshot;
  exchanges: Exchange[];
  /** The user messages of the main agent, in order. */
  messages: string[];
  /** The runs of the loop, in order: one per user message, plus each continuation (`yuj resume` with no message). */
  runs: RecordedRun[];
  approvals: Map<string, { decision: ApprovalDecision; message?: string }>;
  answers: Map<string, string>;
  /** Tool names of the first request (tells a TUI session's surface from a headless one). */
  firstToolNames?: string[];
  /** UTC date (YYYY-MM-DD) of the first request: the system prompt names the day. */
  date: string;
}

export function readRecording(dir: string, state: SessionState): Recording {
  const file = sessionLayout(dir).trace;
  if (!existsSync(file)) throw new FatalError(`session ${state.sessionId} has no trace (${file} is missing); it cannot be replayed`);
  const { events } = readTrace(file);
  const started = events.find((e): e is EventOf<"session_started"> => e.type === "session_started");
  if (!started) throw new FatalError(`the trace of session ${state.sessionId} has no session_started row; it cannot be replayed`);
  const snapshotEvent = events.find((e): e is EventOf<"workspace_snapshot"> => e.type === "workspace_snapshot");
  const exchanges = exchangesOf(events);
  if (exchanges.length === 0) {
    throw new FatalError(`the trace of session ${state.sessionId} holds no provider_request rows: there is nothing to replay`);
  }
  const approvals = new Map<string, { decision: ApprovalDecision; message?: string }>();
  const answers = new Map<string, string>();
  const messages: string[] = [];
  for (const e of events) {
    if (e.type === "user_message" && e.agentId === "main") messages.push(e.text);
    if (e.type === "approval_resolved") approvals.set(e.callId, { decision: e.decision, ...(e.message ? { message: e.message } : {}) });
    if (e.type === "question_answered") answers.set(e.callId, e.answer);
  }
  // `yuj answer` stores the answer in the state before the resume that delivers it.
  if (state.question?.answer !== undefined && !answers.has(state.question.callId)) {
    answers.set(state.question.callId, state.question.answer);
  }
  const firstSent = events.find((e): e is EventOf<"request_sent"> => e.type === "request_sent");
  const firstRequest = events.find((e) => e.type === "provider_request")!;
  const { seq: _s, ts: _t, sessionId: _i, agentId: _a, turn: _n, ...snapshot } = snapshotEvent ?? {
    seq: 0, ts: "", sessionId: "", agentId: "", type: "workspace_snapshot" as const,
    unavailable: "the session was recorded before yuj took workspace snapshots",
  };
  return {
    started,
    snapshot,
    exchanges,
    messages,
    runs: recordedRuns(events),
    approvals,
    answers,
    ...(firstSent ? { firstToolNames: firstSent.toolNames } : {}),
    date: firstRequest.ts.slice(0, 10),
  };
}

/**
 * Pairs each provider_request with the provider_response of the same request
 * id that follows it (retries of a turn share the id; sub-agents' requests
 * may interleave with the main agent's).
 */
function exchangesOf(events: CoreEvent[]): Exchange[] {
  const out: Exchange[] = [];
  const open = new Map<string, Exchange>();
  for (const e of events) {
    if (e.type === "provider_request") {
      const exchange: Exchange = { request: { url: e.url, body: e.body, ...(e.turn !== undefined ? { turn: e.turn } : {}) } };
      out.push(exchange);
      open.set(e.requestId, exchange);
    } else if (e.type === "provider_response") {
      const exchange = open.get(e.requestId);
      if (exchange && !exchange.response) exchange.response = { status: e.status, body: e.body };
    }
  }
  return out;
}
