// What a Chord `edit` failure says about the closest span, in Chord's own
// layout: where it is and how similar, the first line that differs (file
// line, the model's line, the first differing character), whether whole
// lines drifted, the further differing lines, and what to do next. When a few
// lines differ the model can copy them from the message; when more do, or
// whole lines drifted, retyping the block from the message would only drift
// further, so it is sent to a bounded read of the span instead.

import { firstMismatch, lineDrift, quoteLine } from "../patch/hunk-diagnosis.js";
import type { ClosestWindow } from "./closest-window.js";

/** Differing lines a message shows; past this (or this many drifted lines) a fresh read is asked for. */
const SHOWN_DIFFS = 3;
/** Characters of one line a message quotes. */
const LINE_SHOWN = 240;

/** A line quoted for the report; a very long one only by its start. */
function quoted(line: string): string {
  const chars = [...line];
  if (chars.length <= LINE_SHOWN) return quoteLine(line);
  return `${quoteLine(chars.slice(0, LINE_SHOWN).join(""))} … (${chars.length - LINE_SHOWN} more characters)`;
}

/** A similarity in whole percent; never 100 for text that still differs. */
function percent(similarity: number, distance: number): number {
  const pct = Math.round(similarity * 100);
  return distance > 0 ? Math.min(pct, 99) : pct;
}

/** The report's lines, for old_string (LF) against the window the file offers. */
export function closestReport(oldStr: string, window: ClosestWindow): string[] {
  const old = oldStr.replace(/\n$/, "").split("\n");
  const file = window.text.split("\n");
  const at = (i: number) => window.line + i;
  const diffs = old.map((_, i) => i).filter((i) => old[i] !== file[i]);
  const first = diffs[0] ?? 0;
  const out = [
    `Closest match is at line ${window.line} (${percent(window.similarity, window.distance)}% similar, ${window.distance} character difference):`,
    `  file line ${at(first)}: ${file[first] === undefined ? "(past the end of the file)" : quoted(file[first]!)}`,
    `  your line ${first + 1}: ${quoted(old[first]!)}`,
  ];
  const rune = firstMismatch(old[first]!, file[first] ?? "");
  if (rune) out.push(`  ${rune}`);
  const drift = lineDrift(old, file);
  const drifted = drift.oldExtra + drift.fileExtra;
  if (drifted > 0) {
    out.push(
      `  line-count difference: your old_string has ${drift.oldExtra} extra line(s), the file has ${drift.fileExtra} extra line(s)` +
        (drift.blank ? " — the extra lines are blank, so the blank-line count differs" : ""),
    );
  }
  for (const i of diffs.slice(1, SHOWN_DIFFS)) {
    out.push(`  differing line ${i + 1} (file ${at(i)}): expected ${quoted(old[i]!)}`, `    actual ${file[i] === undefined ? "(past the end of the file)" : quoted(file[i]!)}`);
  }
  if (drifted <= SHOWN_DIFFS && diffs.length <= SHOWN_DIFFS) {
    out.push("Rebuild old_string from the file lines above (copy them exactly), then retry");
    return out;
  }
  const reason =
    drifted > 0
      ? `Whole lines drifted (${drift.oldExtra} vs ${drift.fileExtra} extra line(s) between you and the file)` +
        (diffs.length > SHOWN_DIFFS ? ` and ${SHOWN_DIFFS}+ lines differ in place` : "")
      : `More than ${SHOWN_DIFFS} lines differ in place`;
  out.push(
    `${reason}, so the lines above are not enough to rebuild old_string: read the file with offset=${window.line} limit=${old.length} ` +
      "(the closest match range), rebuild old_string from that fresh output, or use a smaller 2-4 line anchor; do not retype the block from memory",
  );
  return out;
}
