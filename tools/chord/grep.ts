// Chord `grep`: regex content search over one or more roots with
// `includes` glob filters and optional context. Matches print as
// `path:line:text`, context lines as `| path-line-text`; nearby matches share
// one merged window. Caps: 120 matches and 12 KiB of output; context counts
// against the bytes only (room stays reserved for the matches still to come),
// and once it no longer fits later matches are listed bare (chord-output.ts).
// An invalid regex is searched as literal text, with a note; `patterns` takes
// several regexes, each searched as its own (tools/lib/grep/patterns.ts). The grep engine
// (tools/lib/grep/) runs ripgrep, so ignore files (a .gitignore also outside
// a git repository) and binary files are treated as rg treats them; dot folders are searched, except the version
// control, cache and build folders and the binary extensions Chord leaves out
// (tools/lib/chord/skipped-files.ts). Includes that are all plain relative
// paths name files, read directly without a walk, and a file opened by name
// that is not text is skipped (tools/lib/grep/file-roots.ts).

import { Minimatch } from "minimatch";
import * as path from "node:path";
import { z } from "zod";
import { textTarget } from "../../core/permissions/match-target.js";
import { fail, INSPECTS, ok, type ToolContext, type ToolHandler } from "../../core/tool-types.js";
import { plain } from "../lib/chord/observations.js";
import { budgetedMatches, GREP_MAX_MATCHES } from "../lib/grep/chord-output.js";
import { searchWithRg } from "../lib/grep/engine.js";
import { eventCollector, eventDecoder, eventLines, JSON_FLAGS, type GrepLine } from "../lib/grep/json.js";
import { findRipgrep } from "../lib/grep/ripgrep.js";
import * as os from "node:os";
import { displayPath, isDevicePath, resolveInCwd } from "../lib/paths.js";
import { combinePatterns } from "../lib/grep/patterns.js";
import { CHORD_GREP_EXCLUDES } from "../lib/chord/skipped-files.js";
import { exactIncludePaths, skipsAsBinary } from "../lib/grep/file-roots.js";
import { searchHidden, yujPaths } from "../lib/file-access.js";
import { listArg, searchSummary, str } from "../lib/view.js";

export { CONTEXT_OMITTED_FOOTER } from "../lib/grep/chord-output.js";

export const chordGrepSchema = z.object({
  pattern: z.string().optional(),
  patterns: z.array(z.string()).optional(),
  paths: z.union([z.string(), z.array(z.string())]).optional(),
  includes: z.union([z.string(), z.array(z.string())]).optional(),
  // Any whole number: a value past the maximum (even 1e20) is clamped with a
  // note, as Chord does, not refused for leaving the safe-integer range.
  context_lines: z
    .number()
    .refine(Number.isInteger, { message: "integer" })
    .meta({ type: "integer" })
    .optional(),
});

export const GREP_MAX_CONTEXT = 20;
export const LITERAL_NOTE = "Note: pattern was invalid regex; searched as literal text.";
const NO_MATCH_HINT =
  " If the symbol or phrase is expected, try alternate naming, a narrower literal, or broaden the search scope (paths/includes) before assuming absence.";

/** Chord's advice after every search path failed. */
const STALE_PATH_ADVICE =
  " The path may be stale or relative to a different working directory. Verify the current working directory or use a discovery tool" +
  " (glob/grep from the repo root) to locate the target before retrying. Do not guess a similar-looking path.";

type Args = z.infer<typeof chordGrepSchema>;

interface Root {
  shown: string;
  abs: string;
  dir: boolean;
  cwdReal: string;
  /** A file an exact include named: `includes` already chose it. */
  named?: boolean;
}

type Searched = { ok: true; lines: GrepLine[] } | { ok: false; error: string; regex: boolean };

/** A number as Go prints a float64 (`50`, `1e+06`, `1e+20`): Chord quotes the value sent that way. */
function goNumber(n: number): string {
  if (Math.abs(n) < 1e6) return String(n);
  const [mantissa, exp] = n.toExponential().split("e") as [string, string];
  const digits = exp.replace(/^[+-]/, "");
  return `${mantissa}e${exp.startsWith("-") ? "-" : "+"}${digits.padStart(2, "0")}`;
}

const asList = (v: string | string[] | undefined): string[] => (v === undefined ? [] : typeof v === "string" ? [v] : v);

/** The roots that exist, and why each other one cannot be searched. */
async function resolveRoots(ctx: ToolContext, given: string[]): Promise<{ roots: Root[]; failures: string[] }> {
  const { fs } = ctx.services;
  const roots: Root[] = [];
  const failures: string[] = [];
  for (const shown of given) {
    const expanded = shown === "~" || shown.startsWith("~/") ? path.join(os.homedir(), shown.slice(1)) : shown;
    if (isDevicePath(path.resolve(ctx.cwd, expanded), ctx.cwd)) {
      failures.push(`blocked device path: ${shown} (grep searches regular files only)`);
      continue;
    }
    // The session's saved output (a cut result, a command's log) can be searched too; hidden paths cannot.
    // Paths outside the project stay refused: grep's permission rules match its pattern, not its paths.
    const where = await resolveInCwd(fs, ctx.cwd, expanded, yujPaths(ctx, "read"));
    if (!where.ok) {
      const why = plain(where.error);
      failures.push(why.includes(shown) ? why : `${shown}: ${why}`);
      continue;
    }
    const st = await fs.stat(where.abs).catch(() => undefined);
    if (!st) failures.push(`path not found: ${shown}${(await joinedPathsHint(ctx, shown)) ?? ""}`);
    else roots.push({ shown, abs: where.abs, dir: st.isDirectory(), cwdReal: where.cwdReal });
  }
  return { roots, failures };
}

/**
 * The roots searched: a directory whose includes are all plain relative
 * paths becomes the regular files they name in it (missing ones are
 * skipped, as Chord does), and a file that is not text is left out.
 */
async function searchedRoots(ctx: ToolContext, roots: Root[], includes: string | string[] | undefined, notes: string[]): Promise<Root[]> {
  const exact = exactIncludePaths(asList(includes));
  const out: Root[] = [];
  for (const root of roots) {
    const files = root.dir && exact ? exact.map((rel) => ({ ...root, abs: path.join(root.abs, rel), dir: false, named: true })) : [root];
    for (const f of files) {
      // A named file must be a regular file that stays where grep may read (a symlink out of the project does not).
      if (f.named && !(await namedFileReadable(ctx, f.abs))) continue;
      if (!f.dir && (await skipsAsBinary(ctx.services.fs, f.abs))) {
        // The model named this file: without a word, "No matches found" would read as "it is not in there".
        const shown = f.named ? displayPath(ctx.cwd, f.abs) : f.shown;
        notes.push(`grep: skipped path: ${shown} is a binary file; grep searches text files only`);
        continue;
      }
      out.push(f);
    }
  }
  return out;
}

/** A single path made of several existing paths joined by spaces: the model meant a list (Chord's hint, with the list to send). */
async function joinedPathsHint(ctx: ToolContext, given: string): Promise<string | undefined> {
  const parts = given.trim().split(/\s+/);
  if (parts.length < 2) return undefined;
  const exist = await Promise.all(parts.map((p) => ctx.services.fs.stat(path.resolve(ctx.cwd, p)).then(() => true, () => false)));
  if (!exist.every(Boolean)) return undefined;
  const list = JSON.stringify(parts.map((p) => displayPath(ctx.cwd, path.resolve(ctx.cwd, p))));
  return `. grep.paths accepts an array of file or directory paths; to search multiple directories, pass each path as a separate array item, e.g. paths: ${list}`;
}

/** Whether a file an exact include names is a regular file grep may read. */
async function namedFileReadable(ctx: ToolContext, abs: string): Promise<boolean> {
  const where = await resolveInCwd(ctx.services.fs, ctx.cwd, abs, yujPaths(ctx, "read"));
  return where.ok && (await ctx.services.fs.stat(where.abs).then((st) => st.isFile(), () => false));
}

/**
 * Every root in turn, each searched from inside itself (so `includes` are
 * relative to it). Output stops at the match cap, so only what can come
 * before the cap'th + 1 match is kept and parsed: on a large tree most
 * events are only counted.
 */
async function searchRoots(ctx: ToolContext, rg: string, pattern: string, args: Args, roots: Root[], context: number, literal: boolean): Promise<Searched> {
  const all: GrepLine[] = [];
  let matches = 0;
  const timeout = ctx.config.tools.grep_timeout;
  const hiddenFrom = searchHidden(ctx, roots[0]?.cwdReal ?? ctx.cwd);
  // Compiled once for every root.
  const included = includeFilter(args.includes);
  for (const root of roots) {
    const cwd = root.dir ? root.abs : path.dirname(root.abs);
    const shownPath = (key: Buffer) => displayPath(root.cwdReal, path.resolve(cwd, key.toString("utf8")));
    const events = eventCollector({
      wanted: Math.max(0, GREP_MAX_MATCHES + 1 - matches),
      // includes filter a walk only: a file given by name is searched whatever they say, as in Chord.
      hidden: (key) => hiddenFrom?.(shownPath(key)) === true || (root.dir && !included(key.toString("utf8"))),
    });
    const res = await searchWithRg(ctx, {
      rg,
      cwd,
      target: root.dir ? "." : path.basename(root.abs),
      pattern,
      format: JSON_FLAGS,
      context,
      literal,
      globs: [...CHORD_GREP_EXCLUDES],
      hidden: true,
      gitignoreAnywhere: true,
      timeoutMs: timeout * 1000,
      onLines: eventDecoder(events),
    });
    const found = events.result();
    if (res.kind === "spawn_error") return { ok: false, error: `grep ${res.message}`, regex: false };
    if (res.kind === "cancelled") return { ok: false, error: "grep cancelled", regex: false };
    if (res.kind === "timeout" || res.code === null) return { ok: false, error: `grep timed out after ${timeout}s`, regex: false };
    if (res.code >= 2 && found.total === 0) {
      const regex = /regex parse error|error parsing regex|unclosed|repetition/i.test(res.stderr);
      const first = res.stderr.split("\n").find((l) => l.trim()) ?? "unknown error";
      return { ok: false, error: `grep failed: ${first.replace(/^rg: /, "")}`, regex };
    }
    matches += found.total;
    for (const file of found.files) {
      for (const l of eventLines(file)) all.push({ ...l, file: displayPath(root.cwdReal, path.resolve(cwd, l.file)) });
    }
  }
  return { ok: true, lines: all };
}

export const chordGrepTool: ToolHandler<typeof chordGrepSchema> = {
  id: "chord_grep",
  schema: chordGrepSchema,
  effects: INSPECTS,
  matchValue: (args) => textTarget(args.pattern ?? (args.patterns ?? []).join("|")),
  view: {
    card: "foldable",
    summary: (args, facts) =>
      searchSummary(str(args, "pattern") ?? listArg(args.patterns).join(" | "), listArg(args.paths).join(", ") || undefined, listArg(args.includes).join(", ") || undefined, facts.cwd),
  },
  async run(args, ctx) {
    const wanted = [...(args.pattern !== undefined ? [args.pattern] : []), ...(args.patterns ?? [])];
    if (wanted.every((p) => p === "")) return fail("pattern is required (one regex, or patterns: a list of regexes)");
    const notes: string[] = [];
    let context = args.context_lines ?? 0;
    if (context < 0) return fail(`context_lines must be between 0 and ${GREP_MAX_CONTEXT}, got ${context}`);
    if (context > GREP_MAX_CONTEXT) {
      notes.push(`Note: context_lines ${goNumber(context)} exceeds the maximum of ${GREP_MAX_CONTEXT}; using ${GREP_MAX_CONTEXT}.`);
      context = GREP_MAX_CONTEXT;
    }
    const rg = await findRipgrep(ctx);
    if (!rg) return fail("grep unavailable: no ripgrep binary found");

    const given = asList(args.paths).filter((p) => p.trim() !== "");
    const { roots, failures } = await resolveRoots(ctx, given.length ? given : ["."]);
    if (roots.length === 0) {
      return fail(`all search paths failed: ${failures.join("; ")}.${STALE_PATH_ADVICE}`);
    }
    for (const f of failures) notes.push(`grep: skipped path: ${f}`);
    const searched = await searchedRoots(ctx, roots, args.includes, notes);

    const several = wanted.filter((p) => p !== "").length > 1;
    let literal = false;
    let pattern = wanted.find((p) => p !== "")!;
    if (several) {
      const combined = await combinePatterns(ctx, rg, wanted);
      pattern = combined.regex!;
      if (combined.literal.length) {
        notes.push(`Note: patterns ${combined.literal.map((p) => JSON.stringify(p)).join(", ")} were invalid regex; searched as literal text.`);
      }
    }
    let res = await searchRoots(ctx, rg, pattern, args, searched, context, false);
    if (!res.ok && res.regex && !several) {
      literal = true;
      res = await searchRoots(ctx, rg, pattern, args, searched, context, true);
    }
    if (!res.ok) return fail(res.error);
    if (literal) notes.unshift(LITERAL_NOTE);

    const total = res.lines.filter((l) => l.match).length;
    if (total === 0) {
      const body = "No matches found." + (literal ? " (pattern was invalid regex; searched as literal text)" : "") + NO_MATCH_HINT;
      const said = [...notes.filter((n) => n !== LITERAL_NOTE), body];
      return ok(said.join("\n"), { kind: "matches", matches: [], total: 0, hint: said.join(" ") });
    }
    const shown = budgetedMatches(res.lines, context);
    // The card lists the matches as data; the notes and the cap read as one hint.
    const hint = [...notes, ...(shown.capped ? [`showing ${shown.shown.length} of ${total}${total > GREP_MAX_MATCHES ? "+" : ""} matches`] : [])];
    return ok((notes.length ? `${notes.join("\n")}\n` : "") + shown.text, {
      kind: "matches",
      matches: shown.shown.map((l) => ({ path: l.file, line: l.n, text: l.text })),
      total,
      ...(hint.length ? { hint: hint.join(" ") } : {}),
    });
  },
};

/**
 * `includes` as a filter on what the walk finds: ripgrep's own `--glob`
 * would also bring back files the ignore rules leave out (a `.gitignore` of
 * `.*` with a `.go` include listed `.hidden.go`), and Chord's includes
 * only narrow. A glob without `/` matches the file name anywhere, as
 * ripgrep's does; one with `/` matches the path below the search root.
 */
function includeFilter(includes: string | string[] | undefined): (rel: string) => boolean {
  const globs = asList(includes).filter((g) => g.trim() !== "").map((g) => new Minimatch(g.trim(), { dot: true, matchBase: !g.includes("/") }));
  if (globs.length === 0) return () => true;
  return (rel) => {
    const clean = rel.replace(/^\.\//, "");
    return globs.some((g) => g.match(clean));
  };
}
