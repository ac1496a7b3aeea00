// Whether a successful command checked the work, read from its text alone:
// the finish rule's "a check after the last change". Pure: no file system,
// no execution.
//
// Rules chosen here (as the reference's shell-verification tests pin them):
// * A command that only looks at things (shell-inspection.ts) checks nothing,
//   however much it prints.
// * Exit status 0 counts only when it is the status of the work: the last
//   stretch of plain commands joined by `&&` (what `;`, `&` or a newline put
//   before it may have failed without changing the status), at least one of
//   them doing more than look. Where the status may come from something
//   else, or the work may not have run, the success says nothing: `||` into
//   that stretch, a trailing `&`, a pipeline (the last stage's status), `!`,
//   if/while/for and other compound commands, command substitutions, a
//   comment, output written to a file (the result is not in what the model
//   saw; /dev/null and descriptor duplication are fine), and any word the
//   shell expands (a variable, a glob, a brace list, a leading tilde), since
//   what actually ran is then unknown.
// * A test runner asked only to describe itself (help, version, the list or
//   collection of its tests without running them) checks nothing. A
//   compile-only run (`cargo test --no-run`, `go test -c`) builds the tests,
//   which is a check.

import type { ToolResult } from "../../core/tool-types.js";
import { parseShell, unwrap, verbOf, type Redirect, type SimpleCommand, type Word } from "./shell-words.js";
import { inspects, isInspectionCommand } from "./shell-inspection.js";

/** A successful foreground command whose success is the work's: see the rules above. */
export function commandVerifies(cmd: string, result: ToolResult): boolean {
  return result.ok && commandMayCheck(cmd);
}

/** Whether the command, should it succeed, would be a check (a background start is judged by this). */
export function commandMayCheck(cmd: string): boolean {
  if (isInspectionCommand(cmd)) return false;
  const p = parseShell(cmd);
  if (!p.parseable || p.keywords.length > 0 || p.substitutions.length > 0 || p.comment || p.items.length === 0) return false;
  if (p.items.at(-1)!.op !== undefined) return false; // `pytest &`: the status is the start's
  // The stretch whose status the command ends with: back over `&&` from the end.
  let start = p.items.length - 1;
  while (start > 0 && p.items[start - 1]!.op === "&&") start--;
  if (start > 0 && p.items[start - 1]!.op === "||") return false; // `true || pytest`: it may not have run
  const stretch = p.items.slice(start).map((item) => (item.pipeline.negated || item.pipeline.stages.length !== 1 ? undefined : item.pipeline.stages[0]!));
  if (stretch.some((c) => c === undefined || !plainCommand(c) || describesItself(unwrap(c.words)))) return false;
  return stretch.some((c) => !inspects(c!));
}

/** A word whose runtime text is not the text written: a variable, a glob, a brace list, a tilde. */
const expands = (w: Word): boolean => w.dynamic || (!w.quoted && /[*?]/.test(w.value));

function plainCommand(c: SimpleCommand): boolean {
  if (c.group !== undefined || c.words.length === 0) return false;
  return !c.words.some(expands) && !c.assignments.some((a) => a.dynamic) && c.redirects.every(keepsOutput);
}

/** Input, descriptor duplication and /dev/null keep the status and what the model sees; output to a file does not. */
function keepsOutput(r: Redirect): boolean {
  if (r.op === "<" || r.op === "<<" || r.op === "<<-" || r.op === "<<<" || r.op === "<&") return true;
  if (r.target.value === "/dev/null") return true;
  return r.op === ">&" && /^(?:\d+|-)$/.test(r.target.value);
}

/** Options that make any program describe itself instead of working. */
const ANY_PROGRAM = new Set(["--help", "--version"]);

/** Per runner: the options and subcommands that list, collect or describe instead of running tests. */
const RUNNER_MODES: ReadonlyMap<string, (arg: string) => boolean> = new Map([
  ["pytest", (a: string) => ["-h", "-V", "--collect-only", "--co", "--fixtures", "--markers"].includes(a)],
  ["cargo test", (a: string) => a === "-h" || a === "--list"],
  ["go test", (a: string) => ["-h", "-help", "-list"].includes(a) || a.startsWith("-list=")],
  ["ctest", (a: string) => a === "-N" || a === "--show-only" || a.startsWith("--show-only=")],
  ["jest", (a: string) => a === "--listTests" || a === "--showConfig"],
  ["vitest", (a: string) => a === "list" || a === "-h"],
]);

/** The runner a command line starts (through npx/bunx or `python -m`), and the words after its name. */
function runnerOf(words: readonly string[]): { name: string; args: readonly string[] } | undefined {
  let w = words;
  if (w[0] === "npx" || w[0] === "bunx") {
    w = w.slice(1);
    while (w[0]?.startsWith("-")) w = w.slice(1); // npx's own options (--yes)
  }
  if (/^python(?:\d+(?:\.\d+)?)?$/.test(w[0] ?? "") && w[1] === "-m") w = w.slice(2);
  const name = w[0] === "py.test" ? "pytest" : w[0];
  if (name === undefined) return undefined;
  if ((name === "cargo" || name === "go") && w[1] === "test") return { name: `${name} test`, args: w.slice(2) };
  return RUNNER_MODES.has(name) ? { name, args: w.slice(1) } : undefined;
}

function describesItself(words: readonly Word[]): boolean {
  const verb = verbOf(words);
  if (verb === undefined) return false;
  const values = [verb, ...words.slice(1).map((w) => w.value)];
  if (values.slice(1).some((a) => ANY_PROGRAM.has(a))) return true;
  const runner = runnerOf(values);
  const mode = runner && RUNNER_MODES.get(runner.name);
  return mode !== undefined && runner!.args.some(mode);
}
