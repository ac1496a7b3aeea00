// What delegate does for the main agent, in the reference's order: a usable
// scope for the role, a contract within the subset, a known role, room for
// one more worker; then the worker starts and the answer is its startup
// handle at once. A live task with the same explicit semantic_task_key
// starts nothing. A probable repeat (the same derived key or plan_task_ref)
// and a scope overlap with a live writing task still start, with a hint.
// A worker delegating (nested delegation) hands on only work inside its own
// scope, and its own and its owners' scopes never count as overlaps.

import { AgentFileError, type AgentDefinition } from "../agents/definition.js";
import { findAgent } from "../agents/find.js";
import { fail, ok, type ToolResult } from "../tool-types.js";
import { briefFor, newAgentId } from "./brief.js";
import { nestedScopeProblem, ownersOf } from "./nesting.js";
import { schemaProblems, type ResultSchema } from "./result-schema.js";
import { agentNames, roleDefinitions, scopeRule } from "./roles.js";
import type { Runtime } from "./runtime.js";
import { emptyScope, normalizeScope, scopesOverlap, scopeView } from "./scope.js";
import type { TaskRecord } from "./store.js";
import { derivedTaskKey } from "./task-key.js";
import type { DelegateRequest } from "./types.js";
import { startWorker } from "./worker.js";

/** States in which a task still holds a place and can clash with a new one. */
const LIVE: ReadonlySet<string> = new Set(["running", "waiting_main", "idle"]);

const refused = (why: string) => fail(`delegate refused: ${why}`);

/** `caller` is the delegating agent: "main", or a worker's task id. */
export function delegate(rt: Runtime, req: DelegateRequest, caller = "main"): ToolResult {
  const roles = roleDefinitions(rt.setup.agentDirs, rt.roles());
  const scope = normalizeScope(req.scope);
  // An unknown role counts as one that can write, as in the reference: the scope rule comes first.
  if (emptyScope(scope) && !roles.find((d) => d.name === req.agentType)?.readOnly) return refused(scopeRequired(roles));
  if (req.resultSchema !== undefined) {
    const problems = schemaProblems(req.resultSchema);
    if (problems.length > 0) return refused(`result_schema is outside the supported subset:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
  }
  const role = resolveRole(rt, req.agentType, roles);
  if ("problem" in role) return refused(role.problem);
  const def = role.def;
  if (!def.readOnly && req.readOnly === true) {
    return refused(`expected_write_scope.read_only is true but "${def.name}" can change files; pick a read-only role such as explorer, or drop read_only`);
  }
  const outside = nestedScopeProblem(rt.store, caller, def.readOnly, scope);
  if (outside) return refused(outside);
  const live = [...rt.store.tasks.values()].filter((t) => LIVE.has(t.state));
  const max = rt.setup.parent.config.orchestration.max_live_runtimes;
  if (live.length >= max) {
    return refused(
      `max concurrent agents reached (cap=${max}), wait for a running agent to complete: ${live.length} workers are live, the most [orchestration].max_live_runtimes allows; or cancel one`,
    );
  }
  const explicitKey = req.semanticTaskKey?.trim() || undefined;
  const same = explicitKey ? live.find((t) => t.semanticTaskKey === explicitKey) : undefined;
  if (same) return ok(JSON.stringify(duplicateHandle(same)), { kind: "text", text: `${same.taskId} already exists (semantic_task_key ${explicitKey})` });
  return start(rt, def, { ...req, scope }, explicitKey, live, caller);
}

/** Starts the worker and answers with its handle, annotated with a probable repeat or an overlap. */
function start(rt: Runtime, def: AgentDefinition, req: DelegateRequest, explicitKey: string | undefined, live: TaskRecord[], caller: string): ToolResult {
  const key = explicitKey ?? derivedTaskKey(req.description);
  const planTaskRef = req.planTaskRef?.trim() || undefined;
  const repeat = live.find((t) => (key !== "" && keyOf(t) === key) || (planTaskRef !== undefined && t.planTaskRef === planTaskRef));
  const writes = (agentType: string) => !readOnlyRole(rt, agentType);
  // A worker's own scope, and its owners', hold the work it hands on: no conflict with them.
  const chain = ownersOf(rt.store, caller);
  const overlapping = def.readOnly ? undefined : live.find((t) => !chain.has(t.taskId) && writes(t.agentType) && scopesOverlap(t.scope, req.scope));
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
    ...(explicitKey ? { semanticTaskKey: explicitKey } : {}),
    ...(planTaskRef ? { planTaskRef } : {}),
  });
  startWorker(rt.workerFor(task, def, dir), { userText: briefFor(task) }, rt.host);
  rt.host.ownerEmit({ type: "agent_update", taskId, agentType: def.name, workerId: agentId, state: "running", what: "started", text: req.description, ...(req.callId ? { callId: req.callId } : {}) });
  const hint = repeat ? repeatHint(repeat, overlapping !== undefined) : overlapping ? overlapHint(overlapping) : { message: "running in background" };
  const handle = {
    status: "started",
    task_id: taskId,
    agent_id: agentId,
    message: hint.message,
    ...(planTaskRef ? { plan_task_ref: planTaskRef } : {}),
    ...(key ? { semantic_task_key: key } : {}),
    expected_write_scope: scopeView(req.scope),
    ...hint.fields,
  };
  const note = repeat ? `: may repeat ${repeat.taskId}` : overlapping ? `: scope overlaps ${overlapping.taskId}` : "";
  return ok(JSON.stringify(handle), { kind: "text", text: `${taskId} started (${def.name})${note}` });
}

/** The key a live task is compared by: its explicit one, or the one its description gives. */
const keyOf = (t: TaskRecord) => t.semanticTaskKey ?? derivedTaskKey(t.description);

/** Whether a role has no file-changing tools; an unknown one is taken to write, as the reference does. */
function readOnlyRole(rt: Runtime, agentType: string): boolean {
  try {
    return findAgent(agentType, rt.setup.agentDirs).readOnly;
  } catch {
    return false;
  }
}

interface Hint {
  message: string;
  fields?: Record<string, unknown>;
}

/** The reference's words for two workers on the same files: run them serially, coordinate through notify, or use a worktree. */
function overlapHint(other: TaskRecord): Hint {
  return {
    message:
      `task started, but its declared write scope overlaps the still-active task ${other.taskId}: both workers may edit the same files, so run them serially, ` +
      `coordinate the shared edits with that task via notify (target_task_id=${other.taskId}), or move this work to its own git worktree before touching the same paths`,
    fields: { scope_conflict: true, suggested_task_id: other.taskId, suggested_agent_id: other.agentId, suggested_action: "serialize_or_worktree" },
  };
}

/** The reference's words for a probable repeat: continue the earlier task with notify and cancel this one, unless they differ. */
function repeatHint(other: TaskRecord, overlap: boolean): Hint {
  return {
    message:
      `task started, but it may duplicate an earlier task ${other.taskId} from the same caller: if both are the same deliverable, ` +
      `continue that task with notify (target_task_id=${other.taskId}) and cancel this new one instead of running both; otherwise ignore this note and let the new task run`,
    fields: {
      ...(overlap ? { scope_conflict: true } : {}),
      suggested_task_id: other.taskId,
      suggested_agent_id: other.agentId,
      suggested_action: "notify_existing_if_same_deliverable",
      duplicate_detected: true,
    },
  };
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
    ...(task.planTaskRef ? { plan_task_ref: task.planTaskRef } : {}),
    semantic_task_key: task.semanticTaskKey,
    expected_write_scope: scopeView(task.scope),
    suggested_task_id: task.taskId,
    suggested_agent_id: task.agentId,
    suggested_action: "notify_existing",
    duplicate_detected: true,
  };
}

/** The repair for an empty scope on a role that can write, naming the roles an empty scope suits. */
function scopeRequired(roles: AgentDefinition[]): string {
  const readOnly = roles.filter((d) => d.readOnly).map((d) => d.name);
  return (
    "expected_write_scope is required: this task must either declare at least one of files/path_prefix/modules covering what it plans to write, " +
    "or use an agent_type whose role registers no file-writing tools and pass an empty object {}" +
    (readOnly.length ? `. Available read-only agent types: ${readOnly.join(", ")}` : "")
  );
}

/** The role's definition, or why it cannot be delegated to, in the reference's words. */
function resolveRole(rt: Runtime, agentType: string, roles: AgentDefinition[]): { def: AgentDefinition } | { problem: string } {
  const names = `[${roles.map((d) => d.name).join(" ")}]`;
  if (agentType === "") return { problem: `agent_type is required; available types: ${names}` };
  const offered = roles.find((d) => d.name === agentType);
  if (offered) return { def: offered };
  if (!agentNames(rt.setup.agentDirs).includes(agentType)) {
    const rules = roles.map((d) => `${d.name} ${scopeRule(d)}`).join(", ");
    return { problem: `unknown agent type "${agentType}"; available subagent types: ${names}${rules ? ` (${rules})` : ""}` };
  }
  let def: AgentDefinition;
  try {
    def = findAgent(agentType, rt.setup.agentDirs);
  } catch (err) {
    if (err instanceof AgentFileError) return { problem: err.message };
    throw err;
  }
  if (def.mode !== "subagent") {
    return { problem: `agent "${agentType}" has mode "${def.mode}" and cannot be used as a SubAgent; only subagent-mode agents are allowed` };
  }
  return { problem: `agent type "${agentType}" is denied by Delegate permission policy` };
}
