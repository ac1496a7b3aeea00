// What a worker's coordination tools do: complete (checked against the
// task's result contract), escalate (ask the owner, or give up), and notify
// (an update to the owner). A worker talks only to its owner.

import { fail, ok, type ToolResult } from "../tool-types.js";
import { MAX_LISTED_VIOLATIONS, violations } from "./result-schema.js";
import { SETTLED, type TaskRecord } from "./store.js";
import type { CompleteReport, NotifyRequest, OrchestrationPort } from "./types.js";
import { failTask, type Worker, type WorkerHost } from "./worker.js";
import { ownerOf } from "./nesting.js";
import { readResultRef } from "./result-ref.js";

/** Unanswered needs_repair escalations a task may have; one more is refused. */
const MAX_OPEN_ESCALATIONS = 2;

const ESCALATION_REFUSED =
  "escalate refused: this task already has two needs_repair escalations your owner has not answered. " +
  "Make progress independently with what you have, or close out with complete (say what is missing in remaining_limitations).";

// What the worker is told, in the words of Chord's own coordination tools.
const ESCALATED_NEEDS_REPAIR = "The parent-agent coordination chain has been notified. This task will wait for its direct owner's reply.";
const ESCALATED_BLOCKED = "The parent-agent coordination chain has been notified that this task is blocked.";
const OWNER_NOTIFIED = "Owner coordination chain has been notified. Continue working.";

const finished = (result: ToolResult, message: string): ToolResult => ({ ...result, finish: { message } });

export function workerPort(w: Worker, host: WorkerHost): OrchestrationPort {
  const task = () => host.store.tasks.get(w.taskId)!;
  const closedAlready = (t: TaskRecord) => (SETTLED.has(t.state) ? fail(`${t.taskId} is already ${t.state}; nothing more can be reported for it`) : undefined);
  // Reached only when nesting is off for this worker (see nestedPort): it sits at [orchestration].max_depth, or no role is allowed.
  const offMain = () => fail("not available to this worker: it may not delegate (it sits at [orchestration].max_depth, or the rules allow no role), so it cannot cancel either; only the main agent hands off plans");
  return {
    self: w.taskId,
    // A worker's artifacts are the session's, so its owner reads them by the ref it reports.
    artifacts: { sessionDir: host.parent.sessionDir, folder: `subagents/${w.taskId}` },
    roles: () => [],
    delegate: offMain,
    cancel: offMain,
    handoff: offMain,
    complete(report) {
      const t = task();
      return closedAlready(t) ?? complete(t, report, w, host);
    },
    escalate(reason, kind) {
      const t = task();
      const closed = closedAlready(t);
      if (closed) return closed;
      if (kind === "blocked") {
        failTask(t, reason, host, "blocked");
        return finished(ok(ESCALATED_BLOCKED), reason);
      }
      if (t.openEscalations.length >= MAX_OPEN_ESCALATIONS) return fail(ESCALATION_REFUSED);
      const correlationId = `esc-${t.taskId}-${t.escalations + 1}`;
      host.store.escalation(t.taskId, correlationId);
      host.store.send({ to: ownerOf(t), from: t.taskId, type: "request", kind: "needs_repair", correlationId, text: reason });
      host.store.setState(t.taskId, "waiting_main");
      w.coordinated = true;
      host.ownerEmit({ type: "agent_update", taskId: t.taskId, agentType: t.agentType, workerId: t.agentId, state: "waiting_main", what: "message", text: reason });
      host.changed();
      return ok(ESCALATED_NEEDS_REPAIR);
    },
    notify(req) {
      const t = task();
      const bad = ownerUpdateProblem(req);
      if (bad) return fail(bad);
      host.store.send({
        to: ownerOf(t),
        from: t.taskId,
        type: req.messageType ?? "progress",
        text: req.message,
        ...(req.kind ? { kind: req.kind } : {}),
        ...(req.subtype ? { subtype: req.subtype } : {}),
        ...(req.correlationId ? { correlationId: req.correlationId } : {}),
        ...(req.payload ? { payload: req.payload } : {}),
      });
      w.coordinated = true;
      host.ownerEmit({ type: "agent_update", taskId: t.taskId, agentType: t.agentType, workerId: t.agentId, state: t.state, what: "message", text: req.message });
      host.changed();
      return ok(OWNER_NOTIFIED);
    },
  };
}

/** A worker talks only to its owner: a target (and so a reply) is not for its role. */
function ownerUpdateProblem(req: NotifyRequest): string | undefined {
  if (req.targetTaskId !== undefined) return "notify refused: target_task_id is not available in this role: a worker can only notify its owner; omit target_task_id";
  return undefined;
}

function complete(t: TaskRecord, report: CompleteReport, w: Worker, host: WorkerHost): ToolResult {
  let payload = report.result;
  if (report.resultRef) {
    const read = readResultRef(host.parent.sessionDir, report.resultRef);
    if ("error" in read) {
      const reason = `complete's result_ref cannot be read back: ${read.error}`;
      failTask(t, reason, host);
      return finished(fail(`complete refused: ${reason}. The task failed: a retry cannot repair the stored result.`), reason);
    }
    payload = read.value;
  }
  if (t.resultSchema) {
    const found = payload === undefined ? ["result: missing; the task's result_schema asks for one (give result or result_ref)"] : violations(t.resultSchema, payload);
    if (found.length > 0) {
      const listed = found.slice(0, MAX_LISTED_VIOLATIONS).map((v) => `  - ${v}`).join("\n");
      const more = found.length > MAX_LISTED_VIOLATIONS ? `\n  (${found.length - MAX_LISTED_VIOLATIONS} more)` : "";
      if (host.store.violation(t.taskId) === 1) {
        return fail(`complete refused: the result breaks the task's result_schema:\n${listed}${more}\nCorrect it and call complete again; a second violation fails the task.`);
      }
      const reason = `the result broke the task's result_schema a second time:\n${listed}${more}`;
      failTask(t, reason, host);
      return finished(fail(`complete refused: ${reason}\nThe task failed.`), reason);
    }
  }
  host.store.setState(t.taskId, "completed", { reason: report.summary });
  host.store.send({ to: ownerOf(t), from: t.taskId, type: "completion", text: completionText(report, payload) });
  host.ownerEmit({ type: "agent_update", taskId: t.taskId, agentType: t.agentType, workerId: t.agentId, state: "completed", what: "completed", text: report.summary });
  host.changed();
  return finished(ok(`Completed ${t.taskId}: your owner has the report.`), report.summary);
}

/** The report as the owner reads it: the summary, then each list the worker gave. */
function completionText(r: CompleteReport, payload: unknown): string {
  const parts = [r.summary];
  const list = (title: string, items: string[] | undefined) => {
    if (items?.length) parts.push(`${title}:\n${items.map((i) => `- ${i}`).join("\n")}`);
  };
  list("Files changed", r.filesChanged);
  list("Verification run", r.verificationRun);
  list("Remaining limitations", r.remainingLimitations);
  list("Known risks", r.knownRisks);
  list("Follow-up recommended", r.followUpRecommended);
  if (r.artifacts?.length) parts.push(`Artifacts: ${JSON.stringify(r.artifacts)}`);
  if (payload !== undefined) parts.push(`Result: ${JSON.stringify(payload)}`);
  return parts.join("\n\n");
}
