// The one table the loop guards share: which calls change which files, which
// shell commands only look at things, and which calls count as checking a
// change. Keyed by handler id, so a profile that renames a tool keeps its
// meaning. Pure: no file system, no execution.
//
// Rules chosen here (the spec names them but leaves the details open):
// * Only the file tools below name their targets in their arguments. What a
//   shell command touched cannot be known from its text: the finish rule sees
//   it afterwards in git status (done-guard.ts), and it never refreshes a
//   stale-file hash.
// * A verification is a successful run_tests whose status is "passed", or a
//   successful foreground bash/shell command that is not pure inspection
//   (`isInspectionCommand`: reads, listings, searches, git status/log/diff/
//   show, echo). Running the program, a build, a linter or the tests all
//   count; a failing command does not, nor does a background start or a
//   foreground command that was handed over to a background job.

import type { ToolResult } from "../../core/tool-types.js";
import { parseShell, verbOf, type Redirect, type SimpleCommand } from "../lib/shell-words.js";
import { simpleSingleFileRead } from "../lib/shell-rules.js";

/**
 * create: the file must not exist yet (apply_patch Add, a move's destination);
 * write: created or replaced whole; update: changed in place; delete: removed.
 */
export type MutationKind = "create" | "write" | "update" | "delete";

export interface MutationTarget {
  /** As the model wrote it. */
  path: string;
  kind: MutationKind;
}

const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

const onePath =
  (kind: MutationKind) =>
  (args: Record<string, unknown>): MutationTarget[] => {
    const path = str(args.path) ?? str(args.notebook_path) ?? str(args.file_path);
    return path === undefined ? [] : [{ path, kind }];
  };

const MUTATORS: Record<string, (args: Record<string, unknown>) => MutationTarget[]> = {
  write: onePath("write"),
  edit: onePath("update"),
  notebook_edit: onePath("update"),
  structural_edit: onePath("update"),
  apply_patch: (args) => v4aTargets(str(args.patch) ?? str(args.input) ?? ""),
  udiff: (args) => udiffTargets(str(args.patch) ?? str(args.diff) ?? ""),
};

/** The files a call would change, or undefined when its handler changes no file. */
export function mutationTargets(handler: string, args: Record<string, unknown>): MutationTarget[] | undefined {
  const targets = Object.hasOwn(MUTATORS, handler) ? MUTATORS[handler]!(args) : undefined;
  return targets;
}

export function isMutationHandler(handler: string): boolean {
  return Object.hasOwn(MUTATORS, handler);
}

/** Codex V4A headers: `*** Add File:`, `*** Update File:` (+ `*** Move to:`), `*** Delete File:`. */
export function v4aTargets(patch: string): MutationTarget[] {
  const out: MutationTarget[] = [];
  for (const raw of patch.split("\n")) {
    const m = /^\*\*\* (Add File|Update File|Delete File|Move to): (.+)$/.exec(raw.trimEnd());
    if (!m) continue;
    const path = m[2]!.trim();
    const kind: MutationKind = m[1] === "Update File" ? "update" : m[1] === "Delete File" ? "delete" : "create";
    out.push({ path, kind });
  }
  return out;
}

/**
 * Unified diff file headers. A `---` line counts only when a `+++` line
 * follows it, so a removed line that itself starts with `--` is not taken
 * for a header. `/dev/null` on one side makes it a creation or a deletion.
 */
export function udiffTargets(patch: string): MutationTarget[] {
  const lines = patch.split("\n").map((l) => l.replace(/\r$/, ""));
  const out: MutationTarget[] = [];
  for (let i = 0; i + 1 < lines.length; i++) {
    if (!lines[i]!.startsWith("--- ") || !lines[i + 1]!.startsWith("+++ ")) continue;
    const oldRaw = headerPath(lines[i]!);
    const newRaw = headerPath(lines[i + 1]!);
    i++;
    // Git prefixes: a/ on the old side, b/ on the new side.
    const oldPath = oldRaw === "/dev/null" ? undefined : oldRaw.replace(/^a\//, "");
    const newPath = newRaw === "/dev/null" ? undefined : newRaw.replace(/^b\//, "");
    if (oldPath === undefined && newPath !== undefined) out.push({ path: newPath, kind: "create" });
    else if (newPath === undefined && oldPath !== undefined) out.push({ path: oldPath, kind: "delete" });
    else if (oldPath !== undefined && newPath !== undefined) {
      out.push({ path: oldPath, kind: "update" });
      if (newPath !== oldPath) out.push({ path: newPath, kind: "create" });
    }
  }
  return out;
}

/** The path of a `---`/`+++` line: up to a tab (a timestamp may follow), unquoted. */
function headerPath(line: string): string {
  const rest = line.slice(4).split("\t")[0]!.trim();
  return /^".*"$/.test(rest) ? rest.slice(1, -1) : rest;
}

// ---------------------------------------------------------------------------
// Shell calls

export interface ShellCall {
  command: string;
  /** Chord `shell` may run somewhere below the task directory. */
  workdir?: string;
  background: boolean;
}

/** The command of a bash (Yuj) or shell (Chord) call. */
export function shellCall(handler: string, args: Record<string, unknown>): ShellCall | undefined {
  if (handler === "bash" && typeof args.cmd === "string") {
    return { command: args.cmd, background: args.background === true };
  }
  if (handler === "shell" && typeof args.command === "string") {
    const workdir = str(args.workdir);
    return { command: args.command, background: args.run_in_background === true, ...(workdir ? { workdir } : {}) };
  }
  return undefined;
}

/** Commands that only read, list or search, whatever their operands. */
const LOOK_VERBS = new Set([
  // Not here: tree (-o writes a file), file (-C compiles a magic file), sed, awk, xargs.
  "cat", "head", "tail", "less", "more", "nl", "ls", "wc", "stat", "du", "pwd",
  "echo", "printf", "basename", "dirname", "realpath", "readlink", "which", "cut", "tr", "diff",
  "cmp", "od", "hexdump", "grep", "egrep", "fgrep", "rgrep", "true",
]);

const GIT_LOOKS = new Set(["status", "log", "diff", "show", "blame", "ls-files", "grep", "rev-parse", "shortlog"]);

/** find actions that run a command or write a file. */
const FIND_ACTIONS = /^-(?:exec|execdir|ok|okdir|delete|fprint|fprint0|fprintf|fls)$/;

/**
 * True when the command line only reads, lists or searches: every command in
 * it is one of the look verbs above (find without -exec/-delete, rg without
 * --pre, sort without -o, git status/log/diff/show/...), with no output
 * redirection to a file, no variable assignment, no substitution and no
 * control structure. Anything unparseable or unknown is not inspection.
 */
export function isInspectionCommand(cmd: string): boolean {
  if (simpleSingleFileRead(cmd) !== undefined) return true; // `sed -n '1,5p' f` and the like
  const p = parseShell(cmd);
  if (!p.parseable || p.keywords.length || p.substitutions.length || !p.items.length) return false;
  return p.items.every((item) => item.pipeline.stages.every(inspects));
}

function inspects(c: SimpleCommand): boolean {
  // An assignment can change what a command runs (GIT_EXTERNAL_DIFF=..., PAGER=...).
  if (c.group !== undefined || c.assignments.length || !c.words.length || !c.redirects.every(readOnlyRedirect)) {
    return false;
  }
  const verb = verbOf(c.words);
  const args = c.words.slice(1).map((w) => w.value);
  switch (verb) {
    case "find":
      return !args.some((a) => FIND_ACTIONS.test(a));
    case "rg":
      return !args.some((a) => a === "--pre" || a.startsWith("--pre="));
    case "sort":
      return !args.some((a) => /^-[^-]*o/.test(a) || a.startsWith("--output") || a.startsWith("--compress-program"));
    case "uniq":
      return args.filter((a) => !a.startsWith("-")).length <= 1; // a second operand is an output file
    case "git":
      return gitLooks(args);
    default:
      return verb !== undefined && LOOK_VERBS.has(verb);
  }
}

function gitLooks(args: readonly string[]): boolean {
  let i = 0;
  // Global options that change nothing; `-c` could set a pager or a hook, so it is not here.
  while (i < args.length) {
    if (args[i] === "--no-pager" || args[i] === "-P") i++;
    else if (args[i] === "-C") i += 2;
    else break;
  }
  const sub = args[i];
  if (sub === undefined || !GIT_LOOKS.has(sub)) return false;
  return !args
    .slice(i + 1)
    .some((a) => a.startsWith("--output") || a === "--ext-diff" || a === "-O" || a.startsWith("--open-files-in-pager"));
}

/** Reading a file, feeding inline text, or sending output to /dev/null or another descriptor. */
function readOnlyRedirect(r: Redirect): boolean {
  if (r.op === "<" || r.op === "<<" || r.op === "<<-" || r.op === "<<<" || r.op === "<&") return true;
  if (r.op === "<>") return false; // opens for writing, creating the file
  if (r.target.value === "/dev/null") return true;
  return r.op === ">&" && /^(?:\d+|-)$/.test(r.target.value);
}

// ---------------------------------------------------------------------------
// Verification

/** True when this call, with this result, checked the files as they now are. */
export function isVerification(call: { handler: string; args: Record<string, unknown> }, result: ToolResult): boolean {
  if (!result.ok) return false;
  if (call.handler === "run_tests") return /<test_results\b[^>]*\bstatus="passed"/.test(result.modelText);
  const shell = shellCall(call.handler, call.args);
  if (shell === undefined || shell.background || isInspectionCommand(shell.command)) return false;
  // Chord's shell hands a slow command over to a job: it has not finished, so it has checked nothing yet.
  return !/continues as background job /.test(result.modelText);
}
