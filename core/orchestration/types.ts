// What the orchestration tools (delegate, complete, escalate, notify,
// cancel, handoff) ask of the session's delegation runtime. Each agent's
// tools get a port bound to that agent: the main agent's, or one worker's.

import type { ToolResult } from "../tool-types.js";
import type { WriteScope } from "./scope.js";

export interface DelegateRequest {
  description: string;
  agentType: string;
  scope: WriteScope;
  /** The caller said the work is read-only (expected_write_scope.read_only). */
  readOnly?: boolean;
  resultSchema?: unknown;
  planTaskRef?: string;
  semanticTaskKey?: string;
  /** The delegate call asking: the owner's card for it follows the task. */
  callId?: string;
}

export interface CompleteReport {
  summary: string;
  filesChanged?: string[];
  verificationRun?: string[];
  remainingLimitations?: string[];
  knownRisks?: string[];
  followUpRecommended?: string[];
  artifacts?: unknown[];
  result?: unknown;
  resultRef?: { id: string; result_type: string; rel_path: string; sha256: string; size_bytes: number };
}

export interface NotifyRequest {
  message: string;
  targetTaskId?: string;
  kind?: string;
  messageType?: "progress" | "notice" | "response";
  subtype?: string;
  correlationId?: string;
  payload?: Record<string, unknown>;
}

export interface OrchestrationPort {
  /** "main", or the calling worker's task id. */
  readonly self: string;
  /**
   * Where the calling agent's session artifacts go: the session's own
   * folder (every agent of a session reads the same artifacts/ tree) and the
   * folder under artifacts/ its named artifacts are written to ("" for the
   * main agent, `subagents/<task_id>` for a worker).
   */
  readonly artifacts: { sessionDir: string; folder: string };
  /** Roles delegate may start: subagent-mode agents the rules do not deny. */
  roles(): string[];
  delegate(req: DelegateRequest): ToolResult;
  complete(report: CompleteReport): ToolResult;
  escalate(reason: string, kind: "needs_repair" | "blocked"): ToolResult;
  notify(req: NotifyRequest): ToolResult;
  cancel(targetTaskId: string, reason?: string): ToolResult;
  handoff(planPath: string): ToolResult;
}
