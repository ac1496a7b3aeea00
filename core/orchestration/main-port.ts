// What the main agent's orchestration tools do: delegate a task (its handle
// at once, the worker running on), message or answer a worker, cancel one.

import { fail, ok, type ToolResult } from "../tool-types.js";
import { findAgent } from "../agents/find.js";
import { delegate } from "./delegate.js";
import { SETTLED, type TaskRecord } from "./store.js";
import type { NotifyRequest, OrchestrationPort } from "./types.js";
import { setRunning, startWorker } from "./worker.js";
import { notOwnedProblem } from "./nesting.js";
import { cancelDescendants } from "./nested-runtime.js";
import type { Runtime } from "./runtime.js";

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

/**
 * The reference's task handle as JSON. Its expected_write_scope is always
 * written (an empty object when the answer is about no scope), as the
 * reference's encoder writes it.
 */
const taskHandle = (fields: Record<string, unknown>): string => JSON.stringify({ ...fields, expected_write_scope: {} });

/**
 * Chord's answer to cancel is the task's handle, as JSON. A second cancel is
 * not an error, and neither is a cancel of a task that has already ended: its
 * report stands (a completion is never rewritten into a cancellation), the
 * handle says how it ended, and open tasks under it are still cancelled.
 */
export function cancel(rt: Runtime, id: string, reason: string | undefined, caller = "main"): ToolResult {
  const task = rt.store.tasks.get(id);
  if (!task) return fail(`unknown task_id "${id}"; cannot stop a missing worker (the tasks are ${[...rt.store.tasks.keys()].join(", ") || "(none)"})`);
  const foreign = notOwnedProblem(task, caller, "cancel refused");
  if (foreign) return fail(foreign);
  const why = reason?.trim() || undefined;
  const handle = (status: string, message: string) => taskHandle({ status, task_id: id, agent_id: task.agentId, message });
  if (task.state === "cancelled") return ok(handle("cancelled", "worker already cancelled"), { kind: "text", text: `${id} was already cancelled` });
  if (SETTLED.has(task.state)) {
    cancelDescendants(rt, id);
    rt.host.changed();
    return ok(handle(task.state, `parked worker already ${task.state}`), { kind: "text", text: `${id} had already ${task.state}; nothing was stopped` });
  }
  rt.store.setState(id, "cancelled", { reason: why ?? "cancelled by its owner" });
  rt.workers.get(id)?.run?.abort.abort(new Error("cancelled by its owner"));
  cancelDescendants(rt, id);
  rt.host.ownerEmit({ type: "agent_update", taskId: id, agentType: task.agentType, workerId: task.agentId, state: "cancelled", what: "cancelled", ...(why ? { text: why } : {}) });
  rt.host.changed();
  return ok(handle("cancelled", "worker stopped"), { kind: "text", text: `Cancelled ${id}${why ? `: ${why}` : ""}. A cancelled task cannot be resumed.` });
}

export function notify(rt: Runtime, req: NotifyRequest, caller = "main"): ToolResult {
  if (req.targetTaskId === undefined) {
    return fail("notify refused: target_task_id is required in this context: the main agent has no owner to update; give target_task_id to message a worker");
  }
  const reply = req.messageType === "response";
  if (!reply && (req.messageType !== undefined || req.subtype !== undefined || req.correlationId !== undefined || req.payload !== undefined)) {
    return fail(
      "notify refused: plain targeted notify accepts message and kind; structured replies require message_type=response and correlation_id, without subtype or payload",
    );
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
  return ok(taskHandle(handle), { kind: "text", text: `Sent to ${task.taskId}: ${how.message}` });
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
