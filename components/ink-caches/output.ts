// Stands in for Ink's build/output.js in the bundle (scripts/build.mjs swaps
// the module): the grid a frame is painted on, with the same result as Ink's.
// Ink's grid starts from nothing each frame: every line of every text is
// parsed into styled cells again and every row is serialized again, which
// for a full screen of transcript is most of a frame's time, though between
// two keystrokes only the composer's row changes. Here what a line parses to
// and what it is clipped to are kept across frames (bounded), cells are
// shared objects, and a row whose cells are the very cells of the last
// frame's row is not serialized again.

import sliceAnsi from "slice-ansi";
import { inkStringWidth as stringWidth } from "../../core/text/width.js";
import { styledCharsFromTokens, styledCharsToString, tokenize, type StyledChar } from "@alcalzone/ansi-tokenize";

interface Clip {
  x1?: number;
  x2?: number;
  y1?: number;
  y2?: number;
}
type Transformer = (line: string, index: number) => string;
/** A text placed at (x, y), or a clip begun or ended, in the order the painter gave them. */
type Operation = { kind: "text"; x: number; y: number; text: string; transformers: Transformer[] } | { kind: "clip"; clip: Clip } | { kind: "unclip" };
type Cell = StyledChar | undefined;

/** A line as cells, each with the columns it takes. */
interface Parsed {
  cells: StyledChar[];
  widths: number[];
}

/**
 * A cache of two generations: a hit costs one or two lookups (no reordering,
 * as a frame asks for hundreds of entries); when the young one is full it
 * becomes the old one, and what was not asked for since is dropped.
 */
function generations<V>(limit: number): { get(key: string): V | undefined; set(key: string, value: V): void } {
  let young = new Map<string, V>();
  let old = new Map<string, V>();
  return {
    get(key) {
      const hit = young.get(key);
      if (hit !== undefined) return hit;
      const aged = old.get(key);
      if (aged !== undefined) this.set(key, aged);
      return aged;
    },
    set(key, value) {
      if (young.size >= limit) [old, young] = [young, new Map()];
      young.set(key, value);
    },
  };
}

const BLANK: StyledChar = Object.freeze({ type: "char", value: " ", fullWidth: false, styles: [] }) as StyledChar;
// A screen holds a few dozen lines: a few hundred keep it and the recent
// frames hot (a parsed line is an object per cell, so more would be memory).
const parsed = generations<Parsed>(200);
const widths = generations<number>(1000);
const clipped = generations<string>(200);
/** The empty cell after a wide character, one per character (its styles are the character's). */
const fillers = new WeakMap<StyledChar, StyledChar>();
/** The last frame's rows and their text, for rows that did not change. */
let lastRows: Cell[][] = [];
let lastText: string[] = [];

function widthOf(text: string): number {
  let w = widths.get(text);
  if (w === undefined) {
    w = stringWidth(text);
    widths.set(text, w);
  }
  return w;
}

function widestOf(lines: readonly string[]): number {
  let w = 0;
  for (const line of lines) w = Math.max(w, widthOf(line));
  return w;
}

function parse(line: string): Parsed {
  let p = parsed.get(line);
  if (!p) {
    const cells = styledCharsFromTokens(tokenize(line));
    p = { cells, widths: cells.map((c) => Math.max(1, widthOf(c.value))) };
    parsed.set(line, p);
  }
  return p;
}

function filler(ch: StyledChar): StyledChar {
  let f = fillers.get(ch);
  if (!f) {
    f = { type: "char", value: "", fullWidth: false, styles: ch.styles };
    fillers.set(ch, f);
  }
  return f;
}

function slice(line: string, from: number, to: number): string {
  const key = `${from}\u0000${to}\u0000${line}`;
  let s = clipped.get(key);
  if (s === undefined) {
    s = sliceAnsi(line, from, to);
    clipped.set(key, s);
  }
  return s;
}

function sameCells(a: readonly Cell[] | undefined, b: readonly Cell[]): boolean {
  if (!a || a.length !== b.length) return false;
  for (let i = 0; i < b.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export default class Output {
  width: number;
  height: number;
  private operations: Operation[] = [];

  constructor(options: { width: number; height: number }) {
    this.width = options.width;
    this.height = options.height;
  }

  write(x: number, y: number, text: string, options: { transformers: Transformer[] }): void {
    if (text) this.operations.push({ kind: "text", x, y, text, transformers: options.transformers });
  }

  clip(clip: Clip): void {
    this.operations.push({ kind: "clip", clip });
  }

  unclip(): void {
    this.operations.push({ kind: "unclip" });
  }

  get(): { output: string; height: number } {
    const rows: Cell[][] = [];
    for (let y = 0; y < this.height; y++) rows.push(new Array<Cell>(this.width).fill(BLANK));
    const clips: Clip[] = [];
    for (const op of this.operations) {
      if (op.kind === "clip") clips.push(op.clip);
      else if (op.kind === "unclip") clips.pop();
      else paint(rows, op, clips.at(-1));
    }
    const text = rows.map((row, y) => {
      // A wide character at the right edge leaves a hole past it, which is not a cell.
      const cells = row.includes(undefined) ? row.filter((c) => c !== undefined) : row;
      if (sameCells(lastRows[y], cells)) return lastText[y]!;
      return styledCharsToString(cells as StyledChar[]).trimEnd();
    });
    lastRows = rows.map((row) => (row.includes(undefined) ? row.filter((c) => c !== undefined) : row));
    lastText = text;
    return { output: text.join("\n"), height: rows.length };
  }
}

/** One text written at (x, y), cut to the clip the way Ink cuts it. */
function paint(rows: Cell[][], op: Extract<Operation, { kind: "text" }>, clip: Clip | undefined): void {
  let { x, y } = op;
  let lines = op.text.split("\n");
  if (clip) {
    const horizontal = typeof clip.x1 === "number" && typeof clip.x2 === "number";
    const vertical = typeof clip.y1 === "number" && typeof clip.y2 === "number";
    if (horizontal && (x + widestOf(lines) < clip.x1! || x > clip.x2!)) return;
    if (vertical && (y + lines.length < clip.y1! || y > clip.y2!)) return;
    if (horizontal) {
      const [x1, x2] = [clip.x1!, clip.x2!];
      lines = lines.map((line) => {
        const w = widthOf(line);
        return slice(line, x < x1 ? x1 - x : 0, x + w > x2 ? x2 - x : w);
      });
      if (x < x1) x = x1;
    }
    if (vertical) {
      const [y1, y2] = [clip.y1!, clip.y2!];
      const to = y + lines.length > y2 ? y2 - y : lines.length;
      lines = lines.slice(y < y1 ? y1 - y : 0, to);
      if (y < y1) y = y1;
    }
  }
  // A row missing from the grid stops the rows after it too (Ink moves on only past a row it painted).
  let dy = 0;
  lines.forEach((text, index) => {
    const row = rows[y + dy];
    if (!row) return;
    let line = text;
    for (const transform of op.transformers) line = transform(line, index);
    const { cells, widths: w } = parse(line);
    let at = x;
    for (let i = 0; i < cells.length; i++) {
      const ch = cells[i]!;
      row[at] = ch;
      for (let k = 1; k < w[i]!; k++) row[at + k] = filler(ch);
      at += w[i]!;
    }
    dy++;
  });
}
