// The session's delegation record: every task, its state changes, and every
// mailbox message, as an append-only log (`orchestration.jsonl` in the
// session folder) synced line by line, so a killed process loses nothing it
// reported. Folding the log gives the state back after a restart.
//
// Whether a message was delivered is not logged: a message is delivered
// exactly when it is in its target's saved history (its id is in the text
// delivered), so a crash between saving the history and anything else can
// neither lose a message nor deliver it twice.

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { openAppendLog, type AppendLog } from "../append-log.js";
import type { ResultSchema } from "./result-schema.js";
import type { WriteScope } from "./scope.js";

export type TaskState = "running" | "waiting_main" | "idle" | "completed" | "failed" | "cancelled";

/** A state a worker never leaves by itself; only a targeted message resumes it (a cancelled task: never). */
export const SETTLED: ReadonlySet<TaskState> = new Set(["completed", "failed", "cancelled"]);

export interface TaskRecord {
  taskId: string;
  agentType: string;
  description: string;
  /** The task that delegated it (nested delegation); absent: the main agent. */
  owner?: string;
  scope: WriteScope;
  resultSchema?: ResultSchema;
  /** The delegate call's explicit semantic_task_key: a second live task with it is a duplicate. */
  semanticTaskKey?: string;
  /** The plan item it carries out: another live task with it is a probable duplicate. */
  planTaskRef?: string;
  state: TaskState;
  /** The current runtime; a restart gives a rehydrated worker a new one. */
  agentId: string;
  previousAgentId?: string;
  reason?: string;
  /** Result contract violations delivered so far (the second fails the task). */
  violations: number;
  /** Correlation ids of needs_repair escalations the owner has not answered. */
  openEscalations: string[];
  escalations: number;
}

type MessageType = "progress" | "notice" | "response" | "message" | "request" | "completion" | "risk_alert";

export interface MailMessage {
  id: string;
  /** "main" or a task id. */
  to: string;
  from: string;
  type: MessageType;
  text: string;
  kind?: string;
  subtype?: string;
  correlationId?: string;
  payload?: Record<string, unknown>;
}

/** What a new task is recorded with; the rest starts empty. */
type NewTask = Omit<TaskRecord, "state" | "violations" | "openEscalations" | "escalations" | "previousAgentId" | "reason">;

type LogRow =
  | { t: "delegated"; task: NewTask }
  | { t: "state"; taskId: string; state: TaskState; reason?: string; agentId?: string }
  | { t: "msg"; msg: MailMessage }
  | { t: "violation"; taskId: string }
  | { t: "escalation"; taskId: string; correlationId: string }
  | { t: "answered"; taskId: string };

export interface OrchestrationStore {
  readonly tasks: Map<string, TaskRecord>;
  /** Every message, in the order it was sent. */
  readonly messages: MailMessage[];
  addTask(task: NewTask): TaskRecord;
  setState(taskId: string, state: TaskState, extra?: { reason?: string; agentId?: string }): void;
  send(msg: Omit<MailMessage, "id">): MailMessage;
  violation(taskId: string): number;
  escalation(taskId: string, correlationId: string): void;
  answered(taskId: string): void;
  close(): void;
}

const storeFile = (sessionDir: string) => join(sessionDir, "orchestration.jsonl");

export function openOrchestrationStore(sessionDir: string): OrchestrationStore {
  const file = storeFile(sessionDir);
  const tasks = new Map<string, TaskRecord>();
  const messages: MailMessage[] = [];
  const apply = (row: LogRow) => applyRow(row, tasks, messages);
  if (existsSync(file)) {
    for (const line of readFileSync(file, "utf8").split("\n")) {
      // A torn last line (the process was killed while writing it) was never reported: skipped.
      const row = parseRow(line);
      if (row) apply(row);
    }
  }
  let log: AppendLog | undefined;
  const write = (row: LogRow) => {
    log ??= openAppendLog(file);
    log.append(JSON.stringify(row), { sync: true });
    apply(row);
  };
  return {
    tasks,
    messages,
    addTask(task) {
      write({ t: "delegated", task });
      return tasks.get(task.taskId)!;
    },
    setState(taskId, state, extra = {}) {
      write({ t: "state", taskId, state, ...extra });
    },
    send(msg) {
      const full = { ...msg, id: `m-${messages.length + 1}` };
      write({ t: "msg", msg: full });
      return full;
    },
    violation(taskId) {
      write({ t: "violation", taskId });
      return tasks.get(taskId)!.violations;
    },
    escalation(taskId, correlationId) {
      write({ t: "escalation", taskId, correlationId });
    },
    answered(taskId) {
      write({ t: "answered", taskId });
    },
    close() {
      log?.close();
    },
  };
}

function parseRow(line: string): LogRow | undefined {
  if (!line.trim()) return undefined;
  try {
    return JSON.parse(line) as LogRow;
  } catch {
    return undefined;
  }
}

function applyRow(row: LogRow, tasks: Map<string, TaskRecord>, messages: MailMessage[]): void {
  if (row.t === "delegated") {
    tasks.set(row.task.taskId, { ...row.task, state: "running", violations: 0, openEscalations: [], escalations: 0 });
    return;
  }
  if (row.t === "msg") {
    messages.push(row.msg);
    return;
  }
  const task = tasks.get(row.taskId);
  if (!task) return;
  switch (row.t) {
    case "state":
      task.state = row.state;
      if (row.reason !== undefined) task.reason = row.reason;
      if (row.agentId !== undefined && row.agentId !== task.agentId) {
        task.previousAgentId = task.agentId;
        task.agentId = row.agentId;
      }
      break;
    case "violation":
      task.violations++;
      break;
    case "escalation":
      task.openEscalations.push(row.correlationId);
      task.escalations++;
      break;
    case "answered":
      task.openEscalations = [];
      break;
  }
}

/** The id a delivered message carries in its target's history. */
export const messageTag = (id: string) => `[mailbox ${id}]`;

/** The ids of the messages a history holds (its user rows): those were delivered. */
export function deliveredIds(history: readonly { role: string; text?: string }[]): Set<string> {
  const ids = new Set<string>();
  for (const item of history) {
    if (item.role !== "user" || typeof item.text !== "string") continue;
    for (const m of item.text.matchAll(/\[mailbox (m-\d+)\]/g)) ids.add(m[1]!);
  }
  return ids;
}

/** Whether the session's log holds a task whose worker was running when the session stopped. */
export function hasRunningTasks(sessionDir: string): boolean {
  if (!existsSync(storeFile(sessionDir))) return false;
  const store = openOrchestrationStore(sessionDir);
  return [...store.tasks.values()].some((t) => t.state === "running");
}
