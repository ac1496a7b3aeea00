// `structural_edit`: apply the one-file rewrite a structural_search preview
// showed, only while its preview_sha256 still matches; any difference
// (file, query, replacement, language) or any refusal changes nothing.

import { z } from "zod";
import { MUTATES, type ToolHandler } from "../../core/tool-types.js";
import { shownPath, str } from "../lib/view.js";

const MAX_DETAIL_CHARS = 4000;

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
  effects: MUTATES,
  touchKinds: new Set(["updates"]),
  touches: (args) => [{ path: args.path, as: "updates" }],
  permissions: { family: "edit" },
  view: {
    card: "expanded",
    summary: (args, facts) => shownPath(str(args, "path") ?? "", facts.cwd),
    // What it looks for and what it puts in its place.
    describe: (args, facts) => {
      const detail = `query:\n${str(args, "query") ?? ""}\nreplacement:\n${str(args, "replacement") ?? ""}`;
      return {
        summary: `${facts.name}: ${str(args, "path") ?? "(no path)"}`,
        detail: detail.length > MAX_DETAIL_CHARS ? `${detail.slice(0, MAX_DETAIL_CHARS)}\n… (${detail.length - MAX_DETAIL_CHARS} more chars)` : detail,
      };
    },
  },
  async run(args, ctx) {
    const { runEdit } = await import("../lib/structural/edit-run.js");
    return runEdit(args, ctx);
  },
};
