// The compound-command check behind the Chord shell guard: an allow rule
// with a specific pattern vouches for one command, never for a chain the
// model built around it.

import { parseShell } from "./parser.js";

/** Substitutions and `bash -c` scripts nest; deeper than this is not worth judging. */
export const MAX_NESTING = 4;

/**
 * True when the command chains or backgrounds anything: an unquoted `;`,
 * `&&`, `||`, `|`, `&` or a newline before another command, including inside
 * a command substitution. A command that does not parse counts as compound,
 * since nothing about it can be vouched for.
 */
export function isCompound(cmd: string): boolean {
  return compound(cmd, 0);
}

function compound(cmd: string, depth: number): boolean {
  const p = parseShell(cmd);
  if (!p.parseable || p.hasOperator) return true;
  return depth < MAX_NESTING && p.substitutions.some((s) => compound(s, depth + 1));
}
