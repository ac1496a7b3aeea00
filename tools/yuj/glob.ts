// `glob`: files matching a pattern under a scope directory, sorted, relative to
// cwd, one page at a time. Matching follows Python's Path.glob:
// `*` stays inside one path segment, `**` spans any number of directories,
// and dotfiles match like any other name. Path.glob has no brace lists; a
// `{a,b}` list is also tried expanded (models write `*.{ts,tsx}` as for grep's
// glob), so it matches what the literal pattern matches and what each choice does.

import * as path from "node:path";
import { z } from "zod";
import { braceExpand, Minimatch } from "minimatch";
import { walkFiles } from "../lib/walk-files.js";
import { globList } from "../lib/glob-list.js";
import { fail, INSPECTS, ok, type ToolContext, type ToolDisplay, type ToolHandler } from "../../core/tool-types.js";
import { textTarget } from "../../core/permissions/match-target.js";
import { didYouMean, displayPath, echoPath, resolveInCwd } from "../lib/paths.js";
import { searchHidden, yujPaths } from "../lib/file-access.js";
import { paginate, refusalEnvelope, searchEnvelope } from "../lib/search-envelope.js";
import { searchSummary, str } from "../lib/view.js";

export const globSchema = z.object({
  pattern: z.string(),
  path: z.string().optional(),
  page: z.number().int().optional(),
});

const UNSCOPED_HINT = "unscoped recursive glob; provide a path scope (e.g. src/) or narrow the pattern.";
const TOO_BROAD_HINT = "pattern too broad — narrow the scope or use page=2+ for the existing per-page slice.";

/** The pattern as written, then each choice of its brace lists (none when it has none). */
function compile(pattern: string): Minimatch[] {
  // A comma list (`*.py,*.ts`) is a brace list without its braces.
  const choices = braceExpand(globList(pattern)).filter((p) => p !== pattern);
  return [pattern, ...choices].map(literal);
}

function literal(pattern: string): Minimatch {
  return new Minimatch(pattern, {
    dot: true,
    nobrace: true,
    noext: true,
    nonegate: true,
    nocomment: true,
    optimizationLevel: 0,
  });
}

/** How many directory levels the walk needs (for the deepest brace choice); Infinity once `**` appears. */
function walkDepth(pattern: string): number {
  return Math.max(
    ...[pattern, ...braceExpand(globList(pattern))].map((p) => {
      const segments = p.split("/").filter((s) => s !== "");
      return segments.includes("**") ? Infinity : segments.length;
    }),
  );
}


const MAGIC = /[*?[]/;

/** The pattern's literal leading segments when one of them is `..`, and the pattern after them. */
function dotDotLead(pattern: string): { lead?: string; rest: string } {
  const segments = pattern.split("/");
  let n = 0;
  while (n < segments.length - 1 && !MAGIC.test(segments[n]!)) n++;
  const lead = segments.slice(0, n);
  if (!lead.includes("..")) return { rest: pattern };
  return { lead: lead.join("/"), rest: segments.slice(n).join("/") };
}

/**
 * Why an empty answer may not mean "no such files", for the two slips models
 * make most: a pattern that repeats its scope (`path="src"`,
 * `pattern="src/*.py"`: the pattern is matched inside the scope), and a bare
 * name that only exists deeper (`*.py` when the files sit in subfolders).
 */
async function emptyHint(
  ctx: ToolContext,
  rest: string,
  where: { abs: string; cwdReal: string },
  plainScope: boolean,
  hiddenFrom: ((rel: string) => boolean) | undefined,
): Promise<string | undefined> {
  const scopeRel = displayPath(where.cwdReal, where.abs);
  if (plainScope && scopeRel !== "." && rest.startsWith(`${scopeRel}/`)) {
    return `the pattern is matched inside path ${scopeRel}; drop its leading ${scopeRel}/ (pattern="${rest.slice(scopeRel.length + 1)}")`;
  }
  if (rest.includes("/") || rest.includes("**")) return undefined;
  // Every choice of a brace or comma list, one level deeper or more.
  const choices = braceExpand(globList(rest)).map((p) => `**/${p}`);
  const deeper = choices.map(literal);
  const files = await walkFiles(ctx, where.abs, Infinity, { followLinks: true, inside: where.cwdReal });
  const shown = (rel: string) => !hiddenFrom?.(displayPath(where.cwdReal, path.join(where.abs, rel)));
  const found = files.filter((rel) => deeper.some((m) => m.match(rel)) && shown(rel)).length;
  return found ? `no match at this level; ${found} below it: pattern="${choices.length > 1 ? choices.join(",") : `**/${rest}`}" searches subfolders too` : undefined;
}

/** What the view shows: the paths and where the list stands, without the envelope. */
const pathsView = (paths: string[], total: number, page?: number, nextPage?: number, hint?: string): ToolDisplay => ({
  kind: "paths",
  paths,
  total,
  ...(page === undefined ? {} : { page, nextPage: nextPage ?? 0 }),
  ...(hint === undefined ? {} : { hint }),
});

export const globTool: ToolHandler<typeof globSchema> = {
  id: "glob",
  schema: globSchema,
  effects: INSPECTS,
  // A rule fences the pattern: the paths are only known once the walk is done.
  matchValue: (args) => textTarget(args.pattern),
  view: {
    card: "foldable",
    summary: (args, facts) => searchSummary(str(args, "pattern") ?? "", str(args, "path"), undefined, facts.cwd),
  },
  async run(args, ctx) {
    const { pattern } = args;
    const scope = args.path ?? ".";
    const tools = ctx.config.tools;
    if (pattern.trim() === "") return fail("ERROR: glob pattern must be a non-empty string");
    if (pattern.startsWith("/")) {
      return fail(
        `ERROR: glob pattern must be relative (got '${pattern}'); use the \`path\` argument for the search scope`,
      );
    }

    const paged = tools.search_pagination_enabled;
    const unscoped = scope === "" || scope === "." || scope === "./";
    // A whole-project `**/` search still answers, one sorted page at a time,
    // with a hint to narrow it, as the reference now does.
    const unscopedHint = paged && tools.glob_refuse_unscoped_recursive && unscoped && pattern.startsWith("**/");

    // Path.glob treats `./x` and `x` alike; minimatch would not.
    const normalized = pattern.replace(/^(\.\/)+/, "");
    // A literal lead with `..` in it (`folder/../*.py`) is a directory to
    // search from, and stays in the paths as written, as Path.glob keeps it.
    const { lead, rest } = dotDotLead(normalized);
    const base = scope === "" ? "." : scope;
    const where = await resolveInCwd(ctx.services.fs, ctx.cwd, lead ? path.join(base, lead) : base, yujPaths(ctx, "write"));
    if (!where.ok) return fail(lead ? where.error.replace(path.join(base, lead), normalized) : where.error);
    // A scope that does not exist is a mistyped folder, not an empty one: say so, with the folders meant.
    if (!(await ctx.services.fs.stat(where.abs).then(() => true, () => false))) {
      const named = lead ? normalized : echoPath(ctx.cwd, scope, where.cwdReal);
      const meant = await didYouMean(ctx.services.fs, ctx.cwd, lead ? path.join(base, lead) : base, { folders: true });
      return fail(`ERROR: path not found: ${named}${meant}`);
    }
    const hiddenFrom = searchHidden(ctx, where.cwdReal);
    const shownBase = lead ? `${displayPath(where.cwdReal, path.resolve(where.cwdReal, base))}/${lead}`.replace(/^\.\//, "") : undefined;

    const matchers = compile(rest);
    // As Path.glob: a symlinked directory is entered by a `*` (never by `**`),
    // and no link leads out of the project.
    const files = await walkFiles(ctx, where.abs, walkDepth(rest), { followLinks: true, inside: where.cwdReal });
    const matches = files
      .filter((rel) => matchers.some((m) => m.match(rel)))
      .filter((rel) => !hiddenFrom?.(displayPath(where.cwdReal, path.join(where.abs, rel))))
      .map((rel) => (shownBase ? `${shownBase}/${rel}` : displayPath(where.cwdReal, path.join(where.abs, rel))))
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

    if (!paged) return ok(matches.length ? matches.join("\n") : "No files found.", pathsView(matches, matches.length));

    const limit = tools.glob_max_listed_paths;
    const page = paginate(matches, args.page, tools.glob_max_matches_per_page);
    const hint = unscopedHint
      ? UNSCOPED_HINT
      : matches.length === 0
        ? await emptyHint(ctx, rest, where, lead === undefined, hiddenFrom)
        : undefined;
    // Later pages stay reachable: the hint itself points the model at page=2+.
    if (!hint && limit > 0 && matches.length > limit && page.page === 1) {
      return ok(refusalEnvelope("glob", pattern, scope, matches.length, TOO_BROAD_HINT), pathsView([], matches.length, 1, 0, TOO_BROAD_HINT));
    }
    return ok(
      searchEnvelope(
        {
          tool: "glob",
          total: matches.length,
          shown: page.items.length,
          page: page.page,
          nextPage: page.nextPage,
          pattern,
          scope,
          ...(hint ? { hint } : {}),
        },
        page.items,
      ),
      pathsView(page.items, matches.length, page.page, page.nextPage, hint),
    );
  },
};
