// Pure-JS grep, used only when no ripgrep binary can be found. It mirrors what
// `rg -n --no-heading --with-filename` prints with rg's default filters: hidden
// entries, ignored paths, symlinks and binary files are skipped during the
// walk, while an explicitly named file is always searched.

import * as path from "node:path";
import { minimatch } from "minimatch";
import type { FileSystem } from "../../../core/services.js";
import { displayPath } from "../paths.js";
import { IgnoreRules } from "../ignore-rules.js";

export interface FallbackQuery {
  fs: FileSystem;
  pattern: string;
  glob?: string;
  /** Resolved scope (file or directory) inside `cwdReal`. */
  scopeAbs: string;
  cwdReal: string;
  signal: AbortSignal;
  /** Takes each match line as it is found; without it they are collected in `lines`. */
  onMatch?: (line: string) => void;
}

export type FallbackResult = { ok: true; lines: string[] } | { ok: false; error: string };

/** Rust-regex syntax that JS lacks and models use: a leading `(?i)` flag group. */
function compileRegex(pattern: string): RegExp {
  let source = pattern;
  let flags = "";
  const inline = /^\(\?([imsx]+)\)/.exec(source);
  if (inline) {
    source = source.slice(inline[0].length);
    if (inline[1]!.includes("i")) flags += "i";
    if (inline[1]!.includes("s")) flags += "s";
  }
  try {
    return new RegExp(source, flags + "u");
  } catch {
    return new RegExp(source, flags); // throws the error the caller reports
  }
}

type Verdict = "include" | "exclude" | "undecided";

/**
 * rg's --glob is an override and is consulted before the hidden and ignore
 * rules: a file matching a positive glob is searched even when ignored, a file
 * matching none is skipped; `!glob` excludes what it matches. Directories are
 * only decided by a match, so the walk still reaches files in them. A glob
 * without `/` matches the name at any depth.
 */
function globVerdict(glob: string | undefined): (rel: string, isDir: boolean) => Verdict {
  if (!glob) return () => "undecided";
  const negate = glob.startsWith("!");
  const body = negate ? glob.slice(1) : glob;
  const opts = { dot: true, matchBase: !body.includes("/") };
  return (rel, isDir) => {
    if (minimatch(rel, body, opts)) return negate ? "exclude" : "include";
    return negate || isDir ? "undecided" : "exclude";
  };
}

export async function grepFallback(q: FallbackQuery): Promise<FallbackResult> {
  let re: RegExp;
  try {
    re = compileRegex(q.pattern);
  } catch (err) {
    return { ok: false, error: `regex parse error: ${(err as Error).message}` };
  }
  const { fs } = q;
  const lines: string[] = [];
  const onMatch = q.onMatch ?? ((line: string) => lines.push(line));
  const verdictOf = globVerdict(q.glob);

  const searchFile = async (abs: string): Promise<void> => {
    let bytes: Buffer;
    try {
      bytes = await fs.readFile(abs);
    } catch {
      return;
    }
    if (bytes.includes(0)) return;
    const text = bytes.toString("utf8");
    const fileLines = text.split("\n");
    if (text.endsWith("\n")) fileLines.pop();
    const shown = displayPath(q.cwdReal, abs);
    fileLines.forEach((line, i) => {
      if (re.test(line)) onMatch(`${shown}:${i + 1}:${line}`);
    });
  };

  const walk = async (dir: string, rules: IgnoreRules): Promise<void> => {
    if (q.signal.aborted) return;
    let entries;
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.isSymbolicLink()) continue;
      const abs = path.join(dir, entry.name);
      const isDir = entry.isDirectory();
      const verdict = verdictOf(path.relative(q.scopeAbs, abs).split(path.sep).join("/"), isDir);
      if (verdict === "exclude") continue;
      if (verdict === "undecided" && (entry.name.startsWith(".") || rules.ignores(abs, isDir))) continue;
      if (isDir) await walk(abs, await rules.enter(abs));
      else if (entry.isFile()) await searchFile(abs);
    }
  };

  const st = await fs.stat(q.scopeAbs);
  if (st.isDirectory()) await walk(q.scopeAbs, await IgnoreRules.forRoot(fs, q.scopeAbs));
  else await searchFile(q.scopeAbs);
  return { ok: true, lines };
}
