// Nested delegation as a tree: every task has an owner (the main agent, or
// the worker that delegated it), a depth (1 for the main agent's own
// workers), and children. Only a task's direct owner steers it (messages,
// answers, cancel), and its reports go to that owner alone, so an ancestor
// never hears, or acts on, a grandchild directly.

import { SETTLED, type OrchestrationStore, type TaskRecord } from "./store.js";
import type { WriteScope } from "./scope.js";

/** Who a task reports to and takes orders from: "main" or a task id. */
export const ownerOf = (task: TaskRecord): string => task.owner ?? "main";

/** The caller and every task above it (empty for the main agent). */
export function ownersOf(store: OrchestrationStore, caller: string): Set<string> {
  const chain = new Set<string>();
  for (let id = caller; id !== "main" && !chain.has(id); ) {
    const task = store.tasks.get(id);
    if (!task) break;
    chain.add(id);
    id = ownerOf(task);
  }
  return chain;
}

/** How deep the caller sits: 0 for the main agent, 1 for its workers, and so on. */
export const depthOf = (store: OrchestrationStore, caller: string): number => ownersOf(store, caller).size;

/** The caller's own tasks that are not settled. */
export function liveChildren(store: OrchestrationStore, owner: string): TaskRecord[] {
  return [...store.tasks.values()].filter((t) => ownerOf(t) === owner && !SETTLED.has(t.state));
}

/**
 * Why `caller` may not steer `task` (it is not its direct owner), or
 * undefined: the reference's words (which task owns it, which caller is not
 * allowed), then the rule.
 */
export function notOwnedProblem(task: TaskRecord, caller: string, refusal: "cancel refused" | "notify refused"): string | undefined {
  const owner = ownerOf(task);
  if (owner === caller) return undefined;
  const ownedBy = owner === "main" ? "is owned by the main agent" : `is owned by task ${owner}`;
  return `${refusal}: task ${task.taskId} ${ownedBy}; caller task ${caller} is not allowed: only a task's direct owner may message, answer or cancel it`;
}

/** Why a worker may not end its task yet: its own workers still run (their reports would have no one to go to). */
export function openChildrenProblem(store: OrchestrationStore, caller: string): string | undefined {
  const open = liveChildren(store, caller);
  if (open.length === 0) return undefined;
  const ids = open.map((t) => `${t.taskId} (${t.state})`).join(", ");
  return `complete refused: the tasks you delegated are still open: ${ids}. Wait for their reports (they arrive as mailbox messages), or cancel them, then call complete.`;
}

const clean = (p: string) => p.trim().replace(/^\.\/+/, "").replace(/\/+/g, "/").replace(/\/$/, "");
const under = (path: string, prefix: string) => prefix === "" || path === prefix || path.startsWith(`${prefix}/`);

/**
 * The entries of a child's scope that fall outside its owner's: a worker
 * hands on only work inside what it declared itself (a file it named, or a
 * path under one of its prefixes; a module it named).
 */
function outsideScope(child: WriteScope, owner: WriteScope): string[] {
  const files = owner.files.map(clean);
  const prefixes = owner.path_prefix.map(clean);
  const covered = (path: string) => files.includes(path) || prefixes.some((p) => under(path, p));
  return [
    ...child.files.filter((f) => !covered(clean(f))),
    ...child.path_prefix.filter((p) => !prefixes.some((q) => under(clean(p), q))),
    ...child.modules.filter((m) => !owner.modules.includes(m)),
  ];
}

/** A worker delegating work that changes files must keep it inside its own declared scope. */
export function nestedScopeProblem(store: OrchestrationStore, caller: string, readOnly: boolean, scope: WriteScope): string | undefined {
  const own = store.tasks.get(caller);
  if (!own || readOnly) return undefined;
  const outside = outsideScope(scope, own.scope);
  if (outside.length === 0) return undefined;
  return `expected_write_scope must not be broader than your own task's (files ${JSON.stringify(own.scope.files)}, path_prefix ${JSON.stringify(own.scope.path_prefix)}, modules ${JSON.stringify(own.scope.modules)}): ${outside.join(", ")} ${outside.length === 1 ? "is" : "are"} outside it`;
}
