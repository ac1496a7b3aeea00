// Matching text that differs from a file only in how its punctuation is
// typed: curly vs straight quotes, dashes, and the full-width CJK forms of
// ASCII punctuation (and the space an ASCII separator takes where the
// full-width one takes none). Models often cannot reproduce a file's
// punctuation byte for byte; when the folded text matches in exactly one
// place, the change is spliced into the file's own characters, so only what
// the model meant to change changes. Characters with no content of their
// own (zero-width runes, variation selectors, combining marks with no letter
// under them) are folded out, kept in the file's spans.

import { isIgnorable, isOrphanMark } from "./invisible-chars.js";

const SINGLE: Record<string, string> = {
  "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u2032": "'",
  "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u2033": '"',
  "\u300c": '"', "\u300d": '"', "\u300e": '"', "\u300f": '"',
  "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-", "\u2212": "-",
  "\u3001": ",", "\u3002": ".", "\u3010": "[", "\u3011": "]", "\u300a": "<", "\u300b": ">",
  "\u3000": " ",
};

/** The ASCII form of one character (full-width forms U+FF01..U+FF5E included). */
function foldChar(c: string): string {
  const code = c.codePointAt(0)!;
  if (code >= 0xff01 && code <= 0xff5e) return String.fromCodePoint(code - 0xfee0);
  return SINGLE[c] ?? c;
}

const SEPARATOR = /[,;:.!?]/;
const WORD = /[\p{L}\p{N}]/u;

/** The space at `i` is the only one inside a parenthesis, against it ("( x )" vs "(x)"). */
const insideParen = (units: readonly string[], i: number, last: string): boolean =>
  !SPACE.test(units[i - 1] ?? "") && (last === "(" || foldChar(units[i + 1] ?? "") === ")");

/** The space at `i` is the only one between two word characters ("diff and" vs "diffand"). */
const betweenWords = (units: readonly string[], i: number): boolean =>
  WORD.test(units[i - 1] ?? "") && WORD.test(units[i + 1] ?? "");
const SPACE = /\s/;

export interface Folded {
  /** Folded characters (one string element each). */
  chars: string[];
  /** For each folded character, the [start, end) of the original text it stands for. */
  spans: Array<[number, number]>;
}

/**
 * How a text is folded. "text" (edit): punctuation folded, one space after
 * a separator is optional, and so is a single space between two words (a
 * model drops or adds one) or just inside a parenthesis (`( x )`, which a
 * full-width `（x）` reads as); indentation, runs of spaces and tabs stay
 * significant. "line" (a patch hunk's line): the indentation is kept, and
 * every other space is optional (re-spaced alignment, a dropped space
 * between words, trailing spaces).
 */
export type FoldMode = "text" | "line";

export function fold(text: string, mode: FoldMode): Folded {
  const chars: string[] = [];
  const spans: Array<[number, number]> = [];
  const units = [...text];
  let offset = 0;
  let indent = mode === "line";
  // "text" mode drops only one space after a separator.
  let absorbed = false;
  for (const [i, u] of units.entries()) {
    const start = offset;
    offset += u.length;
    if (isIgnorable(u) || isOrphanMark(units, i)) {
      const prev = spans[spans.length - 1];
      if (prev) prev[1] = offset;
      continue;
    }
    const isSpace = SPACE.test(u);
    if (indent && isSpace) {
      chars.push(u);
      spans.push([start, offset]);
      continue;
    }
    indent = false;
    const last = chars[chars.length - 1];
    const absorb =
      isSpace &&
      last !== undefined &&
      (mode === "line" || (SEPARATOR.test(last) && !absorbed) || (u === " " && (betweenWords(units, i) || insideParen(units, i, last))));
    if (absorb) {
      spans[spans.length - 1]![1] = offset;
      absorbed = true;
      continue;
    }
    absorbed = false;
    chars.push(foldChar(u));
    spans.push([start, offset]);
  }
  return { chars, spans };
}

/** Start indices (in folded characters) of non-overlapping occurrences of `needle` in `hay`. */
export function foldedOccurrences(hay: readonly string[], needle: readonly string[], limit = Infinity): number[] {
  const out: number[] = [];
  if (needle.length === 0) return out;
  for (let i = 0; i + needle.length <= hay.length && out.length < limit; ) {
    let k = 0;
    while (k < needle.length && hay[i + k] === needle[k]) k++;
    if (k === needle.length) {
      out.push(i);
      i += needle.length;
    } else i++;
  }
  return out;
}

/**
 * The text that replaces `file.slice(...)` (the span matching `oldText`
 * folded, starting at folded index `at` of `fileFold`): the file's own
 * characters for the part `oldText` and `newText` share, and `newText`'s
 * characters for what the model changed.
 */
export function spliceKeepingFile(fileText: string, fileFold: Folded, at: number, oldText: string, newText: string, mode: FoldMode): string {
  const oldF = fold(oldText, mode);
  const newF = fold(newText, mode);
  const n = oldF.chars.length;
  const same = (oi: number, ni: number) =>
    oldF.chars[oi] === newF.chars[ni] && oldText.slice(...oldF.spans[oi]!) === newText.slice(...newF.spans[ni]!);
  let prefix = 0;
  while (prefix < n && prefix < newF.chars.length && same(prefix, prefix)) prefix++;
  let suffix = 0;
  while (suffix < n - prefix && suffix < newF.chars.length - prefix && same(n - 1 - suffix, newF.chars.length - 1 - suffix)) suffix++;
  const fspan = (i: number) => fileFold.spans[at + i]!;
  let out = "";
  if (prefix > 0) out += fileText.slice(fspan(0)[0], fspan(prefix - 1)[1]);
  const deltaEnd = newF.chars.length - suffix;
  if (prefix < deltaEnd) out += newText.slice(newF.spans[prefix]![0], newF.spans[deltaEnd - 1]![1]);
  if (suffix > 0) out += fileText.slice(fspan(n - suffix)[0], fspan(n - 1)[1]);
  return out;
}

/** Whether two lines are equal once folded as patch lines. */
export function tolerantLineEq(a: string, b: string): boolean {
  if (a === b) return true;
  const fa = fold(a, "line").chars;
  const fb = fold(b, "line").chars;
  return fa.length === fb.length && fa.every((c, i) => c === fb[i]);
}

/** A patch line changed tolerantly: the file's line with the model's change spliced in. */
export function tolerantLineReplace(fileLine: string, oldLine: string, newLine: string): string {
  if (fileLine === oldLine) return newLine;
  const fileFold = fold(fileLine, "line");
  const oldFold = fold(oldLine, "line").chars;
  // Matched only after whitespace normalisation (indentation differs): the model's line as written.
  if (fileFold.chars.length !== oldFold.length || fileFold.chars.some((c, i) => c !== oldFold[i])) return newLine;
  return spliceKeepingFile(fileLine, fileFold, 0, oldLine, newLine, "line");
}
