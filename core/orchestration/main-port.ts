// What the main agent's orchestration tools do: delegate a task (its handle
// at once, the worker running on), message or answer a worker, cancel one.

import { fail, ok, type ToolResult } from "../tool-types.js";
import { AgentFileError, type AgentDefinition } from "../agents/definition.js";
import { findAgent } from "../agents/find.js";
import { schemaProblems, type ResultSchema } from "./result-schema.js";
import { emptyScope, scopesOverlap } from "./scope.js";
import { SETTLED, type TaskRecord } from "./store.js";
import type { DelegateRequest, NotifyRequest, OrchestrationPort } from "./types.js";
import { setRunning, startWorker } from "./worker.js";
import { briefFor, newAgentId } from "./brief.js";
import { nestedScopeProblem, notOwnedProblem, ownersOf } from "./nesting.js";
import { cancelDescendants } from "./nested-runtime.js";
import type { Runtime } from "./runtime.js";

const LIVE: ReadonlySet<string> = new Set(["running", "waiting_main", "idle"]);

export function mainPort(rt: Runtime): OrchestrationPort {
  return {
    self: "main",
    artifacts: { sessionDir: rt.setup.parent.sessionDir, folder: "" },
    roles: () => rt.roles(),
    delegate: (req) => delegate(rt, req),
    cancel: (id, reason) => cancel(rt, id, reason),
    notify: (req) => notify(rt, req),
    complete: () => fail("complete is for a delegated worker: the main agent ends its turn instead"),
    escalate: () => fail("escalate is for a delegated worker: the main agent has no owner to ask"),
    handoff: () => fail("handoff is not available in this session"),
  };
}

/** `caller` is the delegating agent: "main", or a worker's task id (nested delegation). */
export function delegate(rt: Runtime, req: DelegateRequest, caller = "main"): ToolResult {
  const roles = rt.roles();
  if (!roles.includes(req.agentType)) {
    return fail(`delegate refused: agent_type "${req.agentType}" is not a role you may delegate to; the roles are ${roles.join(", ") || "(none)"}`);
  }
  let def: AgentDefinition;
  try {
    def = findAgent(req.agentType, rt.setup.agentDirs);
  } catch (err) {
    if (err instanceof AgentFileError) return fail(`delegate refused: ${err.message}`);
    throw err;
  }
  const scopeError = scopeProblem(def, req) ?? nestedScopeProblem(rt.store, caller, def.readOnly, req.scope);
  if (scopeError) return fail(`delegate refused: ${scopeError}`);
  if (req.resultSchema !== undefined) {
    const problems = schemaProblems(req.resultSchema);
    if (problems.length > 0) return fail(`delegate refused: result_schema is outside the supported subset:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
  }
  const live = [...rt.store.tasks.values()].filter((t) => LIVE.has(t.state));
  const max = rt.setup.parent.config.orchestration.max_live_runtimes;
  if (live.length >= max) {
    return fail(`delegate refused: ${live.length} workers are live, the most [orchestration].max_live_runtimes allows; wait for one to complete, or cancel one`);
  }
  const key = req.semanticTaskKey?.trim();
  const same = key ? live.find((t) => t.semanticTaskKey === key) : undefined;
  if (same) return ok(JSON.stringify(duplicateHandle(same), null, 2), { kind: "text", text: `${same.taskId} already exists (semantic_task_key ${key})` });
  // A worker's own scope, and its owners', hold the work it hands on: no conflict with them.
  const chain = ownersOf(rt.store, caller);
  const overlapping = live.find((t) => !chain.has(t.taskId) && scopesOverlap(t.scope, req.scope));
  const { taskId, dir } = rt.newTaskDir();
  const agentId = newAgentId(taskId);
  const task = rt.store.addTask({
    taskId,
    ...(caller !== "main" ? { owner: caller } : {}),
    agentType: def.name,
    description: req.description,
    scope: req.scope,
    agentId,
    ...(req.resultSchema !== undefined ? { resultSchema: req.resultSchema as ResultSchema } : {}),
    ...(key ? { semanticTaskKey: key } : {}),
  });
  const worker = rt.workerFor(task, def, dir);
  startWorker(worker, { userText: briefFor(task) }, rt.host);
  rt.host.ownerEmit({ type: "agent_update", taskId, agentType: def.name, workerId: agentId, state: "running", what: "started", text: req.description, ...(req.callId ? { callId: req.callId } : {}) });
  const handle = {
    status: "started",
    task_id: taskId,
    agent_id: agentId,
    message: overlapping
      ? // The reference's own words for the overlap hint: what to do about two workers on the same files.
        `task started, but its declared write scope overlaps the still-active task ${overlapping.taskId}: both workers may edit the same files, so run them serially, ` +
        `coordinate the shared edits with that task via notify (target_task_id=${overlapping.taskId}), or move this work to its own git worktree before touching the same paths`
      : `${def.name} is working on ${taskId}; its completion, questions and updates arrive as mailbox messages. Coordinate through task_id ${taskId}.`,
    expected_write_scope: req.scope,
    ...(req.planTaskRef ? { plan_task_ref: req.planTaskRef } : {}),
    ...(req.semanticTaskKey ? { semantic_task_key: req.semanticTaskKey } : {}),
    ...(overlapping
      ? { scope_conflict: true, suggested_task_id: overlapping.taskId, suggested_agent_id: overlapping.agentId, suggested_action: "serialize_or_worktree" }
      : {}),
  };
  return ok(JSON.stringify(handle, null, 2), { kind: "text", text: `${taskId} started (${def.name})${overlapping ? `: scope overlaps ${overlapping.taskId}` : ""}` });
}

/**
 * The answer to a delegation that names the explicit semantic_task_key of a
 * live task: nothing new starts, and the handle points at the task to
 * continue (the reference's "already_exists" handle, in its words).
 */
function duplicateHandle(task: TaskRecord) {
  return {
    status: "already_exists",
    task_id: task.taskId,
    agent_id: task.agentId,
    message: "a task with the same explicit semantic_task_key already exists; continue it with `notify` instead of creating a duplicate delegate",
    semantic_task_key: task.semanticTaskKey,
    expected_write_scope: task.scope,
    suggested_task_id: task.taskId,
    suggested_agent_id: task.agentId,
    suggested_action: "notify_existing",
    duplicate_detected: true,
  };
}

/** A writing role declares what it will change; a read-only one declares nothing. */
function scopeProblem(def: AgentDefinition, req: DelegateRequest): string | undefined {
  const empty = emptyScope(req.scope);
  if (def.readOnly && !empty) {
    return `"${def.name}" is a read-only role (it has no file-changing tools): pass an empty expected_write_scope ({"files": [], "path_prefix": [], "modules": []})`;
  }
  if (!def.readOnly && empty) {
    return `"${def.name}" can change files: expected_write_scope must name the narrowest files, path_prefix or modules covering the work`;
  }
  if (!def.readOnly && req.readOnly === true) {
    return `expected_write_scope.read_only is true but "${def.name}" can change files; pick a read-only role such as explorer, or drop read_only`;
  }
  return undefined;
}

/** Chord's answer to cancel is the task's handle, as JSON; a second cancel is not an error. */
export function cancel(rt: Runtime, id: string, reason: string | undefined, caller = "main"): ToolResult {
  const task = rt.store.tasks.get(id);
  if (!task) return fail(`unknown task_id "${id}"; cannot stop a missing worker (the tasks are ${[...rt.store.tasks.keys()].join(", ") || "(none)"})`);
  const foreign = notOwnedProblem(task, caller, "cancel refused");
  if (foreign) return fail(foreign);
  const handle = (message: string) => JSON.stringify({ status: "cancelled", task_id: id, agent_id: task.agentId, message });
  if (task.state === "cancelled") return ok(handle("worker already cancelled"), { kind: "text", text: `${id} was already cancelled` });
  if (SETTLED.has(task.state)) return fail(`cancel refused: ${id} is already ${task.state}`);
  rt.store.setState(id, "cancelled", { reason: reason ?? "cancelled by its owner" });
  rt.workers.get(id)?.run?.abort.abort(new Error("cancelled by its owner"));
  cancelDescendants(rt, id);
  rt.host.ownerEmit({ type: "agent_update", taskId: id, agentType: task.agentType, workerId: task.agentId, state: "cancelled", what: "cancelled", ...(reason ? { text: reason } : {}) });
  rt.host.changed();
  return ok(handle("worker stopped"), { kind: "text", text: `Cancelled ${id}${reason ? `: ${reason}` : ""}. A cancelled task cannot be resumed.` });
}

export function notify(rt: Runtime, req: NotifyRequest, caller = "main"): ToolResult {
  if (req.targetTaskId === undefined) {
    return fail("notify refused: the main agent has no owner to update; give target_task_id to message a worker");
  }
  const reply = req.messageType === "response";
  if (!reply && (req.messageType !== undefined || req.subtype !== undefined || req.correlationId !== undefined || req.payload !== undefined)) {
    return fail('notify refused: a targeted message takes only target_task_id, message and kind; structured replies require message_type "response" and the correlation_id of the request they answer');
  }
  if (reply && (req.correlationId === undefined || req.correlationId.trim() === "")) {
    return fail(
      'notify refused: correlation_id is required for response: a reply (message_type "response") needs the correlation_id of the request it answers. ' +
        "To send a plain message instead, call notify again without the message_type and correlation_id keys.",
    );
  }
  if (reply && (req.subtype !== undefined || req.payload !== undefined)) return fail("notify refused: subtype and payload are unavailable for response: a reply takes message, kind and correlation_id");
  const task = rt.store.tasks.get(req.targetTaskId);
  if (!task) return fail(`notify refused: no task ${req.targetTaskId}; the tasks are ${[...rt.store.tasks.keys()].join(", ") || "(none)"}`);
  const foreign = notOwnedProblem(task, caller, "notify refused");
  if (foreign) return fail(foreign);
  if (task.state === "cancelled") {
    return fail(`notify refused: task ${task.taskId} was cancelled; a message must not undo that decision — delegate the work again if it should still be done`);
  }
  if (reply && !task.openEscalations.includes(req.correlationId!)) {
    return fail(
      `notify refused: unknown pending request "${req.correlationId}" for task ${task.taskId}; open: ${task.openEscalations.join(", ") || "(none)"}. ` +
        "A correlation_id must be copied from the request being answered; it can never be invented, guessed, or reused.",
    );
  }
  rt.store.send({
    to: task.taskId,
    from: caller,
    type: reply ? "response" : "message",
    text: req.message,
    ...(req.kind ? { kind: req.kind } : {}),
    ...(reply ? { correlationId: req.correlationId! } : {}),
  });
  // Answering an escalation clears the task's escalation budget; other messages do not.
  if (reply) rt.store.answered(task.taskId);
  const how = deliveryOf(rt, task);
  wake(rt, task);
  const handle = { status: how.status, task_id: task.taskId, agent_id: task.agentId, ...(how.status === "rehydrated" ? { rehydrated: true } : {}), message: how.message };
  return ok(JSON.stringify(handle), { kind: "text", text: `Sent to ${task.taskId}: ${how.message}` });
}

/**
 * How a message reaches its worker, in the words of the reference's handle:
 * a running worker reads it in its next request, a parked one is resumed,
 * and one whose run ended starts again on its own transcript.
 */
function deliveryOf(rt: Runtime, task: TaskRecord): { status: string; message: string } {
  const w = rt.workers.get(task.taskId);
  if (!w?.run) return { status: "rehydrated", message: "message delivered and task rehydrated" };
  if (w.parked || task.state !== "running") return { status: "resumed", message: "message delivered and worker resumed" };
  return { status: "queued", message: "message delivered to running worker" };
}

/** A worker whose loop ended (finished, failed, or parked before a restart) starts again on its own transcript. */
function wake(rt: Runtime, task: TaskRecord): void {
  const w = rt.workers.get(task.taskId) ?? rt.workerFor(task, findAgent(task.agentType, rt.setup.agentDirs), rt.taskDir(task.taskId));
  if (w.run) {
    rt.host.changed();
    return;
  }
  w.followUpUsed = false;
  w.coordinated = false;
  setRunning(task, rt.host);
  startWorker(w, { continue: true }, rt.host);
}
