// Content-blind filters for command output: they remove noise
// that costs the model tokens without telling it anything, and never look at
// what the command was. Each collapse is switched by its own [tools] flag.

import stripAnsi from "strip-ansi";
import type { Config } from "../../core/config/schema.js";
import { safeOutput } from "../../core/text/safe.js";
import { collapseSimilarLines } from "../../core/text/output-lines.js";
import { foldTracebackFrames } from "./traceback-fold.js";

const isBlank = (line: string) => line.trim() === "";

/** Runs of 3+ blank lines become 2. */
export function collapseBlankLines(text: string): string {
  const out: string[] = [];
  let blanks = 0;
  for (const line of text.split("\n")) {
    blanks = isBlank(line) ? blanks + 1 : 0;
    if (blanks <= 2) out.push(line);
  }
  return out.join("\n");
}

/** A run of N ≥ 2 identical non-blank lines becomes `<line> [×N]`. */
export function collapseDuplicateLines(text: string): string {
  const lines = text.split("\n");
  const out: string[] = [];
  for (let i = 0; i < lines.length; ) {
    const line = lines[i]!;
    let j = i + 1;
    while (j < lines.length && lines[j] === line) j++;
    const run = j - i;
    if (run >= 2 && !isBlank(line)) out.push(`${line} [×${run}]`);
    else for (let k = i; k < j; k++) out.push(line);
    i = j;
  }
  return out.join("\n");
}

/**
 * Output is collapsed by similarity only past this share of the size bound:
 * shorter output is shown line for line, as the program wrote it.
 */
const SIMILAR_AFTER_SHARE = 0.5;

/**
 * The model's view of command output: escape sequences stripped, redrawn
 * lines at their last state, control characters shown (never sent raw),
 * then the switched collapses. `bound` is the size the result must fit in;
 * similar lines are collapsed only when the text is over half of it.
 */
export function filterOutput(text: string, tools: Config["tools"], bound = Number.POSITIVE_INFINITY): string {
  let out = tools.strip_ansi ? stripAnsi(text) : text;
  out = safeOutput(out);
  if (tools.collapse_blank_lines) out = collapseBlankLines(out);
  if (tools.collapse_duplicate_lines) out = collapseDuplicateLines(foldTracebackFrames(out));
  if (tools.collapse_similar_lines && Buffer.byteLength(out) > bound * SIMILAR_AFTER_SHARE) out = collapseSimilarLines(out);
  return out;
}
