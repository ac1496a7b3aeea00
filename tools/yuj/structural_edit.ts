// `structural_edit`: apply the one-file rewrite a structural_search preview
// showed, only while its preview_sha256 still matches; any difference
// (file, query, replacement, language) or any refusal changes nothing.

import { z } from "zod";
import type { ToolHandler } from "../../core/tool-types.js";

export const structuralEditSchema = z.object({
  path: z.string(),
  language: z.string(),
  query: z.string(),
  replacement: z.string(),
  expected_sha256: z.string(),
});

export const structuralEditTool: ToolHandler<typeof structuralEditSchema> = {
  id: "structural_edit",
  schema: structuralEditSchema,
  readOnly: false,
  async run(args, ctx) {
    const { runEdit } = await import("../lib/structural/edit-run.js");
    return runEdit(args, ctx);
  },
};
