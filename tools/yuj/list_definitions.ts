// `list_definitions`: with a path alone, the outline of one Python file;
// with repo_wide=true, exact definitions and references of a symbol across
// the repository in every shipped language. Source files are parsed, never
// run; tree-sitter loads on the first call.

import { z } from "zod";
import { pathTarget } from "../../core/permissions/match-target.js";
import { INSPECTS, type ToolHandler } from "../../core/tool-types.js";
import { shownPath, str } from "../lib/view.js";

export const listDefinitionsSchema = z.object({
  path: z.string(),
  symbol: z.string().optional(),
  kind: z.enum(["def", "ref"]).optional(),
  repo_wide: z.boolean().optional(),
  page: z.number().int().optional(),
});

export const listDefinitionsTool: ToolHandler<typeof listDefinitionsSchema> = {
  id: "list_definitions",
  schema: listDefinitionsSchema,
  effects: INSPECTS,
  // Rules match the path it looks in; it is no read of the file (it shows an outline,
  // not the file), so the stale-file guard does not count it as one.
  matchValue: (args) => pathTarget([args.path]),
  view: {
    card: "foldable",
    // `src/ def parse`: the scope, then what was asked for.
    summary: (args, facts) =>
      [shownPath(str(args, "path") ?? "", facts.cwd), str(args, "kind"), str(args, "symbol")].filter(Boolean).join(" "),
  },
  async run(args, ctx) {
    if (args.repo_wide === true) {
      const { runRepoDefinitions } = await import("../lib/structural/repo-definitions-run.js");
      return runRepoDefinitions(args, ctx);
    }
    const { runOutline, definitionsError } = await import("../lib/structural/outline-run.js");
    if (args.symbol !== undefined || args.kind !== undefined || args.page !== undefined) {
      return definitionsError(
        "needs_repo_wide",
        args.path,
        "ERROR: symbol, kind and page belong to the repository-wide search: pass repo_wide=true with them, or path alone for one Python file's outline",
      );
    }
    return runOutline(args.path, ctx);
  },
};
