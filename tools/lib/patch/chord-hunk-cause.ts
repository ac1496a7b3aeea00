// Why a Chord hunk's old lines are not in the file, in the words Chord's
// apply_patch uses, so a model that learned them recognises each case: the
// hunk's leading lines match and a later one diverges; its one line is only
// part of a file line; its first line is close to a file line (with how
// close); or its first line is nowhere in the file. Each case that calls
// for a fresh read says what to re-read.

import { similarity } from "../edit-candidates.js";
import { tolerantLineEq } from "../punctuation-fold.js";
import { firstMismatch, lineCountDifference, quoteLine } from "./hunk-diagnosis.js";

const REREAD = "the file may have changed — re-read the current target range and rebuild this hunk from current complete lines";

/** Below this a file line is too far from the hunk's first line to be offered as what the model meant. */
const MIN_CLOSEST_SIMILARITY = 0.6;

/** `12\tline`, `12| line`, `12: line`: a line as a numbered view shows it. */
const LINE_NUMBER_PREFIX = /^\s*\d+(?:\t|\| ?|: )/;

/**
 * Every non-blank old line starts with a line number as `read` shows it,
 * and without it the first one is a line of the file.
 */
function lineNumberPrefixCause(lines: readonly string[], old: readonly string[]): string | undefined {
  const given = old.filter((l) => l.trim() !== "");
  if (given.length === 0 || !given.every((l) => LINE_NUMBER_PREFIX.test(l))) return undefined;
  const bare = given[0]!.replace(LINE_NUMBER_PREFIX, "");
  if (!lines.some((l) => tolerantLineEq(l, bare))) return undefined;
  return `the hunk's lines start with line numbers (${JSON.stringify(given[0])}); copy the lines without the line numbers or the tab separator`;
}

/** A line as compared for closeness: its spacing evened out (a re-spaced line is the same line). */
const evened = (line: string): string => line.trim().replace(/\s+/g, " ");

/** The file line in the window most like `first`, and how alike (1 − edit distance over the longer line). */
function closestLine(lines: readonly string[], first: string, windowStart: number): { line: number; sim: number } | undefined {
  const needle = evened(first);
  if (needle === "") return undefined;
  let best: { line: number; sim: number } | undefined;
  for (let i = windowStart; i < lines.length; i++) {
    const hay = evened(lines[i]!);
    if (hay === "") continue;
    const sim = similarity(needle, hay);
    if (!best || sim > best.sim) best = { line: i, sim };
  }
  return best;
}

/** The longest run of the hunk's old lines found in the window: where it starts and how many lines. */
function longestLeadingRun(lines: readonly string[], old: readonly string[], windowStart: number): { at: number; count: number } {
  let best = { at: -1, count: 0 };
  for (let at = windowStart; at < lines.length; at++) {
    let k = 0;
    while (k < old.length && at + k < lines.length && tolerantLineEq(lines[at + k]!, old[k]!)) k++;
    if (k > best.count) best = { at, count: k };
  }
  return best;
}

/** The causes, most telling first; an End-of-File hunk is only compared with the file's tail. */
export function missingHunkCause(lines: readonly string[], old: readonly string[], from: number, eof: boolean): string[] {
  const windowStart = eof ? Math.max(from, lines.length - old.length) : from;
  const numbered = lineNumberPrefixCause(lines, old);
  if (numbered) return [numbered];
  const run = longestLeadingRun(lines, old, windowStart);
  if (run.count > 0 && run.count < old.length) {
    const fileLine = lines[run.at + run.count];
    const yours = old[run.count]!;
    const out = [
      `the first ${run.count} line(s) of the hunk match at line ${run.at + 1}, but the next expected line differs from the file: ` +
        (fileLine === undefined ? `expected ${quoteLine(yours)}, but the file has no more lines` : `expected ${quoteLine(yours)}, found ${quoteLine(fileLine)}`),
    ];
    const rune = fileLine === undefined ? undefined : firstMismatch(yours, fileLine);
    if (rune) out.push(rune);
    const drift = lineCountDifference(old, lines.slice(run.at, run.at + old.length));
    if (drift) out.push(drift);
    return [...out, REREAD];
  }
  const first = old[0]?.trim() ?? "";
  if (first !== "") {
    const part = lines.findIndex((l, i) => i >= windowStart && l.includes(first) && l.trim() !== first);
    if (part >= 0) return [`the expected text is only part of current line ${part + 1}; include that complete line in the hunk: ${quoteLine(lines[part]!)}`];
  }
  const close = old[0] === undefined ? undefined : closestLine(lines, old[0], windowStart);
  if (close && close.sim >= MIN_CLOSEST_SIMILARITY) {
    return [
      `the first line of the hunk matches no file line; the closest file line is ${close.line + 1} (${Math.round(close.sim * 100)}% similar): ` +
        `found ${quoteLine(lines[close.line]!)}, expected ${quoteLine(old[0]!)}; ${REREAD}`,
    ];
  }
  if (old[0] !== undefined && !lines.some((l) => tolerantLineEq(l, old[0]!))) {
    return [
      "the expected line does not exist in the current file; the file may have changed since it was last read, or the line was invented" +
        " — re-read the current target range and rebuild this hunk from current complete lines",
    ];
  }
  return [`the first expected line does not exist in the current file ${eof ? "at its end" : `after line ${from}`}`];
}
