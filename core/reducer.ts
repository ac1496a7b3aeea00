// A pure function from (state, event) to state: the session as the view shows
// it. The TUI renders only this; the headless printer and replays use it too.

import type {
  CoreEvent,
  EventOf,
  FinishReason,
  TodoItem,
  Usage,
} from "./events.js";
import { describeAttachment } from "./mentions.js";
import type { ToolCardLayout, ToolDisplay } from "./display-schema.js";
import { factNotice, initialFacts, loopNotice, reduceFacts, type SessionFacts } from "./reducer-session.js";
import { lspServer, mcpServer, type LspServerView, type McpServerView } from "./reducer-servers.js";
import { agentUpdate, askApproval, reduceAgentEvent, type AgentView, type CardTask } from "./reducer-agents.js";
import {
  addCard,
  appendAssistantText,
  dropApprovals,
  dropPartialTurn,
  finishAssistant,
  jobResultCard,
  received,
  settlePrompts,
  updateInner,
  updateJob,
  updateTool,
} from "./reducer-cards.js";

export type ToolCardStatus = "streaming" | "running" | "ok" | "error" | "cancelled";

export type Card =
  | { kind: "user"; num: number; text: string; attached?: string[] }
  | { kind: "assistant"; num: number; text: string; streaming: boolean; turn?: number }
  | {
      kind: "tool";
      num: number;
      turn?: number;
      callId: string;
      name: string;
      argsText: string;
      status: ToolCardStatus;
      /** How the tool's card is laid out; absent in traces of earlier versions. */
      view?: ToolCardLayout;
      /** The call's key argument, once its arguments are complete. */
      summary?: string;
      /** What the call will do, shown until its result says more. */
      preview?: ToolDisplay;
      modelText?: string;
      /** What the result shows; absent: the model's text as plain text. */
      display?: ToolDisplay;
      /** The view's text, from traces of earlier versions (before `display`). */
      viewText?: string;
      fullOutputPath?: string;
      durationMs?: number;
      /** The calls a code cell made while it ran, in order (shown under its card). */
      inner?: InnerCall[];
      /** A delegate call's task, as its latest lifecycle update left it (the card follows it in place). */
      task?: CardTask;
    }
  /** `agent`: a worker's AGENT COMPLETE or AGENT BLOCKED card (its first line names the task, the rest is its report). */
  | { kind: "notice"; num: number; level: "info" | "warning" | "error"; text: string; agent?: "completed" | "blocked" }
  /** A background job that finished: one card with its command, how it ended, its output's tail and where the whole of it is. */
  | { kind: "job"; num: number; jobId: string; command: string; how: string; failed: boolean; tail: string; totalBytes: number; outputFile?: string; durationMs?: number };

/** One call a code cell made, as its cell's card lists it. */
export interface InnerCall {
  callId: string;
  name: string;
  summary?: string;
  status: "running" | "ok" | "error" | "cancelled";
}

export interface JobView {
  jobId: string;
  command: string;
  label?: string;
  background: boolean;
  status: "running" | "stopping" | "exited" | "killed" | "timed_out";
  exitCode?: number | null;
  signal?: string | null;
  startedAt: string;
  durationMs?: number;
  deadlineAt?: number;
  /** The tail of the output (the full stream is in outputFile). */
  output: string;
  totalBytes: number;
  outputFile?: string;
  callId?: string;
}

interface TerminalView {
  terminalId: string;
  command: string;
  status: "running" | "exited";
  exitCode?: number | null;
  /** Inputs sent (sizes only; the text is never kept). */
  inputs: number;
}

export interface RequestView {
  state: "idle" | "waiting" | "streaming";
  bytesReceived: number;
  startedAt?: string;
  retries: number;
}

export interface SessionView {
  sessionId?: string;
  cwd?: string;
  profile?: string;
  provider?: string;
  model?: string;
  demo: boolean;
  cards: Card[];
  nextCardNum: number;
  todos: TodoItem[];
  jobs: Record<string, JobView>;
  terminal?: TerminalView;
  /** By server name; the latest state of any of its roots. */
  lsp: Record<string, LspServerView>;
  /** By server name. */
  mcp: Record<string, McpServerView>;
  pendingApproval?: EventOf<"approval_requested">;
  /** Approvals asked while another waits (workers ask at once), in order: each takes the prompt in turn. */
  queuedApprovals?: EventOf<"approval_requested">[];
  pendingQuestion?: EventOf<"question_asked">;
  usage: { last?: Usage; total: Usage };
  request: RequestView;
  turn: number;
  status: "idle" | "running" | "finished";
  finish?: { reason: FinishReason; message?: string };
  lastEventSeq: number;
  /** YOLO, the session's name, the rules last listed, request counts. */
  facts: SessionFacts;
  /** The workers and task children by task id, in the order they started: each with its own transcript. */
  agents: Record<string, AgentView>;
}

/** Output kept per job in the view; the full stream lives in the session dir. */
const JOB_VIEW_CHARS = 64 * 1024;

export function initialView(): SessionView {
  return {
    demo: false,
    cards: [],
    nextCardNum: 1,
    todos: [],
    jobs: {},
    lsp: {},
    mcp: {},
    usage: { total: { inputTokens: 0, outputTokens: 0, cachedTokens: 0 } },
    request: { state: "idle", bytesReceived: 0, retries: 0 },
    turn: 0,
    status: "idle",
    lastEventSeq: 0,
    facts: initialFacts,
    agents: {},
  };
}

/** The view after `event`: a worker's or task child's own event goes to that agent's view. */
export function reduce(state: SessionView, event: CoreEvent): SessionView {
  if (event.agentId !== undefined && event.agentId !== "main") return reduceAgentEvent(state, event, reduceOwn, initialView);
  return reduceOwn(state, event);
}

function reduceOwn(state: SessionView, event: CoreEvent): SessionView {
  const s = { ...state, lastEventSeq: event.seq };
  switch (event.type) {
    case "session_started":
      return {
        ...s,
        sessionId: event.sessionId,
        cwd: event.cwd,
        profile: event.profile,
        provider: event.provider,
        model: event.model,
        demo: event.demo ?? false,
        status: "running",
        facts: { ...s.facts, startedAt: s.facts.startedAt ?? event.ts },
      };
    case "user_message":
      return {
        ...addCard(s, { kind: "user", text: event.text, ...(event.attachments?.length ? { attached: event.attachments.map(describeAttachment) } : {}) }),
        status: "running",
      };
    case "request_sent":
      return {
        ...s,
        turn: event.turn ?? s.turn,
        request: { state: "waiting", bytesReceived: 0, startedAt: event.ts, retries: 0 },
        facts: { ...s.facts, requests: s.facts.requests + 1 },
      };
    case "provider_request":
    case "provider_response":
    case "workspace_snapshot":
      return s;
    case "assistant_text_delta":
      return received(appendAssistantText(s, event.text, event.turn), event.text.length);
    case "assistant_message":
      return finishAssistant(s);
    case "tool_call_started":
      if (event.parentCallId !== undefined) {
        const call: InnerCall = { callId: event.callId, name: event.name, status: "running" };
        return updateTool(s, event.parentCallId, (c) => ({ ...c, inner: [...(c.inner ?? []), call] }));
      }
      return addCard(finishAssistant(s), {
        kind: "tool",
        callId: event.callId,
        name: event.name,
        argsText: "",
        status: "streaming",
        ...(event.view ? { view: event.view } : {}),
        ...(event.turn === undefined ? {} : { turn: event.turn }),
      });
    case "tool_call_args_delta":
      return received(
        updateTool(s, event.callId, (c) => ({ ...c, argsText: c.argsText + event.delta })),
        event.delta.length,
      );
    case "tool_call_finished":
      if (event.parentCallId !== undefined) {
        const summary = event.summary;
        return summary === undefined ? s : updateInner(s, event.parentCallId, event.callId, (i) => ({ ...i, summary }));
      }
      return updateTool(s, event.callId, (c) => ({
        ...c,
        argsText: event.args,
        status: "running",
        ...(event.summary === undefined ? {} : { summary: event.summary }),
        ...(event.preview ? { preview: event.preview } : {}),
      }));
    case "tool_result":
      if (event.parentCallId !== undefined) {
        const status = event.cancelled ? "cancelled" : event.ok ? "ok" : "error";
        return updateInner(s, event.parentCallId, event.callId, (i) => ({ ...i, status }));
      }
      // A call that has its result asks nothing any more (a cancelled question, an approval the turn's cancel ended).
      return updateTool(settlePrompts(s, event.callId), event.callId, (c) => ({
        ...c,
        status: event.cancelled ? "cancelled" : event.ok ? "ok" : "error",
        modelText: event.modelText,
        durationMs: event.durationMs,
        ...(event.display ? { display: event.display } : {}),
        ...(event.viewText === undefined ? {} : { viewText: event.viewText }),
        ...(event.fullOutputPath ? { fullOutputPath: event.fullOutputPath } : {}),
      }));
    case "approval_requested":
      return askApproval(s, event);
    case "approval_resolved":
      return dropApprovals(s, (a) => a.callId === event.callId);
    case "question_asked":
      return { ...s, pendingQuestion: event };
    case "tools_loaded":
      return event.names.length ? addCard(s, { kind: "notice", level: "info", text: `tools loaded: ${event.names.join(", ")}` }) : s;
    case "question_answered":
      return s.pendingQuestion?.callId === event.callId ? { ...s, pendingQuestion: undefined } : s;
    case "job_started": {
      const job: JobView = {
        jobId: event.jobId,
        command: event.command,
        background: event.background,
        status: "running",
        startedAt: event.ts,
        output: "",
        totalBytes: 0,
        ...(event.label === undefined ? {} : { label: event.label }),
        ...(event.deadlineAt === undefined ? {} : { deadlineAt: event.deadlineAt }),
        ...(event.outputFile === undefined ? {} : { outputFile: event.outputFile }),
        ...(event.callId === undefined ? {} : { callId: event.callId }),
      };
      // The call that started it has its card, and the jobs panel lists it
      // while it runs; its end is one JOB RESULT card.
      return { ...s, jobs: { ...s.jobs, [event.jobId]: job } };
    }
    case "job_output":
      return updateJob(s, event.jobId, (j) => ({
        ...j,
        output: (j.output + event.text).slice(-JOB_VIEW_CHARS),
        totalBytes: event.totalBytes,
      }));
    case "job_exited": {
      const next = updateJob(s, event.jobId, (j) => ({
        ...j,
        status: event.status ?? "exited",
        exitCode: event.exitCode,
        signal: event.signal ?? null,
        ...(event.durationMs === undefined ? {} : { durationMs: event.durationMs }),
      }));
      const job = next.jobs[event.jobId];
      if (!job?.background) return next;
      return addCard(next, jobResultCard(job, event));
    }
    case "job_killed":
      return updateJob(s, event.jobId, (j) => (j.status === "running" ? { ...j, status: "stopping" } : j));
    case "job_promoted":
      return updateJob(s, event.jobId, (j) => ({ ...j, background: true }));
    case "jobs_orphans_found":
      return addCard(s, {
        kind: "notice",
        level: "warning",
        text: `Ended ${event.count} process group(s) or process(es) left running by an earlier yuj that was killed: ${event.detail.join("; ")}`,
      });
    case "terminal_started":
      return { ...s, terminal: { terminalId: event.terminalId, command: event.command, status: "running", inputs: 0 } };
    case "terminal_input":
      return s.terminal?.terminalId === event.terminalId
        ? { ...s, terminal: { ...s.terminal, inputs: s.terminal.inputs + 1 } }
        : s;
    case "terminal_exited":
      return s.terminal?.terminalId === event.terminalId
        ? { ...s, terminal: { ...s.terminal, status: "exited", exitCode: event.exitCode } }
        : s;
    case "todo_updated":
      return { ...s, todos: event.todos };
    case "lsp_server":
      return lspServer(s, event);
    case "mcp_server":
      return mcpServer(s, event);
    case "usage":
      return { ...s, usage: { last: event.usage, total: event.total } };
    case "context_compacted": {
      const before = event.tokensBefore === undefined ? "" : ` at ${event.tokensBefore.toLocaleString("en-US")} input tokens`;
      const how = event.reason === "manual" ? "Compacted on request" : "Context nearly full: compacted";
      return addCard(s, {
        kind: "notice",
        level: "info",
        text: `${how}${before}. ${event.summarisedItems} earlier items are now a ${event.summaryChars}-character summary; the last ${event.keptItems} items stay as they were. The full history is kept in the session.`,
      });
    }
    case "model_switched":
      return addCard({ ...s, model: event.model }, { kind: "notice", level: "info", text: `Model: ${event.model} (was ${event.previous}), from the next request on.` });
    case "retry": {
      const base = event.discardedPartial ? dropPartialTurn(s, event.turn) : s;
      const note = `Retrying in ${(event.delayMs / 1000).toFixed(1)}s (attempt ${event.attempt}): ${event.reason}`;
      return {
        ...addCard(base, { kind: "notice", level: "warning", text: note }),
        request: { ...base.request, state: "waiting", bytesReceived: 0, retries: event.attempt },
      };
    }
    case "notice":
      return addCard(s, { kind: "notice", level: event.level, text: event.text });
    case "config_untrusted":
      return addCard(s, { kind: "notice", level: "warning", text: event.text });
    case "hook_ran":
      // A failure comes with its own notice; a run that went well is the trace's business.
      return s;
    case "turn_finished":
      return { ...finishAssistant(settlePrompts(s)), request: { ...s.request, state: "idle" } };
    case "run_finished":
      return {
        ...finishAssistant(settlePrompts(s)),
        status: "finished",
        request: { ...s.request, state: "idle" },
        finish: event.message === undefined ? { reason: event.reason } : { reason: event.reason, message: event.message },
      };
    case "error":
      return addCard(s, { kind: "notice", level: "error", text: event.message });
    case "conversation_forked":
      return addCard(s, {
        kind: "notice",
        level: "info",
        text: `Edited message: the conversation goes on from before "${event.message.split("\n")[0]}"; ${event.droppedItems} later items left the model's context (the session's log keeps them).`,
      });
    case "yolo_changed":
    case "main_role_changed":
      return addCard({ ...s, facts: reduceFacts(s.facts, event) }, { kind: "notice", level: "info", text: factNotice(event) });
    case "session_renamed":
      return addCard({ ...s, facts: reduceFacts(s.facts, event) }, { kind: "notice", level: "info", text: `The session is now named ${event.name}.` });
    case "rules_listed":
    case "skills_found":
    case "skill_loaded":
      return { ...s, facts: reduceFacts(s.facts, event) };
    case "loop_changed": {
      const said = loopNotice(s.facts.loop, event), next = { ...s, facts: reduceFacts(s.facts, event) };
      return said ? addCard(next, { kind: "notice", level: "info", text: said }) : next;
    }
    case "agent_update":
      return agentUpdate(s, event, initialView);
    default: {
      const unhandled: never = event;
      return unhandled;
    }
  }
}
/** Reduces a whole event list from the initial view. */
export function replayEvents(events: Iterable<CoreEvent>): SessionView {
  let view = initialView();
  for (const e of events) view = reduce(view, e);
  return view;
}
