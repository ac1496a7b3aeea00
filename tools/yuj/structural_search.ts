// `structural_search`: find syntax nodes with a Tree-sitter query in one file
// or a directory (python, javascript, typescript, tsx, go, rust, java); with
// a replacement, preview a one-file rewrite for structural_edit. The engine
// (and tree-sitter with it) loads on the first call, not at start-up.

import { z } from "zod";
import { pathTarget } from "../../core/permissions/match-target.js";
import { INSPECTS, type ToolHandler } from "../../core/tool-types.js";
import { searchSummary, str } from "../lib/view.js";

export const structuralSearchSchema = z.object({
  path: z.string(),
  language: z.string(),
  query: z.string(),
  glob: z.string().optional(),
  replacement: z.string().optional(),
  page: z.number().int().optional(),
});

export const structuralSearchTool: ToolHandler<typeof structuralSearchSchema> = {
  id: "structural_search",
  schema: structuralSearchSchema,
  // A preview writes nothing to the repository (only its record in the session folder).
  effects: INSPECTS,
  // Rules match the path it looks in; it is no read of the file (it shows match snippets,
  // not the file), so the stale-file guard does not count it as one.
  matchValue: (args) => pathTarget([args.path]),
  view: {
    card: "foldable",
    summary: (args, facts) => searchSummary(str(args, "query") ?? "", str(args, "path"), str(args, "glob"), facts.cwd),
  },
  async run(args, ctx) {
    const { runSearch } = await import("../lib/structural/search-run.js");
    return runSearch(args, ctx);
  },
};
