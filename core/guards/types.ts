// Guards on the loop: checks that run around every call after its arguments
// are validated — before the permission gate and the handler (refuse), and
// after the handler (record what happened, add a warning). Guards are handed
// to the core by the app, like the tools they know about. They see what a
// call's tool says of it (effects, touches, role), never its name's meaning.

import type { ToolEffect, ToolHandler, ToolResult, ToolRole, Touch } from "../tool-types.js";
import type { Config } from "../config/schema.js";

export interface GuardCall {
  callId: string;
  /** Exposed tool name (for messages). */
  tool: string;
  args: Record<string, unknown>;
  /** What this call may do (its tool's effects, narrowed by the call). */
  effects: ReadonlySet<ToolEffect>;
  role?: ToolRole;
  /** The paths it reads or changes, as the model wrote them. */
  touches: readonly Touch[];
  /** Whether it checked the files as they now are, given its result. */
  verifies(result: ToolResult): boolean;
}

export interface GuardContext {
  cwd: string;
  config: Config;
  /** Exposed names of the active tools. */
  activeTools: ReadonlySet<string>;
  /** The call's cancellation (Esc): an after-hook that waits should stop waiting. */
  signal?: AbortSignal;
  /** The active tools' handlers, by exposed name (what each may do before any call). */
  handlers: ReadonlyMap<string, ToolHandler>;
  /** Code mode in required plan mode: the native tools offered only while planning (ActiveToolset.planPhaseOnly). */
  planPhaseOnly?: ReadonlySet<string>;
}

export interface Guard {
  readonly name: string;
  /** A model-visible error (starting `ERROR:`) refuses the call before it runs. */
  before?(call: GuardCall, ctx: GuardContext): Promise<string | undefined> | string | undefined;
  /** Sees every result; may return it amended (a warning line) or as it is. */
  after?(call: GuardCall, result: ToolResult, ctx: GuardContext): Promise<ToolResult> | ToolResult;
  /** Asked before each model request: a reason ends the run there (plan mode out of turns). */
  stopRun?(): string | undefined;
  /** Tools this guard hides from the next request (plan mode), by exposed name. */
  hiddenTools?(ctx: GuardContext): ReadonlySet<string>;
  /** Shapes the top-level session's own requests (deferred loading): child sessions run without it. */
  readonly topLevelOnly?: boolean;
}

/** Touch kinds that change a file. */
export const CHANGES: ReadonlySet<Touch["as"]> = new Set(["writes", "updates", "creates", "deletes"]);
