// The composer's text as pure edits: a buffer and its cursor go in, a new
// buffer comes out. The buffer is a list of tokens: one code point each (so
// an emoji never splits under the cursor), or a paste chip that stands for a
// long paste as a whole. A chip moves and deletes as one character and
// expands to its full text when the message is sent.

import { dropControls } from "../core/text/safe.js";

interface Chip {
  text: string;
  lines: number;
}
export type Token = string | Chip;
export interface Buffer {
  tokens: Token[];
  cursor: number;
}

/** A paste of more lines than this, or more characters, is collapsed into a chip. */
const PASTE_MAX_LINES = 10;
const PASTE_MAX_CHARS = 1000;

export const EMPTY: Buffer = { tokens: [], cursor: 0 };

/** The text the buffer stands for, chips expanded. */
export const textOf = (tokens: readonly Token[]): string => tokens.map((t) => (typeof t === "string" ? t : t.text)).join("");

/** Terminal input as buffer text: CR/CRLF become LF, other controls are dropped. */
const clean = (text: string) => dropControls(text.replace(/\r\n?/g, "\n"));

/** Text as tokens; `collapse`: a long paste becomes one chip. */
export function tokensOf(text: string, collapse: boolean): Token[] {
  const t = clean(text);
  const lines = t.replace(/\n$/, "").split("\n").length;
  const long = lines > PASTE_MAX_LINES || t.length > PASTE_MAX_CHARS;
  return collapse && long ? [{ text: t, lines }] : Array.from(t);
}

/** A buffer holding `text`, cursor at its end. */
export function bufferOf(text: string, collapse = true): Buffer {
  const tokens = tokensOf(text, collapse);
  return { tokens, cursor: tokens.length };
}

export function lineStart(tokens: readonly Token[], i: number): number {
  while (i > 0 && tokens[i - 1] !== "\n") i--;
  return i;
}

export function lineEnd(tokens: readonly Token[], i: number): number {
  while (i < tokens.length && tokens[i] !== "\n") i++;
  return i;
}

export function insert(b: Buffer, add: Token[]): Buffer {
  const tokens = [...b.tokens.slice(0, b.cursor), ...add, ...b.tokens.slice(b.cursor)];
  return { tokens, cursor: b.cursor + add.length };
}

export function remove(b: Buffer, from: number, to: number): Buffer {
  if (from < 0 || to > b.tokens.length || from >= to) return b;
  return { tokens: [...b.tokens.slice(0, from), ...b.tokens.slice(to)], cursor: from };
}

/** Up/Down inside the text: the same column on the line above or below; undefined at the edge. */
export function vertical(b: Buffer, dir: -1 | 1): Buffer | undefined {
  const start = lineStart(b.tokens, b.cursor);
  const col = b.cursor - start;
  if (dir < 0) {
    if (start === 0) return undefined;
    const prev = lineStart(b.tokens, start - 1);
    return { ...b, cursor: Math.min(prev + col, start - 1) };
  }
  const end = lineEnd(b.tokens, b.cursor);
  if (end === b.tokens.length) return undefined;
  return { ...b, cursor: Math.min(end + 1 + col, lineEnd(b.tokens, end + 1)) };
}

const isSpace = (t: Token | undefined) => typeof t === "string" && /\s/u.test(t);
/** A word character for Alt+B/F/Backspace: letters and digits (a chip counts as one word). */
const isWordChar = (t: Token | undefined) => t !== undefined && (typeof t !== "string" || /[\p{L}\p{N}_]/u.test(t));

/** Ctrl+A: to the start of the line. */
export const toLineStart = (b: Buffer): Buffer => ({ ...b, cursor: lineStart(b.tokens, b.cursor) });
/** Ctrl+E: to the end of the line. */
export const toLineEnd = (b: Buffer): Buffer => ({ ...b, cursor: lineEnd(b.tokens, b.cursor) });
/** Ctrl+K: delete from the cursor to the end of the line. */
export const killToLineEnd = (b: Buffer): Buffer => remove(b, b.cursor, lineEnd(b.tokens, b.cursor));
/** Ctrl+U: delete from the start of the line to the cursor. */
export const killToLineStart = (b: Buffer): Buffer => remove(b, lineStart(b.tokens, b.cursor), b.cursor);

/** Ctrl+W: delete the whitespace-separated word before the cursor (and the blanks after it). */
export function killBigWordBack(b: Buffer): Buffer {
  let i = b.cursor;
  while (i > 0 && isSpace(b.tokens[i - 1])) i--;
  while (i > 0 && b.tokens[i - 1] !== undefined && !isSpace(b.tokens[i - 1])) i--;
  return remove(b, i, b.cursor);
}

/** Where Alt+B lands: the start of the word before the cursor. */
function wordStartBefore(b: Buffer): number {
  let i = b.cursor;
  while (i > 0 && !isWordChar(b.tokens[i - 1])) i--;
  while (i > 0 && isWordChar(b.tokens[i - 1])) i--;
  return i;
}

/** Alt+B: back to the start of the word. */
export const wordBack = (b: Buffer): Buffer => ({ ...b, cursor: wordStartBefore(b) });

/** Alt+F: forward to the end of the word. */
export function wordForward(b: Buffer): Buffer {
  let i = b.cursor;
  while (i < b.tokens.length && !isWordChar(b.tokens[i])) i++;
  while (i < b.tokens.length && isWordChar(b.tokens[i])) i++;
  return { ...b, cursor: i };
}

/** Alt+Backspace: delete back to the start of the word (punctuation stops it, as in readline). */
export const killWordBack = (b: Buffer): Buffer => remove(b, wordStartBefore(b), b.cursor);

/** The readline edits by name, for the key table. */
export const READLINE_EDITS = {
  lineStart: toLineStart,
  lineEnd: toLineEnd,
  killLineEnd: killToLineEnd,
  killLineStart: killToLineStart,
  killBigWordBack,
  wordBack,
  wordForward,
  killWordBack,
} as const;
export type ReadlineEdit = keyof typeof READLINE_EDITS;

/** The readline edit a key asks for: Ctrl+A/E/K/U/W, Alt+B/F/Backspace (Alt arrives as ESC before the key). */
export function readlineEditFor(input: string, key: { ctrl: boolean; meta: boolean; backspace: boolean; delete: boolean }, raw: string): ReadlineEdit | undefined {
  if (key.ctrl && !key.meta) {
    const byCtrl: Record<string, ReadlineEdit> = { a: "lineStart", e: "lineEnd", k: "killLineEnd", u: "killLineStart", w: "killBigWordBack" };
    return byCtrl[input];
  }
  if (key.meta) {
    // ESC DEL (or ESC BS): Alt+Backspace; Ink reports it as a meta delete or backspace.
    if (raw === "\x1b\x7f" || raw === "\x1b\b" || ((key.backspace || key.delete) && !raw.startsWith("\x1b["))) return "killWordBack";
    if (input === "b") return "wordBack";
    if (input === "f") return "wordForward";
  }
  return undefined;
}

/**
 * The `@path` being typed at the cursor: its start in the buffer and the
 * text after the `@`; undefined when the cursor is not in a mention.
 */
export function mentionAt(b: Buffer): { start: number; query: string } | undefined {
  let i = b.cursor;
  while (i > 0 && typeof b.tokens[i - 1] === "string" && !isSpace(b.tokens[i - 1]) && b.tokens[i - 1] !== "@") i--;
  if (b.tokens[i - 1] !== "@") return undefined;
  const before = b.tokens[i - 2];
  if (before !== undefined && !isSpace(before)) return undefined;
  return { start: i - 1, query: (b.tokens.slice(i, b.cursor) as string[]).join("") };
}

/** Replaces the mention at the cursor with `@completion` and a space after it. */
export function completeMention(b: Buffer, completion: string): Buffer {
  const at = mentionAt(b);
  if (!at) return b;
  const end = b.cursor;
  const cut = remove({ ...b, cursor: end }, at.start, end);
  return insert(cut, Array.from(`@${completion} `));
}
