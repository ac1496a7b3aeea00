// `terminal_start`: open the session's one interactive terminal (a REPL, a
// debugger, anything that insists on a TTY) and return its id with the first
// output. The manager owns the process; this file only shapes the result, and
// terminal_io shares that shape so both tools read the same way.

import { z } from "zod";
import { commandTarget } from "../../core/permissions/match-target.js";
import { EXECUTES, fail, ok, type ToolContext, type ToolHandler, type ToolResult } from "../../core/tool-types.js";
import { commandPreview } from "../lib/previews.js";
import { commandSummary, str } from "../lib/view.js";
import { statusText, type TerminalOutcome } from "../../core/jobs/terminal.js";
import { filterOutput } from "../lib/output-filters.js";

export const terminalStartSchema = z.object({
  cmd: z.string(),
});

export const TERMINALS_UNAVAILABLE = "ERROR: interactive terminals are not available in this session";

/**
 * terminal_id: t1
 * status: running
 * --- output ---
 * <new output, or "(no new output)">
 * [yuj: what was undone in the project's repositories, when anything was]
 */
export function terminalResult(outcome: TerminalOutcome, ctx: ToolContext): ToolResult {
  if (!outcome.ok) return fail(`ERROR: ${outcome.error}`);
  const { read } = outcome;
  const output = filterOutput(read.text, ctx.config.tools).replace(/\n+$/, "");
  const body = output.trim() === "" ? "(no new output)" : output;
  const notice = read.repoNotice ? `\n[yuj: ${read.repoNotice}]` : "";
  return ok(`terminal_id: ${read.terminalId}\nstatus: ${statusText(read.status)}\n--- output ---\n${body}${notice}`);
}

export const terminalStartTool: ToolHandler<typeof terminalStartSchema> = {
  id: "terminal_start",
  schema: terminalStartSchema,
  effects: EXECUTES,
  matchValue: (args) => commandTarget(args.cmd),
  view: { card: "foldable", summary: (args) => commandSummary(str(args, "cmd")), preview: (args) => commandPreview(str(args, "cmd")) },
  async run(args, ctx) {
    if (!ctx.terminals) return fail(TERMINALS_UNAVAILABLE);
    if (args.cmd.trim() === "") return fail("ERROR: cmd is empty");
    return terminalResult(await ctx.terminals.start(args.cmd, ctx.cwd), ctx);
  },
};
