// A worker's identity and its first message.

import type { TaskRecord } from "./store.js";

/** A runtime id: the task id (stable) with a part that is new for each runtime. */
export function newAgentId(taskId: string): string {
  return `${taskId}.${Math.random().toString(36).slice(2, 8)}`;
}

/** The worker's first message: the job, the scope it declared, the contract, and how to report. */
export function briefFor(task: TaskRecord): string {
  const scope = task.scope;
  const lines = [
    `You are ${task.taskId}, a ${task.agentType} worker. Your task:`,
    task.description,
    "",
    `Expected write scope: files ${JSON.stringify(scope.files)}, path_prefix ${JSON.stringify(scope.path_prefix)}, modules ${JSON.stringify(scope.modules)}.`,
  ];
  if (task.resultSchema) lines.push(`Your result must satisfy this result_schema: ${JSON.stringify(task.resultSchema)}`);
  lines.push(
    "When the task is done, call complete with a summary (and result when a schema is given). If you need a decision or something only your owner can provide, call escalate with kind needs_repair; if the task cannot be done, escalate with kind blocked. Use notify for progress updates.",
  );
  return lines.join("\n");
}
