// What a shell command does, read from its text alone: whether it only
// reads, lists or searches (a plan may run it, it is never a change nor a
// check of one) and the one file a simple read shows. Whether a successful
// run checked the work is shell-verification.ts. Pure: no file system, no
// execution.
//
// Rules chosen here:
// * A command that only looks at things is pure inspection: reads, listings,
//   searches, git status/log/diff/show, echo. Anything unparseable or
//   unknown is not.
// * What a command changes cannot be known from its text, so a command never
//   counts as a change of a file (and never refreshes a stale-file hash).

import * as path from "node:path";
import { EXECUTES, INSPECTS, type ToolEffect, type Touch } from "../../core/tool-types.js";
import { parseShell, verbOf, type Redirect, type SimpleCommand, type Word } from "./shell-words.js";
import { simpleSingleFileRead, singleFileReadSearches } from "./shell-rules.js";

/** A command's effects: inspection only looks; anything else runs and may change anything. */
export function commandEffects(cmd: string): ReadonlySet<ToolEffect> {
  return isInspectionCommand(cmd) ? INSPECTS : EXECUTES;
}

/** The file a simple single-file read shows whole (`cat f`, `sed -n 1,5p f`), relative to `workdir` when given. */
export function commandReads(cmd: string, workdir?: string): Touch[] {
  const file = simpleSingleFileRead(cmd);
  if (file === undefined) return [];
  const where = workdir && !path.isAbsolute(file) ? path.join(workdir, file) : file;
  return [{ path: where, as: "reads", ...(singleFileReadSearches(cmd) ? { readOnExit: 1 } : {}) }];
}

/** Commands that only read, list or search, whatever their operands. */
const LOOK_VERBS = new Set([
  // Not here: tree (-o writes a file), file (-C compiles a magic file), sed, awk, xargs.
  "cat", "head", "tail", "less", "more", "nl", "ls", "wc", "stat", "du", "pwd",
  "echo", "printf", "basename", "dirname", "realpath", "readlink", "which", "cut", "tr", "diff",
  "cmp", "od", "hexdump", "grep", "egrep", "fgrep", "rgrep", "true", "jq",
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
  const p = parseShell(cmd);
  // `/tmp/cat` is some other program than cat.
  if (p.parseable && p.items.some((item) => item.pipeline.stages.some((c) => c.words[0]?.value.includes("/")))) return false;
  if (simpleSingleFileRead(cmd) !== undefined) return true; // `sed -n '1,5p' f` and the like
  if (!p.parseable || p.keywords.length || p.substitutions.length || !p.items.length) return false;
  return p.items.every((item) => item.pipeline.stages.every(inspects));
}

/** Whether one simple command only reads, lists or searches (the rules of isInspectionCommand, for one command). */
export function inspects(c: SimpleCommand): boolean {
  // An assignment can change what a command runs (GIT_EXTERNAL_DIFF=..., PAGER=...).
  if (c.group !== undefined || c.assignments.length || !c.words.length || !c.redirects.every(readOnlyRedirect)) {
    return false;
  }
  const verb = verbOf(c.words);
  const args = c.words.slice(1).map((w) => w.value);
  // Where an option can write or run something, a word known only at run time
  // (`$ACTION`, `*`, `{-print,-delete}`) could become that option.
  if (verb !== undefined && WRITING_OPTIONS.has(verb) && c.words.slice(1).some(expands)) return false;
  switch (verb) {
    case "printf":
      return !args.includes("-v"); // sets a shell variable
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

/** Look verbs that also have options which write a file or run a command. */
const WRITING_OPTIONS = new Set(["find", "rg", "sort", "uniq", "git"]);

/** A word the shell expands: a variable, a substitution, a glob or a brace list written unquoted. */
const expands = (w: Word): boolean => w.dynamic || (w.raw === w.value && /[*?[{]/.test(w.value));

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
