// `terminal_io`: one bounded exchange with the interactive terminal — send
// input (or nothing, to just look), wait for the output to settle, and return
// only what is new; or stop the process with terminate=true.

import { z } from "zod";
import { ANY, commandTarget } from "../../core/permissions/match-target.js";
import { EXECUTES, fail, type ToolHandler } from "../../core/tool-types.js";
import { str } from "../lib/view.js";
import { TERMINALS_UNAVAILABLE, terminalResult } from "./terminal_start.js";

export const terminalIoSchema = z.object({
  terminal_id: z.string(),
  input: z.string().optional(),
  append_newline: z.boolean().optional(),
  timeout_s: z.number().optional(),
  terminate: z.boolean().optional(),
});

const MAX_TIMEOUT_S = 30;

export const terminalIoTool: ToolHandler<typeof terminalIoSchema> = {
  id: "terminal_io",
  schema: terminalIoSchema,
  effects: EXECUTES,
  // What it types is what a rule fences; a call that only reads has nothing to fence.
  matchValue: (args) => (args.input === undefined ? ANY : commandTarget(args.input)),
  view: { card: "foldable", summary: (args) => str(args, "terminal_id") ?? "" },
  async run(args, ctx) {
    if (!ctx.terminals) return fail(TERMINALS_UNAVAILABLE);
    // Clamped rather than rejected: a too-long wait is a harmless mistake.
    const fallback = ctx.config.tools.terminal_read_timeout;
    const seconds = Math.min(Math.max(args.timeout_s ?? fallback, 0), MAX_TIMEOUT_S);
    const request = {
      timeoutMs: (Number.isFinite(seconds) ? seconds : Math.min(fallback, MAX_TIMEOUT_S)) * 1000,
      signal: ctx.signal,
      ...(args.input !== undefined && { input: args.input }),
      ...(args.append_newline !== undefined && { appendNewline: args.append_newline }),
      ...(args.terminate !== undefined && { terminate: args.terminate }),
    };
    return terminalResult(await ctx.terminals.io(args.terminal_id, request), ctx);
  },
};
