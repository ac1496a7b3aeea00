// Chord `glob`: files matching one or more glob patterns under a
// base directory (default the working directory), relative to the base for
// matching and to the working directory for display, sorted. `**` spans
// directories, braces expand, dotfiles match; `.git` and the other version
// control, cache and build folders Chord leaves out are not walked, files
// and folders the ignore files (.gitignore, .ignore, .rgignore) name are not
// listed, and
// symlinked directories are not entered. Caps: 250 results, 16 KiB; no paging
// (a capped list is saved whole in the session and named). A pattern that is
// not glob syntax (an unclosed `[`, mostly a regex) is an error.

import * as os from "node:os";
import * as path from "node:path";
import { Minimatch } from "minimatch";
import { walkFiles } from "../lib/walk-files.js";
import { SKIPPED_DIRS } from "../lib/chord/skipped-files.js";
import { IgnoreRules } from "../lib/ignore-rules.js";
import { z } from "zod";
import { textTarget } from "../../core/permissions/match-target.js";
import { fail, INSPECTS, ok, type ToolHandler } from "../../core/tool-types.js";
import { displayPath, resolveInCwd } from "../lib/paths.js";
import { searchHidden, yujPaths } from "../lib/file-access.js";
import { plain } from "../lib/chord/observations.js";
import { listArg, searchSummary, str } from "../lib/view.js";
import { saveFullOutput } from "../lib/saved-output.js";

export const chordGlobSchema = z.object({
  patterns: z.union([z.string(), z.array(z.string()).min(1)]),
  path: z.string().optional(),
});

export const GLOB_MAX_RESULTS = 250;
const CHORD_SKIPPED_DIRS: ReadonlySet<string> = new Set(SKIPPED_DIRS);
export const GLOB_MAX_BYTES = 16 * 1024;
export const NO_FILES = "No files matched the pattern.";
const capFooter = (n: number, saved: string | undefined) =>
  `\n\n(showing first ${n} results within 16 KiB; ${saved ? `full results saved to ${saved}; ` : ""}refine pattern/path to narrow results)`;

/**
 * Why a pattern is not a glob, or undefined: an unclosed `[` class or `{`
 * group, or a trailing backslash. These are mostly regexes sent as globs.
 */
export function globSyntaxError(pattern: string): string | undefined {
  let braces = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") {
      if (i === pattern.length - 1) return "trailing backslash";
      i++;
    } else if (c === "[") {
      const close = pattern.indexOf("]", i + 2);
      if (close < 0) return "unclosed [";
      i = close;
    } else if (c === "{") braces++;
    else if (c === "}") braces--;
    if (braces < 0) return "unmatched }";
  }
  return braces > 0 ? "unclosed {" : undefined;
}


export const chordGlobTool: ToolHandler<typeof chordGlobSchema> = {
  id: "chord_glob",
  schema: chordGlobSchema,
  effects: INSPECTS,
  // A rule fences the first pattern: the paths are only known once the walk is done.
  matchValue: (args) => textTarget(listArg(args.patterns)[0] ?? ""),
  view: {
    card: "foldable",
    summary: (args, facts) => searchSummary(listArg(args.patterns).join(", "), str(args, "path"), undefined, facts.cwd),
  },
  async run(args, ctx) {
    const patterns = (typeof args.patterns === "string" ? [args.patterns] : args.patterns)
      .map((p) => p.trim())
      .filter((p) => p !== "")
      .map((p) => p.replace(/^(\.\/)+/, ""));
    if (patterns.length === 0) return fail("patterns must contain at least one non-empty glob pattern");
    const absolute = patterns.find((p) => p.startsWith("/"));
    if (absolute) return fail(`glob patterns are relative to path; got absolute pattern ${absolute} (pass the directory as path)`);
    for (const p of patterns) {
      const bad = globSyntaxError(p);
      if (bad) return fail(`glob error: invalid pattern ${JSON.stringify(p)} (${bad}); patterns use glob syntax like **/*.go, not regex syntax`);
    }

    const base = args.path?.trim() ? args.path : ".";
    // `~` is the home directory, as for Chord's file tools; the base must still lie in the project.
    const expanded = base === "~" || base.startsWith("~/") ? path.join(os.homedir(), base.slice(1)) : base;
    const where = await resolveInCwd(ctx.services.fs, ctx.cwd, expanded, yujPaths(ctx, "write"));
    if (!where.ok) return fail(plain(where.error));
    const hiddenFrom = searchHidden(ctx, where.cwdReal);
    const st = await ctx.services.fs.stat(where.abs).catch(() => undefined);
    if (!st) return fail(`path not found: ${base}`);
    if (!st.isDirectory()) return fail(`path is not a directory: ${base}`);

    const matchers = patterns.map(
      (p) => new Minimatch(p, { dot: true, noext: true, nonegate: true, nocomment: true, optimizationLevel: 0 }),
    );
    const depth = patterns.some((p) => p.includes("**"))
      ? Infinity
      : Math.max(...matchers.flatMap((m) => m.set.map((parts) => parts.length)));
    // A .gitignore hides files from glob as from grep, in a git repository or not.
    const ignore = await IgnoreRules.forRoot(ctx.services.fs, where.abs, { gitignoreAnywhere: true });
    const files = await walkFiles(ctx, where.abs, depth, { skipDirs: CHORD_SKIPPED_DIRS, ignore });
    // Matches are listed relative to path, as Chord's own parameter text says;
    // path rules judge them by their place in the project.
    const matches = files
      .filter((rel) => matchers.some((m) => m.match(rel)))
      .filter((rel) => !hiddenFrom?.(displayPath(where.cwdReal, path.join(where.abs, rel))))
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    if (matches.length === 0) return ok(NO_FILES, { kind: "paths", paths: [], total: 0, hint: NO_FILES });

    const out: string[] = [];
    let bytes = 0;
    for (const m of matches) {
      const cost = Buffer.byteLength(m, "utf8") + 1;
      if (out.length === GLOB_MAX_RESULTS || bytes + cost > GLOB_MAX_BYTES) break;
      out.push(m);
      bytes += cost;
    }
    if (out.length === matches.length) return ok(out.join("\n"), { kind: "paths", paths: out, total: out.length });
    // The whole list is kept in the session, where read and grep can open it.
    const saved = await saveFullOutput(ctx, "glob-results", matches.join("\n") + "\n").catch(() => undefined);
    return ok(out.join("\n") + capFooter(out.length, saved), {
      kind: "paths",
      paths: out,
      total: matches.length,
      hint: `showing ${out.length} of ${matches.length}${saved ? `; all saved to ${saved}` : ""}`,
    });
  },
};
