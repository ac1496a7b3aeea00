// The files a directory search looks at: what ripgrep would search there
// (.gitignore and the other ignore files, hidden files and directories
// skipped, `glob` as rg's --glob), cut to the files a predicate accepts,
// as repository paths in sorted order. Without an rg binary a JS walk
// applies the same rules.

import * as path from "node:path";
import { minimatch } from "minimatch";
import type { ToolContext } from "../../../core/tool-types.js";
import { findRipgrep, runRg } from "../grep/ripgrep.js";
import { IgnoreRules } from "../ignore-rules.js";
import { displayPath } from "../paths.js";
import { searchHidden } from "../file-access.js";

export interface FileListing {
  ok: boolean;
  /** Repository paths, sorted. */
  files: string[];
  error?: string;
}

export async function listFiles(
  ctx: ToolContext,
  scope: { abs: string; cwdReal: string },
  glob: string | undefined,
  accept: (display: string) => boolean,
): Promise<FileListing> {
  const rg = await findRipgrep(ctx);
  const all = rg ? await viaRipgrep(ctx, rg, scope, glob) : await viaWalk(ctx, scope, glob);
  if (!all.ok) return all;
  // A refusing rule or [sandbox].unreadable_paths: such a file is never parsed, nor named.
  const hidden = searchHidden(ctx, scope.cwdReal);
  const files = all.files.filter((f) => accept(f) && !(hidden?.(f) ?? false));
  files.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { ok: true, files };
}

async function viaRipgrep(ctx: ToolContext, rg: string, scope: { abs: string; cwdReal: string }, glob: string | undefined): Promise<FileListing> {
  const argv = ["--no-config", "--files"];
  if (glob) argv.push("--glob", glob);
  argv.push("--", scope.abs);
  const files: string[] = [];
  const res = await runRg(ctx, {
    rg,
    argv,
    cwd: ctx.cwd,
    timeoutMs: ctx.config.tools.grep_timeout * 1000,
    onLines: (batch) => {
      for (const line of batch.toString("utf8").split("\n")) if (line) files.push(displayPath(scope.cwdReal, line));
    },
  });
  if (res.kind === "timeout") return { ok: false, files: [], error: `ERROR: listing the files timed out after ${ctx.config.tools.grep_timeout}s` };
  if (res.kind === "cancelled") return { ok: false, files: [], error: "ERROR: cancelled" };
  if (res.kind === "spawn_error") return { ok: false, files: [], error: `ERROR: cannot list the files: ${res.message}` };
  // Exit 2 with output: some directory could not be read; the rest was listed.
  if (res.code === 2 && files.length === 0 && res.stderr.includes("glob")) {
    return { ok: false, files: [], error: `ERROR: bad glob: ${res.stderr.trim().split("\n")[0]}` };
  }
  return { ok: true, files };
}

async function viaWalk(ctx: ToolContext, scope: { abs: string; cwdReal: string }, glob: string | undefined): Promise<FileListing> {
  const { fs } = ctx.services;
  const negate = glob?.startsWith("!") ?? false;
  const body = negate ? glob!.slice(1) : glob;
  const globOk = (rel: string) => {
    if (!body) return true;
    const hit = minimatch(rel, body, { dot: true, matchBase: !body.includes("/") });
    return negate ? !hit : hit;
  };
  const files: string[] = [];
  // `rules` already holds the ignore files of `dir` and of its ancestors.
  const visit = async (dir: string, rules: IgnoreRules): Promise<void> => {
    if (ctx.signal.aborted) return;
    const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (entry.name.startsWith(".")) continue;
      const abs = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!rules.ignores(abs, true)) await visit(abs, await rules.enter(abs));
      } else if (entry.isFile() && !rules.ignores(abs, false)) {
        if (globOk(path.relative(scope.abs, abs).split(path.sep).join("/"))) files.push(displayPath(scope.cwdReal, abs));
      }
    }
  };
  await visit(scope.abs, await IgnoreRules.forRoot(fs, scope.abs));
  return { ok: true, files };
}
