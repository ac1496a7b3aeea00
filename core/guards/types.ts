// Guards on the loop: checks that run around every call after its arguments
// are validated — before the permission gate and the handler (refuse), and
// after the handler (record what happened, add a warning). Guards are handed
// to the core by the app, like the tools they know about.

import type { ToolResult } from "../tool-types.js";
import type { Config } from "../config/schema.js";

export interface GuardCall {
  callId: string;
  /** Exposed tool name. */
  tool: string;
  /** Handler id behind the name. */
  handler: string;
  args: Record<string, unknown>;
}

export interface GuardContext {
  cwd: string;
  config: Config;
  /** Exposed names of the active tools. */
  activeTools: ReadonlySet<string>;
  /** The call's cancellation (Esc): an after-hook that waits should stop waiting. */
  signal?: AbortSignal;
}

export interface Guard {
  readonly name: string;
  /** A model-visible error (starting `ERROR:`) refuses the call before it runs. */
  before?(call: GuardCall, ctx: GuardContext): Promise<string | undefined> | string | undefined;
  /** Sees every result; may return it amended (a warning line) or as it is. */
  after?(call: GuardCall, result: ToolResult, ctx: GuardContext): Promise<ToolResult> | ToolResult;
  /** Tools this guard hides from the next request (plan mode), by exposed name. */
  hiddenTools?(ctx: GuardContext): ReadonlySet<string>;
}
