// Yuj `exec_cell` (code mode): runs a Python program whose functions call
// yuj's own tools (core/cells/). What the program prints is the result; the
// calls it made show nested under its card.

import { z } from "zod";
import { EXECUTES, fail, ok, type CellOutcome, type ToolHandler, type ToolResult } from "../../core/tool-types.js";
import { NO_CELLS } from "../lib/cells.js";
import { str } from "../lib/view.js";

export const execCellSchema = z.object({
  source: z.string(),
});

export const execCellTool: ToolHandler<typeof execCellSchema> = {
  id: "exec_cell",
  schema: execCellSchema,
  effects: EXECUTES,
  view: {
    card: "foldable",
    summary: (args) => firstLine(str(args, "source") ?? ""),
  },
  async run(args, ctx) {
    if (!ctx.cells) return fail(NO_CELLS);
    if (!args.source.trim()) return fail("ERROR: source is empty; send a Python program that prints its result");
    const cell = await ctx.cells.run(args.source);
    if (cell.paused) return { ok: false, modelText: "", approval: cell.paused };
    return resultOf(cell, ctx.config.tools.code_cell_timeout);
  },
};

function resultOf(cell: CellOutcome, timeoutS: number): ToolResult {
  const printed = cell.output.trimEnd();
  const display = (text: string) => ({ kind: "text" as const, text });
  switch (cell.status) {
    case "refused":
      return fail(printed);
    case "cancelled":
      return fail(join(printed, "ERROR: cell cancelled"));
    case "timed_out": {
      const text = join(printed, `ERROR: cell timed out after ${timeoutS} seconds ([tools].code_cell_timeout); it and every process it started were stopped`);
      return fail(text, display(text));
    }
    case "exited": {
      if (cell.exitCode === 0) {
        const text = printed || "(the cell printed nothing: print the text you want back)";
        return ok(text, display(text));
      }
      const text = join(printed, `[cell exit code: ${cell.exitCode ?? "killed"}]`);
      return fail(text, display(text));
    }
  }
}

const join = (a: string, b: string) => (a ? `${a}\n${b}` : b);

function firstLine(source: string): string {
  const line = source.split("\n").find((l) => l.trim() !== "" && !l.trim().startsWith("#")) ?? "";
  return line.trim().slice(0, 80);
}
