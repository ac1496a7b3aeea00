// `structural_search`: find syntax nodes with a Tree-sitter query in one file
// or a directory (python, javascript, typescript, tsx, go, rust, java); with
// a replacement, preview a one-file rewrite for structural_edit. The engine
// (and tree-sitter with it) loads on the first call, not at start-up.

import { z } from "zod";
import type { ToolHandler } from "../../core/tool-types.js";

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
  readOnly: true,
  async run(args, ctx) {
    const { runSearch } = await import("../lib/structural/search-run.js");
    return runSearch(args, ctx);
  },
};
