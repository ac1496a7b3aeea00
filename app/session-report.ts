// What `yuj status` and `yuj show` report about a session, as one plain
// object: printed as JSON with --output json, or as aligned text. A stored
// session holds what the model and its tools wrote: every value is made safe
// (core/text) before it is printed.

import type { HistoryItem } from "../core/history.js";
import type { SessionState } from "../core/session-state.js";
import { jsonForTerminal } from "../core/text/escapes.js";
import { safeText } from "../core/text/safe.js";
import { truncate } from "../core/text/width.js";
import type { ShownStatus } from "./find-session.js";
import { nextAction, type NextAction } from "./next-action.js";

export interface StatusReport {
  id: string;
  status: ShownStatus;
  /** The process running the session, while one does. */
  pid?: number;
  cwd: string;
  task: string;
  createdAt: string;
  updatedAt: string;
  lastReason?: string;
  lastMessage?: string;
  question?: { question: string; answer?: string; delivered: boolean };
  approval?: { summary: string; reason: string; answered: boolean };
  next: NextAction;
}

export interface ShowReport extends StatusReport {
  dir: string;
  settings: SessionState["settings"];
  usage: SessionState["usage"];
  todos: SessionState["todos"];
  jobs: SessionState["jobs"];
  /** The last steps of the conversation, oldest first. */
  recent: string[];
  /** Lines of the conversation log skipped as damaged (a crash or a full disk mid-write), when there are any. */
  damaged?: string[];
}

const RECENT_STEPS = 12;

export function statusReport(state: SessionState, status: ShownStatus, pid?: number): StatusReport {
  const r: StatusReport = {
    id: state.sessionId,
    status,
    ...(pid ? { pid } : {}),
    cwd: state.cwd,
    task: state.task,
    createdAt: state.createdAt,
    updatedAt: state.updatedAt,
    next: nextAction(state, status, pid),
  };
  if (state.lastReason) r.lastReason = state.lastReason;
  if (state.lastMessage) r.lastMessage = state.lastMessage;
  if (state.question) {
    r.question = { question: state.question.question, delivered: state.question.delivered === true };
    if (state.question.answer !== undefined) r.question.answer = state.question.answer;
  }
  if (state.pending) {
    r.approval = { summary: state.pending.request.summary, reason: state.pending.request.reason, answered: state.answer !== undefined };
  }
  return r;
}

export function showReport(state: SessionState, status: ShownStatus, dir: string, pid?: number, damaged: string[] = []): ShowReport {
  return {
    ...statusReport(state, status, pid),
    ...(damaged.length ? { damaged } : {}),
    dir,
    settings: state.settings,
    usage: state.usage,
    todos: state.todos,
    jobs: state.jobs,
    recent: state.history.slice(-RECENT_STEPS).map(describeStep),
  };
}

/** One line per history item: who, and the gist. */
function describeStep(item: HistoryItem): string {
  if (item.role === "user") return `user: ${oneLine(item.text)}`;
  if (item.role === "tool") return `  ${item.isError ? "✗" : "✓"} ${item.name}: ${oneLine(item.text) || "(no output)"}`;
  if (item.role !== "assistant") return `${(item as { role: string }).role}: ${oneLine((item as { text?: string }).text ?? "")}`;
  const calls = item.toolCalls.map((c) => `${c.name}(${oneLine(c.args, 60)})`).join(", ");
  const text = oneLine(item.text);
  return `assistant: ${[text, calls && `calls ${calls}`].filter(Boolean).join(" · ") || "(empty)"}`;
}

/** The gist of a text on one safe line: runs of white space as one space, at most `max` columns. */
function oneLine(text: string, max = 100): string {
  return truncate(safeText(text.replace(/\s+/g, " ").trim()), max);
}

/** `key  value` lines, keys padded to one width; values made safe, a value's lines aligned. */
export function keyValues(rows: Array<[string, string | undefined]>): string {
  const kept = rows.filter((r): r is [string, string] => r[1] !== undefined && r[1] !== "");
  const width = Math.max(...kept.map(([k]) => k.length));
  return kept.map(([k, v]) => `${k.padEnd(width)}  ${safeText(v).split("\n").join(`\n${" ".repeat(width + 2)}`)}`).join("\n") + "\n";
}

/** A report as JSON that parses to the same data and cannot act on the terminal it is printed to. */
export function reportJson(value: unknown): string {
  return `${jsonForTerminal(JSON.stringify(value, null, 2))}\n`;
}

export function statusText(r: StatusReport): string {
  return keyValues([
    ["session", r.id],
    ["status", r.status + (r.pid ? ` (pid ${r.pid})` : "") + (r.lastReason && (r.status === "failed" || r.status === "paused") ? ` (last run: ${r.lastReason})` : "")],
    ["cwd", r.cwd],
    ["task", r.task.trim().split("\n")[0]],
    ["updated", r.updatedAt],
    ["question", r.question && `${r.question.question}${r.question.answer !== undefined ? `\nanswer: ${r.question.answer}${r.question.delivered ? " (sent)" : " (not sent yet)"}` : ""}`],
    ["approval", r.approval && `${r.approval.summary} (${r.approval.reason})${r.approval.answered ? " — answered" : ""}`],
    ["next", r.next.text],
    ["run", r.next.command],
  ]);
}
