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

interface Analysis {
  old: string[];
  file: string[];
  /** Indexes (in old_string's lines) of the lines that differ from the file's. */
  diffs: number[];
  first: number;
  oldExtra: number;
  fileExtra: number;
  blank: boolean;
}

function analyse(oldStr: string, window: ClosestWindow): Analysis {
  const old = oldStr.replace(/\n$/, "").split("\n");
  const file = window.text.split("\n");
  const diffs = old.map((_, i) => i).filter((i) => old[i] !== file[i]);
  const drift = lineDrift(old, file);
  return { old, file, diffs, first: diffs[0] ?? 0, oldExtra: drift.oldExtra, fileExtra: drift.fileExtra, blank: drift.blank };
}

const header = (window: ClosestWindow) =>
  `Closest match is at line ${window.line} (${percent(window.similarity, window.distance)}% similar, ${window.distance} character difference):`;
/** A window line, or where the window ran out: the file's end, or only the span's (a shorter one). */
const windowLine = (a: Analysis, window: ClosestWindow, i: number) =>
  a.file[i] !== undefined ? quoted(a.file[i]!) : window.short ? "(past the end of the closest span)" : "(past the end of the file)";
const fileLine = (a: Analysis, window: ClosestWindow) => `  file line ${window.line + a.first}: ${windowLine(a, window, a.first)}`;
const yourLine = (a: Analysis) => `  your line ${a.first + 1}: ${quoted(a.old[a.first]!)}`;
const freshRead = (window: ClosestWindow, lines: number, reason: string) =>
  `${reason}: read the file with offset=${window.line} limit=${lines} (the closest match range), ` +
  "rebuild old_string from that fresh output, or use a smaller 2-4 line anchor; do not retype the block from memory";

/** The report's lines, for old_string (LF) against the window the file offers. */
export function closestReport(oldStr: string, window: ClosestWindow): string[] {
  const a = analyse(oldStr, window);
  const { old, file, diffs, first } = a;
  const at = (i: number) => window.line + i;
  const out = [header(window), fileLine(a, window), yourLine(a)];
  // A line the window does not have is not an empty line: no character to compare.
  const rune = file[first] !== undefined && firstMismatch(old[first]!, file[first]!);
  if (rune) out.push(`  ${rune}`);
  const drifted = a.oldExtra + a.fileExtra;
  if (drifted > 0) {
    out.push(
      `  line-count difference: your old_string has ${a.oldExtra} extra line(s), the file has ${a.fileExtra} extra line(s)` +
        (a.blank ? " — the extra lines are blank, so the blank-line count differs" : ""),
    );
  }
  for (const i of diffs.slice(1, SHOWN_DIFFS)) {
    out.push(`  differing line ${i + 1} (file ${at(i)}): expected ${quoted(old[i]!)}`, `    actual ${windowLine(a, window, i)}`);
  }
  if (drifted <= SHOWN_DIFFS && diffs.length <= SHOWN_DIFFS) {
    out.push("Rebuild old_string from the file lines above (copy them exactly), then retry");
    return out;
  }
  const reason =
    drifted > 0
      ? `Whole lines drifted (${a.oldExtra} vs ${a.fileExtra} extra line(s) between you and the file)` +
        (diffs.length > SHOWN_DIFFS ? ` and ${SHOWN_DIFFS}+ lines differ in place` : "")
      : `More than ${SHOWN_DIFFS} lines differ in place`;
  out.push(freshRead(window, old.length, `${reason}, so the lines above are not enough to rebuild old_string`));
  return out;
}

/**
 * Three lines for one entry of a failed batch, which may fail many at once:
 * where the closest span is, its first differing file line, and the model's
 * line when that one line is all that differs, else a bounded read.
 */
export function closestSummary(oldStr: string, window: ClosestWindow): string[] {
  const a = analyse(oldStr, window);
  const one =
    a.diffs.length === 1 && a.oldExtra + a.fileExtra === 0 && [...a.old[a.first]!].length <= LINE_SHOWN && [...(a.file[a.first] ?? "")].length <= LINE_SHOWN;
  return [
    `  ${header(window)}`,
    fileLine(a, window),
    one ? yourLine(a) : `  ${freshRead(window, a.old.length, "The displayed lines are not enough to rebuild old_string")}`,
  ];
}
