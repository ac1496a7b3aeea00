// Yuj `list_functions` (code mode): the functions a cell can call, each with
// the first sentence of its description.

import { z } from "zod";
import { fail, INSPECTS, ok, type ToolHandler } from "../../core/tool-types.js";
import { NO_CELLS } from "../lib/cells.js";

export const listFunctionsSchema = z.object({});

export const listFunctionsTool: ToolHandler<typeof listFunctionsSchema> = {
  id: "list_functions",
  schema: listFunctionsSchema,
  effects: INSPECTS,
  view: { card: "foldable" },
  async run(_args, ctx) {
    if (!ctx.cells) return fail(NO_CELLS);
    const lines = ctx.cells.functions.map((f) => `${f.name}: ${firstSentence(f.description)}`);
    return ok(`${lines.join("\n")}\nget_function_details(names) gives their parameters.`);
  },
};

function firstSentence(text: string): string {
  const line = text.split("\n")[0] ?? "";
  const end = line.search(/\.(\s|$)/);
  return end < 0 ? line : line.slice(0, end + 1);
}
