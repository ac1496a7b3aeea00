// Formatter results: after a
// successful call that changed a file (its tool says it writes, updates or
// creates it) whose extension [formatter].extensions lists, the configured
// formatter runs on that file and a report is appended to the tool's result.
// It is an after-guard, so the handlers know nothing about it, and it only
// exists when [formatter].command is set: no formatter runs by default.
//
// Rules chosen here:
// * The formatter runs in the project root (the task directory), once per
//   changed file (a patch changing three files runs it three times), with
//   `{path}` replaced by the file's absolute path.
// * A failure or a timeout keeps the model's edit and the result stays a
//   success: the edit happened; the report says what the formatter did.
// * "before" is the file as the model's edit left it; "changed paths" are the
//   target when its hash moved, plus, in a git repository, every
//   repository-visible file the formatter changed (formatter-run.ts).
// * It must run before the stale-file guard's after-hook, which then records
//   the formatted bytes as the ones the model last changed (index.ts).
// * The Yuj surface only (index.ts): the Chord surface has no formatter setting.

import * as path from "node:path";
import type { Guard, GuardCall } from "../../core/guards/types.js";
import type { FileSystem, Services } from "../../core/services.js";
import type { ToolResult } from "../../core/tool-types.js";
import { resolveInCwd } from "../lib/paths.js";
import {
  changedBetween,
  gitTop,
  runFormatter,
  sha256File,
  snapshotRepo,
  SNAPSHOT_MAX_PATHS,
  type FormatterStatus,
} from "../lib/formatter-run.js";
import { appendNote } from "../../core/display-text.js";

export interface FormatterGuardOptions {
  fs: FileSystem;
  services: Pick<Services, "spawn" | "clock" | "env">;
  /** Argument vector; `{path}` is replaced by the changed file. */
  command: readonly string[];
  /** With or without the dot, any case. */
  extensions: readonly string[];
  timeoutS: number;
}

const normExt = (e: string) => e.replace(/^\./, "").toLowerCase();

interface Target {
  abs: string;
  display: string;
}

export function createFormatterGuard(opts: FormatterGuardOptions): Guard {
  const { fs } = opts;
  const exts = new Set(opts.extensions.map(normExt).filter((e) => e !== ""));

  /** The existing files the call changed whose extension is listed, each once. */
  const formattable = async (call: GuardCall, cwd: string): Promise<Target[]> => {
    const out: Target[] = [];
    for (const t of call.touches) {
      if (t.as === "reads" || t.as === "deletes") continue;
      const where = await resolveInCwd(fs, cwd, t.path);
      if (!where.ok || out.some((o) => o.abs === where.abs)) continue;
      if (!exts.has(normExt(path.extname(where.abs)))) continue;
      try {
        if (!(await fs.stat(where.abs)).isFile()) continue;
      } catch {
        continue; // a rename's old side, or gone
      }
      out.push({ abs: where.abs, display: where.display });
    }
    return out;
  };

  const formatOne = async (t: Target, root: string, top: string | undefined): Promise<string> => {
    const before = await sha256File(fs, t.abs);
    const env = opts.services.env;
    const snapBefore = top ? await snapshotRepo(fs, top, env) : undefined;
    const argv = opts.command.map((a) => a.replaceAll("{path}", t.abs));
    const status = await runFormatter(argv, root, opts.timeoutS, opts.services);
    const after = await sha256File(fs, t.abs);
    const snapAfter = top && snapBefore ? await snapshotRepo(fs, top, env) : undefined;

    const changed = new Set<string>();
    if (before !== after) changed.add(t.abs);
    let limit: string | undefined;
    if (!top) limit = "not a git repository: only the target is checked";
    else if (!snapBefore || !snapAfter) limit = "git status failed: only the target is checked";
    else if (snapBefore.overflow || snapAfter.overflow) {
      limit = `more than ${SNAPSHOT_MAX_PATHS} changed files in the repository: only the target is checked`;
    } else for (const abs of await changedBetween(fs, snapBefore, snapAfter)) changed.add(abs);

    const shown = [...changed].map((abs) => path.relative(root, abs) || ".").sort();
    return [
      `[formatter] ${t.display}: ${statusText(status)}`,
      `root: ${root}`,
      `sha256 before: ${before ?? "(missing)"}`,
      `sha256 after: ${after === undefined ? "(file no longer exists)" : after}`,
      `changed paths: ${shown.length ? shown.join(", ") : "none"}${limit ? ` (${limit})` : ""}`,
      ...outputLines(status),
    ].join("\n");
  };

  return {
    name: "formatter",

    async after(call, result, ctx): Promise<ToolResult> {
      if (!result.ok || exts.size === 0) return result;
      const targets = await formattable(call, ctx.cwd);
      if (targets.length === 0) return result;
      const root = await fs.realpath(ctx.cwd).catch(() => ctx.cwd);
      const top = await gitTop(root, opts.services.env);
      const reports: string[] = [];
      for (const t of targets) reports.push(await formatOne(t, root, top));
      const report = reports.join("\n\n");
      const display = appendNote(result.display, `\n${report}`);
      return { ...result, modelText: `${result.modelText}\n\n${report}`, ...(display ? { display } : {}) };
    },
  };
}

function statusText(s: FormatterStatus): string {
  switch (s.kind) {
    case "ok":
      return "ok";
    case "failed":
      return `failed (${s.exitCode !== null ? `exit code ${s.exitCode}` : `killed by ${s.signal}`}); the edit is kept`;
    case "not_started":
      return `failed (could not start: ${s.error}); the edit is kept`;
    case "timeout":
      return `timeout after ${s.seconds} s (its process group was killed); the edit is kept`;
  }
}

function outputLines(s: FormatterStatus): string[] {
  if ((s.kind !== "failed" && s.kind !== "timeout") || s.outputTail === "") return [];
  return ["output (tail):", ...s.outputTail.split("\n").map((l) => `  ${l}`)];
}
