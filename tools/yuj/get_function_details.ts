// Yuj `get_function_details` (code mode): the named cell functions'
// descriptions and parameter schemas, as JSON, so the model asks only for
// the schemas it needs.

import { z } from "zod";
import { fail, INSPECTS, ok, type ToolHandler } from "../../core/tool-types.js";
import { NO_CELLS } from "../lib/cells.js";

export const getFunctionDetailsSchema = z.object({
  names: z.array(z.string()),
});

export const getFunctionDetailsTool: ToolHandler<typeof getFunctionDetailsSchema> = {
  id: "get_function_details",
  schema: getFunctionDetailsSchema,
  effects: INSPECTS,
  view: {
    card: "foldable",
    summary: (args) => (Array.isArray(args.names) ? args.names.filter((n) => typeof n === "string").join(", ") : ""),
  },
  async run(args, ctx) {
    if (!ctx.cells) return fail(NO_CELLS);
    const known = new Map(ctx.cells.functions.map((f) => [f.name, f]));
    const unknown = args.names.filter((n) => !known.has(n));
    if (unknown.length) {
      return fail(`ERROR: no cell function ${unknown.map((n) => JSON.stringify(n)).join(", ")}; the functions are: ${[...known.keys()].join(", ")}`);
    }
    const wanted = args.names.length ? args.names : [...known.keys()];
    const details = wanted.map((n) => known.get(n)!);
    return ok(JSON.stringify(details, null, 2));
  },
};
