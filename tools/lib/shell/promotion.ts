// Chord: which foreground commands may not be promoted to a background job,
// and when a result needs the output-preservation reminder.

import { commandsOf, parseShell, verbOf, type Word } from "../../../core/shell/index.js";
import { MAX_NESTING, values } from "./common.js";

const LOOP_KEYWORDS = new Set(["while", "until", "for", "select"]);

const GIT_QUERIES = new Set([
  "status", "log", "diff", "show", "rev-parse", "describe", "ls-files", "ls-tree", "cat-file", "blame",
  "shortlog", "reflog", "rev-list", "merge-base", "name-rev", "for-each-ref", "show-ref", "symbolic-ref",
  "grep", "check-ignore", "check-attr", "var", "version", "whatchanged", "diff-tree", "diff-files",
  "diff-index", "count-objects", "show-branch",
]);
const GIT_VALUED_GLOBALS = new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path"]);
const LISTING_FLAGS = /^(?:-l|--list|--contains|--no-contains|--merged|--no-merged|--points-at|--show-current)(?:=|$)/;
// Flags that make `git branch` / `git tag` change refs instead of listing them.
const REF_CHANGING_FLAGS = {
  branch: /^(?:-[dDmMcCfu]|--(?:delete|move|copy|force|set-upstream-to|unset-upstream|edit-description|track|no-track)(?:=|$))/,
  tag: /^(?:-[dasumfF]|--(?:delete|annotate|sign|local-user|message|file|force)(?:=|$))/,
};

/** `git status`, `git log ...`, `git branch`, `git config --get k`: quick and read-only. */
function isShortGitQuery(words: readonly Word[]): boolean {
  const args = values(words.slice(1));
  let i = 0;
  while (i < args.length && args[i]!.startsWith("-")) i += GIT_VALUED_GLOBALS.has(args[i]!) ? 2 : 1;
  const sub = args[i];
  const rest = args.slice(i + 1);
  if (sub === undefined) return false;
  if (GIT_QUERIES.has(sub)) return true;
  const operands = rest.filter((a) => !a.startsWith("-"));
  switch (sub) {
    case "branch":
    case "tag":
      return !rest.some((a) => REF_CHANGING_FLAGS[sub].test(a)) && (!operands.length || rest.some((a) => LISTING_FLAGS.test(a)));
    case "remote":
      return rest.every((a) => a === "-v" || a === "--verbose") || rest[0] === "get-url";
    case "config":
      return rest.some((a) => /^(?:--get|--get-all|--get-regexp|-l|--list)$/.test(a)) || operands.length === 1;
    case "stash":
      return rest[0] === "list" || rest[0] === "show";
    case "worktree":
      return rest[0] === "list";
    default:
      return false; // clone, fetch, pull, push, submodule, gc, fsck, repack, bundle, filter-branch, and all else
  }
}

/**
 * True when a foreground command may not be promoted to a background job: it
 * is made only of deliberate waits (`sleep`) and short git queries, or it does
 * not parse. Loops can run for ever, so any loop keeps the command promotable.
 */
export function isNonPromotable(cmd: string): boolean {
  return nonPromotable(cmd, 0);
}

function nonPromotable(cmd: string, depth: number): boolean {
  const p = parseShell(cmd);
  if (!p.parseable) return true;
  if (p.keywords.some((k) => LOOP_KEYWORDS.has(k))) return false;
  for (const c of commandsOf(p)) {
    if (!c.words.length) continue; // group stand-ins, bare assignments and redirections run nothing themselves
    const verb = verbOf(c.words);
    if (verb !== "sleep" && !(verb === "git" && isShortGitQuery(c.words))) return false;
  }
  return depth >= MAX_NESTING || p.substitutions.every((s) => nonPromotable(s, depth + 1));
}

const OUTPUT_FILTERS = new Set(["tail", "head", "grep", "egrep", "fgrep", "rg"]);

/**
 * True when a pipeline sends a command's output through tail, head or grep in
 * a later stage: whatever the filter drops never reaches the saved output.
 */
export function needsPreservationReminder(cmd: string): boolean {
  return filtered(cmd, 0);
}

function filtered(cmd: string, depth: number): boolean {
  const p = parseShell(cmd);
  if (!p.parseable) return false;
  const piped = p.items.some(({ pipeline }) =>
    pipeline.stages.some((stage, i) => i > 0 && OUTPUT_FILTERS.has(verbOf(stage.words) ?? "")),
  );
  return piped || (depth < MAX_NESTING && p.substitutions.some((s) => filtered(s, depth + 1)));
}

export const PRESERVATION_REMINDER =
  "Note: this command's output went through tail, grep or head, so the lines they dropped were never " +
  "saved in the output log, and the pipeline's exit status may be the filter's rather than the check's. " +
  "Next time, run the command on its own and read or grep its saved output instead.";
