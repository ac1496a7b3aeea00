// What a Chord hunk failure says about the line that did not match, so the
// model can fix the hunk without reading the file again: the first old line
// as it wrote it (invisible characters spelled out), the first character
// where a diverging line parts from the file's, and whether the two differ
// by whole lines.

import { tolerantLineEq } from "../punctuation-fold.js";

/** Zero-width, joiner, direction and variation-selector characters, and other format characters. */
const INVISIBLE = /[\p{Cf}\ufe00-\ufe0f]/gu;

/** A line quoted for a message, with characters that do not show written as \uXXXX. */
export function quoteLine(line: string): string {
  return JSON.stringify(line).replace(INVISIBLE, (c) => `\\u${c.codePointAt(0)!.toString(16).padStart(4, "0")}`);
}

/** The hunk's first old line; past 120 characters only its start, labelled a prefix. */
export function expectedLineDescription(old: readonly string[]): string | undefined {
  if (old.length === 0) return undefined;
  const chars = [...old[0]!];
  if (chars.length > 120) return `first expected line prefix: ${quoteLine(chars.slice(0, 120).join(""))}`;
  return `first expected complete line: ${quoteLine(old[0]!)}`;
}

const codePoint = (c: string): string => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;

/**
 * `first mismatch at rune 10 (1-based): your line has U+0032, file has
 * U+0031`: the character where the two lines part, counted from 1, each side
 * by code point so an invisible difference shows; a side with nothing there
 * is an empty line or one that ends earlier. Undefined when the lines are
 * equal.
 */
export function firstMismatch(yours: string, file: string): string | undefined {
  const a = [...yours];
  const b = [...file];
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (i === a.length && i === b.length) return undefined;
  const side = (chars: string[]) =>
    i < chars.length ? codePoint(chars[i]!) : `no characters (${chars.length === 0 ? "line is empty" : "line ends here"})`;
  return `first mismatch at rune ${i + 1} (1-based): your line has ${side(a)}, file has ${side(b)}`;
}

/**
 * When the hunk's old lines and the file's lines where it was placed differ
 * by whole lines, how many each side has extra, and whether every extra line
 * is blank. Lines are aligned by the longest run of equal lines; between two
 * aligned lines, as many lines on each side are a changed line each (a
 * retyped line is not a drift), and only the rest count as extra.
 */
export function lineCountDifference(old: readonly string[], window: readonly string[], subject = "your hunk"): string | undefined {
  const d = lineDrift(old, window);
  if (d.oldExtra === 0 && d.fileExtra === 0) return undefined;
  return (
    `line-count difference: ${subject} has ${d.oldExtra} extra line(s), the file has ${d.fileExtra} extra line(s)` +
    (d.blank ? " — the extra lines are blank, so the blank-line count differs" : "")
  );
}

export interface LineDrift {
  oldExtra: number;
  fileExtra: number;
  /** Every extra line is blank. */
  blank: boolean;
}

/** The counts behind lineCountDifference. */
export function lineDrift(old: readonly string[], window: readonly string[]): LineDrift {
  const n = old.length;
  const m = window.length;
  const common: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      common[i]![j] = tolerantLineEq(old[i]!, window[j]!) ? common[i + 1]![j + 1]! + 1 : Math.max(common[i + 1]![j]!, common[i]![j + 1]!);
    }
  }
  const extra: string[] = [];
  let oldExtra = 0;
  let fileExtra = 0;
  let gapOld: string[] = [];
  let gapFile: string[] = [];
  const closeGap = () => {
    // Paired lines are changed lines; the surplus of the longer side is extra.
    const paired = Math.min(gapOld.length, gapFile.length);
    oldExtra += gapOld.length - paired;
    fileExtra += gapFile.length - paired;
    extra.push(...gapOld.slice(paired), ...gapFile.slice(paired));
    gapOld = [];
    gapFile = [];
  };
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && tolerantLineEq(old[i]!, window[j]!)) {
      closeGap();
      i++;
      j++;
    } else if (j >= m || (i < n && common[i + 1]![j]! >= common[i]![j + 1]!)) gapOld.push(old[i++]!);
    else gapFile.push(window[j++]!);
  }
  closeGap();
  return { oldExtra, fileExtra, blank: extra.every((l) => l.trim() === "") };
}
