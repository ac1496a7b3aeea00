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
import { echoPath, resolveInCwd } from "../lib/paths.js";
import { globList } from "../lib/glob-list.js";
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
 * The reference searches the scope by its absolute path and then writes the
 * cwd as `.`: every path of a folder's matches starts `./` (`./a.py:1:x`,
 * `./src/a.py:1:x`, whatever the scope's spelling), and a file searched alone
 * is not named at all (`1:x`), as ripgrep prints one file.
 */
const DOT = "./";

/** A one-file search's line without the file: `N:text`, or the bare note rg prints about the file. */
function withoutFile(line: string, match: { path: string; line?: number; text?: string }): string {
  if (match.line !== undefined) return `${match.line}:${match.text ?? ""}`;
  const note = /^.*?: (binary file matches .*)$/.exec(line);
  return note ? note[1]! : line;
}

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
    const info = await fs.stat(where.abs).then(
      (st) => st,
      () => undefined,
    );
    // Checked here so both backends report a missing scope the same way.
    // …and with the existing paths the model most likely meant.
    if (!info) return fail(`ERROR: grep failed: ${echoPath(ctx.cwd, scope, where.cwdReal)}: No such file or directory (os error 2)${await didYouMean(fs, ctx.cwd, scope, { folders: true })}`);

    const page = tools.search_pagination_enabled ? pageNumber(args.page) : 1;
    const oneFile = !info.isDirectory();
    const freshPage = () => new LinePage(page, tools.search_pagination_enabled ? tools.grep_max_matches_per_page : undefined, searchHidden(ctx, where.cwdReal), oneFile ? "" : DOT);
    let matches = freshPage();
    const rg = await findRipgrep(ctx);
    if (rg) {
      const prefix = `${where.cwdReal}${path.sep}`;
      const search = (format: readonly string[]) => {
        matches = freshPage();
        return searchWithRg(ctx, {
          rg,
          cwd: ctx.cwd,
          target: where.abs,
          pattern: args.pattern,
          format,
          ...(args.glob ? { globs: [globList(args.glob)] } : {}),
          timeoutMs: tools.grep_timeout * 1000,
          onLines: (batch) => matches.addText(batch.toString("utf8"), prefix),
        });
      };
      let res = await search(LINE_FLAGS);
      // Look-around and backreferences (`foo(?=bar)`, `(a)\1`) need PCRE2, as
      // rg itself suggests; the search runs again with it when rg has it.
      if (res.kind === "done" && res.code === 2 && res.stderr.includes("--pcre2")) {
        const again = await search([...LINE_FLAGS, "--pcre2"]);
        if (again.kind !== "done" || (again.code !== null && again.code < 2)) res = again;
      }
      if (res.kind === "timeout") return fail(`ERROR: grep timed out after ${tools.grep_timeout}s`);
      if (res.kind === "cancelled") return fail("ERROR: grep cancelled");
      if (res.kind === "spawn_error") return fail(`ERROR: grep failed: ${res.message}`);
      if (res.code === null || res.code >= 2) {
        // A pattern spanning lines can never match: grep matches one line at a time.
        const multiline = args.pattern.includes("\n") ? "; grep matches within one line, so search for one line of the text" : "";
        return fail(`ERROR: grep failed: ${rgError(res.stderr, where.cwdReal)}${multiline}`);
      }
    } else {
      const res = await grepFallback({
        fs,
        pattern: args.pattern,
        glob: args.glob ? globList(args.glob) : args.glob,
        scopeAbs: where.abs,
        cwdReal: where.cwdReal,
        signal: ctx.signal,
        onMatch: (line) => (path.isAbsolute(line) ? matches.addLine(line, 0, line.length) : matches.addRelative(line)),
      });
      if (!res.ok) return fail(`ERROR: grep failed: ${res.error}`);
      if (ctx.signal.aborted) return fail("ERROR: grep cancelled");
    }

    const found = matches.result();
    const lines = oneFile ? found.lines.map((line, i) => withoutFile(line, found.matches[i]!)) : found.lines;
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
