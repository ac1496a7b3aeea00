// A composer edit painted before React renders it. A keystroke that only
// changes the composer's cursor row (a character typed, Backspace, a cursor
// move on one line) is drawn at once from the buffer, in the bytes Ink paints
// that row with; the render that follows paints the same row and writes
// nothing for it. Everything else (a row that wraps, paste chips, tabs,
// combining or zero-width marks, emoji, other rows changing) is left to the
// render. The row as it was is handed over too: the screen writer paints the
// edit only if its last frame holds exactly that row, so a guess that does
// not match what Ink painted (another colour depth, a state not foreseen
// here) costs nothing but the fast path.

import { textOf, type Buffer, type Token } from "./composer-buffer.js";
import { widthOf } from "../core/text/width.js";

/** The cursor row before and after an edit, and the cells from `column` on that changed. */
export interface RowEcho {
  /** The row as the last frame shows it. */
  before: string;
  /** The row after the edit, as Ink will paint it. */
  after: string;
  /** The first cell (0-based) that differs. */
  column: number;
  /** What `after` holds from `column` to its end. */
  tail: string;
  /** The row got narrower: what is left past its end is erased. */
  shrinks: boolean;
}

/** The draft's text before and after the edit, for the view's own checks (the command list, the composer's height). */
export interface ComposerEcho extends RowEcho {
  textBefore: string;
  textAfter: string;
}

// Ink's serialization of the composer's row: the prompt glyph in the accent
// colour (cyan), the cursor cell inverse.
const GLYPH = "\x1b[36m› \x1b[39m";
const INDENT = "\x1b[36m  \x1b[39m";
const GLYPH_CELLS = 2;
const INVERSE = "\x1b[7m";
const INVERSE_OFF = "\x1b[27m";

/**
 * A code point Ink paints as itself in one or two cells, as a cell of its
 * own: no control, mark, joiner, selector or emoji (which join neighbours or
 * measure differently in Ink and the terminal).
 */
const PLAIN = /^[^\p{Cc}\p{Cf}\p{M}\p{Cs}\p{Co}\p{Cn}\p{Extended_Pictographic}\p{Regional_Indicator}\u{1F3FB}-\u{1F3FF}\u115f\u1160\u3164\uffa0]$/u;
const plain = new Map<string, boolean>();
function isPlain(t: Token): t is string {
  if (typeof t !== "string") return false;
  let ok = plain.get(t);
  if (ok === undefined) {
    const w = PLAIN.test(t) ? widthOf(t) : 0;
    ok = w === 1 || w === 2;
    plain.set(t, ok);
  }
  return ok;
}

interface Row {
  /** Index of the row's first token, and its tokens. */
  start: number;
  tokens: Token[];
  /** The cursor's place in the row, and the row's number among the draft's lines. */
  cursor: number;
  line: number;
}

/** The line the cursor is on. */
function cursorRow(b: Buffer): Row {
  let start = 0;
  let line = 0;
  for (let i = 0; i < b.cursor; i++) {
    if (b.tokens[i] === "\n") {
      start = i + 1;
      line++;
    }
  }
  let end = b.cursor;
  while (end < b.tokens.length && b.tokens[end] !== "\n") end++;
  return { start, tokens: b.tokens.slice(start, end), cursor: b.cursor - start, line };
}

/** The row from token `from` on (from ≤ cursor): the text, the inverse cursor cell, the rest. */
function paintFrom(row: Row, from: number): string {
  const t = row.tokens as string[];
  return t.slice(from, row.cursor).join("") + INVERSE + (t[row.cursor] ?? " ") + INVERSE_OFF + t.slice(row.cursor + 1).join("");
}

const cells = (tokens: readonly Token[]) => widthOf((tokens as string[]).join(""));
/** The cells a row takes: its text, and the cursor's own cell past the end. */
const rowCells = (row: Row) => cells(row.tokens) + (row.cursor === row.tokens.length ? 1 : 0);

/**
 * The echo of the edit `before` → `after` on a composer `width` cells wide
 * (its text area, without the glyph), or undefined when it takes more than
 * the cursor row: the cursor changed lines, the lines around it changed, or
 * the row holds something painted otherwise or does not fit on one row.
 */
export function composerEcho(before: Buffer, after: Buffer, width: number): ComposerEcho | undefined {
  const a = cursorRow(before);
  const b = cursorRow(after);
  if (a.line !== b.line || a.start !== b.start) return undefined;
  if (!a.tokens.every(isPlain) || !b.tokens.every(isPlain)) return undefined;
  // The cursor cell counts: a row exactly as wide as the composer already wraps it.
  if (cells(a.tokens) + 1 > width || cells(b.tokens) + 1 > width) return undefined;
  const restA = before.tokens.length - a.start - a.tokens.length;
  const restB = after.tokens.length - b.start - b.tokens.length;
  if (restA !== restB) return undefined;
  for (let i = 0; i < a.start; i++) if (before.tokens[i] !== after.tokens[i]) return undefined;
  for (let i = 1; i <= restA; i++) if (before.tokens[before.tokens.length - i] !== after.tokens[after.tokens.length - i]) return undefined;
  let same = 0;
  while (same < a.tokens.length && same < b.tokens.length && a.tokens[same] === b.tokens[same]) same++;
  const from = Math.min(same, a.cursor, b.cursor);
  const prefix = a.line === 0 ? GLYPH : INDENT;
  const rowBefore = prefix + paintFrom(a, 0);
  const rowAfter = prefix + paintFrom(b, 0);
  if (rowBefore === rowAfter) return undefined;
  return {
    before: rowBefore,
    after: rowAfter,
    column: GLYPH_CELLS + cells(b.tokens.slice(0, from)),
    tail: paintFrom(b, from),
    shrinks: rowCells(b) < rowCells(a),
    textBefore: textOf(before.tokens),
    textAfter: textOf(after.tokens),
  };
}
