// Display width of terminal text, and cutting it to a width. Text measured
// here is already safe (see safe.ts) and may carry SGR colour codes, which
// take no columns.
//
// string-width is the measure Ink lays out with, but it segments graphemes
// with Intl.Segmenter (tens of µs per call): far too slow for every streaming
// delta. So widths are summed per code point from a memo of string-width's
// answer for that code point alone, with one correction so the sum is never
// narrower than string-width's answer for the whole: an emoji presentation
// selector or keycap mark widens a one-column base to two. Other clusters
// (skin tones, joined emoji) may count wider than they are, which only cuts or
// wraps a little early.

import stringWidth from "string-width";

const PLAIN_ASCII = /^[\x20-\x7e]*$/;
/** An escape sequence at a position: CSI, OSC (BEL or ST ended), or a two-byte ESC x. */
const ESCAPE_AT = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-Z\\-_]?/y;
const cpWidths = new Map<number, number>();
/** What takes no column: string-width's invisible classes. */
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Control}\p{Format}\p{Nonspacing_Mark}\p{Enclosing_Mark}\p{Surrogate}]/u;
/** The wide symbols there that are no emoji: angle brackets, trigrams, digrams. */
const WIDE_SYMBOLS: ReadonlyArray<readonly [number, number]> = [[0x2329, 0x232a], [0x2630, 0x2637], [0x268a, 0x268f]];
/** What string-width may count as an emoji (two columns). */
const EMOJI_LIKE = /[\p{Extended_Pictographic}\p{Emoji_Presentation}\p{Regional_Indicator}]/u;

/**
 * string-width's answer for one code point where it is known without it:
 * below U+1100 and among the symbols from U+2000 to U+2BFF (punctuation,
 * arrows, box drawing, shapes: the glyphs the view draws) every character
 * that is no emoji is narrow or invisible, but for a few wide symbols. string-width would compile its
 * RGI_Emoji expression for the first such glyph (tens of ms in the first frame).
 */
function knownWidth(ch: string, cp: number): number | undefined {
  const symbol = cp >= 0x2000 && cp < 0x2c00 && !WIDE_SYMBOLS.some(([from, to]) => cp >= from && cp <= to);
  if ((cp >= 0x1100 && !symbol) || EMOJI_LIKE.test(ch)) return undefined;
  return INVISIBLE.test(ch) ? 0 : 1;
}

function cpWidth(cp: number): number {
  if (cp >= 0x20 && cp < 0x7f) return 1;
  let w = cpWidths.get(cp);
  if (w === undefined) {
    const ch = String.fromCodePoint(cp);
    w = knownWidth(ch, cp) ?? stringWidth(ch);
    cpWidths.set(cp, w);
  }
  return w;
}

/** Walks a line: escape sequences (zero width) and code points with their widths. */
export function walk(s: string, onEscape: (seq: string) => void, onChar: (ch: string, w: number) => void): void {
  let cluster = 0;
  for (let i = 0; i < s.length; ) {
    if (s.charCodeAt(i) === 0x1b) {
      ESCAPE_AT.lastIndex = i;
      const seq = ESCAPE_AT.exec(s)?.[0] ?? "\x1b";
      onEscape(seq);
      i += seq.length;
      continue;
    }
    const cp = s.codePointAt(i)!;
    const ch = cp > 0xffff ? s.slice(i, i + 2) : s[i]!;
    i += ch.length;
    let w = cpWidth(cp);
    if ((cp === 0xfe0f || cp === 0x20e3) && cluster === 1) w = 1;
    cluster = w > 0 && cp !== 0xfe0f && cp !== 0x20e3 ? w : cluster + w;
    onChar(ch, w);
  }
}

/** Display columns of a line (SGR codes count zero); never below string-width's. */
export function widthOf(s: string): number {
  if (PLAIN_ASCII.test(s)) return s.length;
  let w = 0;
  walk(s, () => {}, (_c, cw) => (w += cw));
  return w;
}

export function fits(line: string, width: number): boolean {
  if (line.length <= width && PLAIN_ASCII.test(line)) return true;
  return widthOf(line) <= width;
}

/** Cuts one line to `width` columns, marking the cut with `…`. Plain text. */
export function truncate(text: string, width: number): string {
  if (width <= 0) return "";
  if (fits(text, width)) return text;
  let out = "";
  let w = 0;
  let full = false;
  // walk keeps an emoji's cluster width (a base and its VS16 count together).
  walk(text, () => {}, (ch, cw) => {
    if (full || w + cw > width - 1) {
      full = true;
      return;
    }
    out += ch;
    w += cw;
  });
  return `${out}…`;
}

/** Cuts from the left, keeping the end (paths, where the file name matters). */
export function truncateStart(text: string, width: number): string {
  if (width <= 0) return "";
  if (fits(text, width)) return text;
  const chars = Array.from(text);
  let start = chars.length;
  while (start > 0 && widthOf(chars.slice(start - 1).join("")) <= width - 1) start--;
  return `…${chars.slice(start).join("")}`;
}

/** Tabs to spaces at 4-column stops: Ink and the card layout measure a tab as no width. */
const TAB_WIDTH = 4;
export function expandTabs(text: string): string {
  if (!text.includes("\t")) return text;
  return text
    .split("\n")
    .map((line) => {
      if (!line.includes("\t")) return line;
      let out = "";
      for (const ch of line) out += ch === "\t" ? " ".repeat(TAB_WIDTH - (widthOf(out) % TAB_WIDTH)) : ch;
      return out;
    })
    .join("\n");
}

/**
 * string-width's answer itself, for the one place that must measure exactly
 * as Ink's frame grid does (components/ink-caches/output.ts, which stands in
 * for that grid): the layer above keeps every measure of terminal text here.
 */
export function inkStringWidth(s: string): number {
  return stringWidth(s);
}
