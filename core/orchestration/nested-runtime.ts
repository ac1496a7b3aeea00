// What nested delegation adds to the runtime: a worker that may delegate
// (the rules allow delegate and it sits above [orchestration].max_depth)
// gets delegate and cancel, and notify to its own workers; cancelling a task
// cancels the tasks under it; and a parked owner is woken by its workers'
// reports, as the main agent is by its own.

import { fail } from "../tool-types.js";
import type { ActiveToolset } from "../profiles/activate.js";
import type { AgentDefinition } from "../agents/definition.js";
import { mayOnlyLook } from "../agents/read-only-calls.js";
import type { ToolRole } from "../tool-types.js";
import { delegate } from "./delegate.js";
import { cancel, notify } from "./main-port.js";
import { depthOf, liveChildren, openChildrenProblem, ownerOf } from "./nesting.js";
import type { Runtime } from "./runtime.js";
import type { OrchestrationPort } from "./types.js";
import { startWorker } from "./worker.js";

/** Whether the worker of `taskId` may delegate: some role is allowed, and its workers would not sit too deep. */
export function mayNest(rt: Runtime, taskId: string): boolean {
  return depthOf(rt.store, taskId) < rt.setup.parent.config.orchestration.max_depth && rt.roles().length > 0;
}

/** A worker's port with the owner's side added when it may delegate (or already owns tasks); it never hands off. */
export function nestedPort(base: OrchestrationPort, rt: Runtime, taskId: string): OrchestrationPort {
  const owns = () => mayNest(rt, taskId) || [...rt.store.tasks.values()].some((t) => ownerOf(t) === taskId);
  return {
    ...base,
    roles: () => (mayNest(rt, taskId) ? rt.roles() : []),
    // The call id stays out: the main agent's delegate cards are found by their own call ids.
    delegate: (req) => (mayNest(rt, taskId) ? delegate(rt, { ...req, callId: undefined }, taskId) : base.delegate(req)),
    cancel: (id, reason) => (owns() ? cancel(rt, id, reason, taskId) : base.cancel(id, reason)),
    notify: (req) => (req.targetTaskId !== undefined && owns() ? notify(rt, req, taskId) : base.notify(req)),
    complete(report) {
      const open = openChildrenProblem(rt.store, taskId);
      return open ? fail(open) : base.complete(report);
    },
  };
}

/**
 * Cancels every open task under `ownerId`, each before the tasks under it:
 * with their owner gone, no one would hear them. The reason is in the
 * reference's words.
 */
export function cancelDescendants(rt: Runtime, ownerId: string): void {
  for (const child of liveChildren(rt.store, ownerId)) {
    const reason = `cancelled because ancestor task ${ownerId} was stopped`;
    rt.store.setState(child.taskId, "cancelled", { reason });
    rt.workers.get(child.taskId)?.run?.abort.abort(new Error(reason));
    rt.host.ownerEmit({ type: "agent_update", taskId: child.taskId, agentType: child.agentType, workerId: child.agentId, state: "cancelled", what: "cancelled", text: reason });
    cancelDescendants(rt, child.taskId);
  }
}

/**
 * Starts the loop of a parked worker with mail waiting whose loop is not
 * running (one a restart left parked): an owner woken by its workers'
 * reports. A running loop picks its mail up by itself.
 */
export function wakeParked(rt: Runtime): void {
  if (rt.closing) return;
  for (const w of rt.workers.values()) {
    if (w.run || w.stopping) continue;
    const task = rt.store.tasks.get(w.taskId);
    if (task?.state !== "idle" && task?.state !== "waiting_main") continue;
    if (rt.mailbox.pending(w.taskId).length === 0) continue;
    w.followUpUsed = false;
    w.coordinated = false;
    startWorker(w, { continue: true }, rt.host);
  }
}

const byRole = (toolset: ActiveToolset, roles: ToolRole[]) => [...toolset.tools.values()].filter((t) => t.handler.role !== undefined && roles.includes(t.handler.role)).map((t) => t.name);

/** delegate's agent_type as an enum of the roles the rules allow (with a new description when one is given). */
export function withRoleEnum(toolset: ActiveToolset, names: string[], roles: string[], description?: string): ActiveToolset {
  const specs = toolset.specs.map((spec) => {
    if (!names.includes(spec.name)) return spec;
    const params = spec.parameters as { properties?: Record<string, Record<string, unknown>> };
    const properties = { ...params.properties, agent_type: { ...params.properties?.agent_type, ...(description ? { description } : {}), enum: roles } };
    return { ...spec, parameters: { ...spec.parameters, properties } };
  });
  return { ...toolset, specs };
}

/**
 * A worker's tools when it may delegate: delegate (with the allowed roles in
 * its enum) and cancel, taken from the main agent's surface, unless the
 * agent file's tools leave them out or the role is read-only (a read-only
 * worker starting a writer would no longer be read-only).
 */
export function nestedToolset(toolset: ActiveToolset, top: ActiveToolset, def: AgentDefinition, roles: string[]): ActiveToolset {
  const extra = [...top.tools.values()].filter(
    (t) =>
      (t.handler.role === "delegation" || t.handler.role === "cancellation") &&
      !toolset.tools.has(t.name) &&
      (def.tools === undefined || def.tools.includes(t.name)) &&
      (!def.readOnly || mayOnlyLook(t.handler)),
  );
  if (extra.length === 0) return toolset;
  const tools = new Map([...toolset.tools, ...extra.map((t) => [t.name, t] as const)]);
  const grown = { ...toolset, tools, names: new Set(tools.keys()), specs: [...toolset.specs, ...extra.map((t) => t.spec)] };
  return withRoleEnum(grown, byRole(grown, ["delegation"]), roles);
}
