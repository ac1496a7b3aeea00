// The meaning of exit code 1 for single-verb commands where 1 is an answer
// (no matches, files differ, condition false), not a failure.

import { parseShell, verbOf } from "../../../core/shell/index.js";

/** Exit-1 meanings for commands where 1 is an answer, not a failure. */
const EXIT_ONE_MEANINGS = new Map<string, string>([
  ["grep", "no matches"],
  ["egrep", "no matches"],
  ["fgrep", "no matches"],
  ["rg", "no matches"],
  ["ripgrep", "no matches"],
  ["ag", "no matches"],
  ["diff", "files differ"],
  ["cmp", "files differ"],
  ["find", "errors during traversal (consult stderr)"],
  ["test", "condition is false"],
  ["[", "condition is false"],
]);

/**
 * The meaning of exit 1 for a single-verb command: one command, no pipeline,
 * list, negation, compound keyword or substitution, so the status is its own.
 */
export function exitMeaning(cmd: string, code: number): string | undefined {
  if (code !== 1) return undefined;
  const p = parseShell(cmd);
  if (!p.parseable || p.keywords.length || p.substitutions.length || p.items.length !== 1) return undefined;
  const item = p.items[0]!;
  if (item.op === "&" || item.pipeline.negated || item.pipeline.stages.length !== 1) return undefined;
  const verb = verbOf(item.pipeline.stages[0]!.words);
  return verb === undefined ? undefined : EXIT_ONE_MEANINGS.get(verb);
}
