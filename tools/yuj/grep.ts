// `grep`: regex search over file contents, `path:line:content` sorted by
// (path, line), one page at a time. The grep engine
// (tools/lib/grep/) runs ripgrep, or without it a pure-JS walk that prints the
// same lines.

import * as path from "node:path";
import { z } from "zod";
import { pathTarget } from "../../core/permissions/match-target.js";
import { fail, INSPECTS, ok, type ToolDisplay, type ToolHandler } from "../../core/tool-types.js";
import { searchWithRg } from "../lib/grep/engine.js";
import { grepFallback } from "../lib/grep/fallback.js";
import { LINE_FLAGS, LinePage, pageNumber } from "../lib/grep/lines.js";
import { findRipgrep } from "../lib/grep/ripgrep.js";
import { resolveInCwd } from "../lib/paths.js";
import { searchHidden, yujPaths } from "../lib/file-access.js";
import { didYouMean } from "../lib/path-suggest.js";
import { searchSummary, str } from "../lib/view.js";
import { searchEnvelope } from "../lib/search-envelope.js";

export const grepSchema = z.object({
  pattern: z.string(),
  path: z.string().optional(),
  glob: z.string().optional(),
  page: z.number().int().optional(),
});

/**
 * The reference prints its lines as `rg PATTERN .` does: a scope given as `.`
 * (the default) or `./dir` keeps its `./` in front of every path
 * (`./a.py:1:needle`); any other scope prints the path from the project root.
 */
const dotPrefix = (scope: string): string => (scope === "" || scope === "." || scope.startsWith("./") ? "./" : "");

/** rg's stderr as one line: the first, plus the `error:` detail of a regex error. */
function rgError(stderr: string, cwdReal: string): string {
  const lines = stderr.split("\n").map((l) => l.trimEnd());
  let first = (lines.find((l) => l.trim()) ?? "unknown error").replace(/^rg: /, "");
  const detail = lines.find((l) => l.startsWith("error: "));
  if (first.endsWith(":") && detail) first += ` ${detail.slice("error: ".length)}`;
  return first.split(`${cwdReal}${path.sep}`).join("");
}

export const grepTool: ToolHandler<typeof grepSchema> = {
  id: "grep",
  schema: grepSchema,
  effects: INSPECTS,
  // Yuj file tools are fenced by repository paths, and a regex is no path: a
  // rule fences the search path (and so a directory).
  matchValue: (args) => pathTarget([args.path ?? "."]),
  view: {
    card: "foldable",
    summary: (args, facts) => searchSummary(str(args, "pattern") ?? "", str(args, "path"), str(args, "glob"), facts.cwd),
  },
  async run(args, ctx) {
    const scope = args.path ?? ".";
    const tools = ctx.config.tools;
    const { fs } = ctx.services;
    // The session's saved output (a cut result, a command's log) can be searched too; hidden paths cannot.
    const where = await resolveInCwd(fs, ctx.cwd, scope === "" ? "." : scope, yujPaths(ctx, "read"));
    if (!where.ok) return fail(where.error);
    const exists = await fs.stat(where.abs).then(
      () => true,
      () => false,
    );
    // Checked here so both backends report a missing scope the same way.
    // …and with the existing paths the model most likely meant.
    if (!exists) return fail(`ERROR: grep failed: ${scope}: No such file or directory (os error 2)${await didYouMean(fs, ctx.cwd, scope, { folders: true })}`);

    const page = tools.search_pagination_enabled ? pageNumber(args.page) : 1;
    const matches = new LinePage(page, tools.search_pagination_enabled ? tools.grep_max_matches_per_page : undefined, searchHidden(ctx, where.cwdReal));
    const rg = await findRipgrep(ctx);
    if (rg) {
      const prefix = `${where.cwdReal}${path.sep}`;
      const res = await searchWithRg(ctx, {
        rg,
        cwd: ctx.cwd,
        target: where.abs,
        pattern: args.pattern,
        format: LINE_FLAGS,
        ...(args.glob ? { globs: [args.glob] } : {}),
        timeoutMs: tools.grep_timeout * 1000,
        onLines: (batch) => matches.addText(batch.toString("utf8"), prefix),
      });
      if (res.kind === "timeout") return fail(`ERROR: grep timed out after ${tools.grep_timeout}s`);
      if (res.kind === "cancelled") return fail("ERROR: grep cancelled");
      if (res.kind === "spawn_error") return fail(`ERROR: grep failed: ${res.message}`);
      if (res.code === null || res.code >= 2) {
        return fail(`ERROR: grep failed: ${rgError(res.stderr, where.cwdReal)}`);
      }
    } else {
      const res = await grepFallback({
        fs,
        pattern: args.pattern,
        glob: args.glob,
        scopeAbs: where.abs,
        cwdReal: where.cwdReal,
        signal: ctx.signal,
        onMatch: (line) => matches.addLine(line, 0, line.length),
      });
      if (!res.ok) return fail(`ERROR: grep failed: ${res.error}`);
      if (ctx.signal.aborted) return fail("ERROR: grep cancelled");
    }

    const found = matches.result();
    const lead = dotPrefix(scope);
    const lines = lead ? found.lines.map((line) => lead + line) : found.lines;
    const paged = tools.search_pagination_enabled;
    const view: ToolDisplay = {
      kind: "matches",
      matches: found.matches,
      total: found.total,
      ...(paged ? { page: found.page, nextPage: found.nextPage } : {}),
    };
    if (!paged) return ok(lines.length ? lines.join("\n") : "No matches found.", view);
    return ok(
      searchEnvelope(
        {
          tool: "grep",
          total: found.total,
          shown: lines.length,
          page: found.page,
          nextPage: found.nextPage,
          pattern: args.pattern,
          scope: args.glob ? `${scope} glob=${args.glob}` : scope,
        },
        lines,
      ),
      view,
    );
  },
};
