// The grep engine both grep tools configure: one ripgrep run over one target,
// its output decoded as it streams (lines.ts or json.ts) into a collector
// that keeps only what the result shown can hold. The tools differ in what
// they ask for (paging or a match cap, context, literal retries, several
// roots) and in how they word the result; the search itself is this.

import type { ToolContext } from "../../../core/tool-types.js";
import { runRg } from "./ripgrep.js";

export interface RgSearch {
  rg: string;
  /** The directory rg runs in; relative targets and globs are relative to it. */
  cwd: string;
  /** The file or directory searched, as rg is given it. */
  target: string;
  pattern: string;
  /** rg's flags for the output format (LINE_FLAGS, JSON_FLAGS). */
  format: readonly string[];
  /** Lines of context around each match (JSON only). */
  context?: number;
  /** Search the pattern as literal text. */
  literal?: boolean;
  /** rg `--glob` filters, in order. */
  globs?: readonly string[];
  /** Search hidden files and folders too (`--hidden`); the globs decide what stays out. */
  hidden?: boolean;
  /** Read .gitignore files outside a git repository too (`--no-require-git`). */
  gitignoreAnywhere?: boolean;
  timeoutMs: number;
  /** Whole lines of stdout as they come. */
  onLines(batch: Buffer): void;
}

export type RgSearchEnd =
  | { kind: "done"; code: number | null; stderr: string }
  | { kind: "timeout" }
  | { kind: "cancelled" }
  | { kind: "spawn_error"; message: string };

/** The argument vector of a search: no config file, the format, the filters, then the pattern and the target. */
function searchArgv(s: Pick<RgSearch, "format" | "context" | "literal" | "globs" | "hidden" | "gitignoreAnywhere" | "pattern" | "target">): string[] {
  const argv = ["--no-config", ...s.format];
  if (s.hidden) argv.push("--hidden");
  if (s.gitignoreAnywhere) argv.push("--no-require-git");
  if (s.context !== undefined && s.context > 0) argv.push("-C", String(s.context));
  if (s.literal) argv.push("--fixed-strings");
  for (const g of s.globs ?? []) argv.push("--glob", g);
  // `-e` and `--`: a pattern or a path starting with `-` is never a flag.
  argv.push("-e", s.pattern, "--", s.target);
  return argv;
}

export function searchWithRg(ctx: ToolContext, s: RgSearch): Promise<RgSearchEnd> {
  return runRg(ctx, { rg: s.rg, argv: searchArgv(s), cwd: s.cwd, timeoutMs: s.timeoutMs, onLines: s.onLines });
}
