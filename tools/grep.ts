// `grep`: regex search over file contents, `path:line:content` sorted by
// (path, line), one page at a time (digest 1.9). ripgrep does the work: from
// PATH when installed, else the binary bundled with @vscode/ripgrep, else a
// pure-JS walk that prints the same lines.

import * as path from "node:path";
import { z } from "zod";
import { fail, ok, type ToolContext, type ToolHandler } from "../core/tool-types.js";
import { grepFallback } from "./lib/grep-fallback.js";
import { resolveInCwd } from "./lib/paths.js";
import { paginate, searchEnvelope } from "./lib/search-envelope.js";

export const grepSchema = z.object({
  pattern: z.string(),
  path: z.string().optional(),
  glob: z.string().optional(),
  page: z.number().int().optional(),
});

let rgLookup: Promise<string | undefined> | undefined;

/** The rg binary to run, looked up once per process. */
export function findRipgrep(ctx: ToolContext): Promise<string | undefined> {
  rgLookup ??= (async () => {
    for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
      if (!dir) continue;
      const candidate = path.join(dir, "rg");
      const st = await ctx.services.fs.stat(candidate).catch(() => undefined);
      if (st?.isFile() && (st.mode & 0o111) !== 0) return candidate;
    }
    try {
      // Throws at import time when the platform package is missing.
      return (await import("@vscode/ripgrep")).rgPath;
    } catch {
      return undefined;
    }
  })();
  return rgLookup;
}

type RgOutcome =
  | { kind: "done"; code: number | null; stdout: string; stderr: string }
  | { kind: "timeout" }
  | { kind: "cancelled" }
  | { kind: "spawn_error"; message: string };

function runRg(ctx: ToolContext, rg: string, argv: string[], timeoutMs: number): Promise<RgOutcome> {
  return new Promise((resolve) => {
    const child = ctx.services.spawn(rg, argv, { cwd: ctx.cwd, stdio: ["ignore", "pipe", "pipe"], env: ctx.services.env });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let settled: RgOutcome | undefined;
    const stop = (outcome: RgOutcome) => {
      if (settled) return;
      settled = outcome;
      child.kill("SIGKILL");
    };
    const timer = setTimeout(() => stop({ kind: "timeout" }), timeoutMs);
    const onAbort = () => stop({ kind: "cancelled" });
    ctx.signal.addEventListener("abort", onAbort, { once: true });
    child.stdout?.on("data", (b: Buffer) => out.push(b));
    child.stderr?.on("data", (b: Buffer) => err.push(b));
    const finish = (outcome: RgOutcome) => {
      clearTimeout(timer);
      ctx.signal.removeEventListener("abort", onAbort);
      resolve(settled ?? outcome);
    };
    child.on("error", (e) => finish({ kind: "spawn_error", message: e.message }));
    child.on("close", (code) =>
      finish({
        kind: "done",
        code,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
      }),
    );
  });
}

/** rg's stderr as one line: the first, plus the `error:` detail of a regex error. */
function rgError(stderr: string, cwdReal: string): string {
  const lines = stderr.split("\n").map((l) => l.trimEnd());
  let first = (lines.find((l) => l.trim()) ?? "unknown error").replace(/^rg: /, "");
  const detail = lines.find((l) => l.startsWith("error: "));
  if (first.endsWith(":") && detail) first += ` ${detail.slice("error: ".length)}`;
  return first.split(`${cwdReal}${path.sep}`).join("");
}

const LINE_KEY = /^(.*?):(\d+):/;

/** Sort by path, then numerically by line, so output is stable across runs. */
function sortMatches(lines: string[]): string[] {
  const keyed = lines.map((line) => {
    const m = LINE_KEY.exec(line);
    return { line, file: m ? m[1]! : line, n: m ? Number(m[2]) : 0 };
  });
  keyed.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.n - b.n));
  return keyed.map((k) => k.line);
}

/**
 * rg's stdout as the sorted, cwd-relative lines `sortMatches` would give,
 * in one pass: on a large tree this runs over tens of thousands of lines, so
 * it avoids the intermediate arrays, a regex per line, and sorting lines. rg
 * prints each file's lines together and in line order, so only the files are
 * sorted; output that is not shaped like that (a file's lines split or out of
 * order) takes the full sort, so the result never depends on the shortcut.
 * The file key is the text before the first `:<digits>:`, as LINE_KEY reads it.
 */
function rgMatches(stdout: string, prefix: string): string[] {
  const lines: string[] = [];
  // Each group is one file's run of lines: lines[from, to).
  const groups: Array<{ file: string; last: number; from: number; to: number }> = [];
  const seen = new Set<string>();
  let cur: (typeof groups)[number] | undefined;
  for (let start = 0; start < stdout.length; ) {
    let end = stdout.indexOf("\n", start);
    if (end < 0) end = stdout.length;
    if (end === start) {
      start = end + 1;
      continue;
    }
    const ls = end - start >= prefix.length && stdout.startsWith(prefix, start) ? start + prefix.length : start;
    start = end + 1;
    lines.push(stdout.slice(ls, end));
    // Find the key: the earliest `:` followed by digits and another `:`.
    let keyEnd = -1;
    let n = 0;
    for (let c = stdout.indexOf(":", ls); c >= 0 && c < end; c = stdout.indexOf(":", c + 1)) {
      let d = c + 1;
      let v = 0;
      for (; d < end; d++) {
        const code = stdout.charCodeAt(d);
        if (code < 48 || code > 57) break;
        v = v * 10 + (code - 48);
      }
      if (d > c + 1 && d < end && stdout.charCodeAt(d) === 58) {
        keyEnd = c;
        n = v;
        break;
      }
    }
    const keyLen = keyEnd < 0 ? end - ls : keyEnd - ls;
    if (cur && cur.file.length === keyLen && stdout.startsWith(cur.file, ls)) {
      if (n < cur.last) return sortMatches(lines.concat(restOf(stdout, start, prefix)));
      cur.last = n;
      cur.to = lines.length;
      continue;
    }
    const file = stdout.slice(ls, ls + keyLen);
    if (seen.has(file)) return sortMatches(lines.concat(restOf(stdout, start, prefix)));
    seen.add(file);
    cur = { file, last: n, from: lines.length - 1, to: lines.length };
    groups.push(cur);
  }
  groups.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  const out: string[] = [];
  for (const g of groups) for (let i = g.from; i < g.to; i++) out.push(lines[i]!);
  return out;
}

/** The remaining lines from `start`, cwd-relative, for the full sort. */
function restOf(stdout: string, start: number, prefix: string): string[] {
  return stdout
    .slice(start)
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => (l.startsWith(prefix) ? l.slice(prefix.length) : l));
}

/** The lines of files a path rule keeps from the results left out, each file judged once. */
function withoutHidden(lines: string[], hidden: (path: string) => boolean): string[] {
  const verdicts = new Map<string, boolean>();
  return lines.filter((line) => {
    const file = LINE_KEY.exec(line)?.[1] ?? line;
    let out = verdicts.get(file);
    if (out === undefined) verdicts.set(file, (out = hidden(file)));
    return !out;
  });
}

export const grepTool: ToolHandler<typeof grepSchema> = {
  id: "grep",
  schema: grepSchema,
  readOnly: true,
  async run(args, ctx) {
    const scope = args.path ?? ".";
    const tools = ctx.config.tools;
    const { fs } = ctx.services;
    const where = await resolveInCwd(fs, ctx.cwd, scope === "" ? "." : scope);
    if (!where.ok) return fail(where.error);
    const exists = await fs.stat(where.abs).then(
      () => true,
      () => false,
    );
    // Checked here so both backends report a missing scope the same way.
    if (!exists) return fail(`ERROR: grep failed: ${scope}: No such file or directory (os error 2)`);

    let matches: string[];
    const rg = await findRipgrep(ctx);
    if (rg) {
      const argv = ["--no-config", "-n", "--no-heading", "--with-filename", "--color", "never"];
      if (args.glob) argv.push("--glob", args.glob);
      argv.push("-e", args.pattern, "--", where.abs);
      const res = await runRg(ctx, rg, argv, tools.grep_timeout * 1000);
      if (res.kind === "timeout") return fail(`ERROR: grep timed out after ${tools.grep_timeout}s`);
      if (res.kind === "cancelled") return fail("ERROR: grep cancelled");
      if (res.kind === "spawn_error") return fail(`ERROR: grep failed: ${res.message}`);
      if (res.code === null || res.code >= 2) {
        return fail(`ERROR: grep failed: ${rgError(res.stderr, where.cwdReal)}`);
      }
      const prefix = `${where.cwdReal}${path.sep}`;
      matches = rgMatches(res.stdout, prefix);
    } else {
      const res = await grepFallback({
        fs,
        pattern: args.pattern,
        glob: args.glob,
        scopeAbs: where.abs,
        cwdReal: where.cwdReal,
        signal: ctx.signal,
      });
      if (!res.ok) return fail(`ERROR: grep failed: ${res.error}`);
      if (ctx.signal.aborted) return fail("ERROR: grep cancelled");
      matches = sortMatches(res.lines);
    }

    if (ctx.hiddenByRules) matches = withoutHidden(matches, ctx.hiddenByRules);

    if (!tools.search_pagination_enabled) return ok(matches.length ? matches.join("\n") : "No matches found.");
    const page = paginate(matches, args.page, tools.grep_max_matches_per_page);
    return ok(
      searchEnvelope(
        {
          tool: "grep",
          total: matches.length,
          shown: page.items.length,
          page: page.page,
          nextPage: page.nextPage,
          pattern: args.pattern,
          scope: args.glob ? `${scope} glob=${args.glob}` : scope,
        },
        page.items,
      ),
    );
  },
};
