// Terminal text primitives for the cards: make untrusted text harmless, paint
// it, and fit it to a width. Everything a tool, a command or the model wrote
// passes through safeText before it reaches the screen, so no byte of it can
// move the cursor, clear the screen, retitle the window or open a hyperlink.

import stringWidth from "string-width";

// C0 controls except \t and \n, DEL, and the C1 range (0x9b alone is a CSI
// introducer on some terminals). \r is handled separately below.
const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/g;
// Bidirectional overrides reorder what the reader sees ("Trojan source").
const BIDI = /[\u202a-\u202e\u2066-\u2069]/g;
const NEEDS_WORK = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\t\r]/;
export const TAB_WIDTH = 4;

function visible(c: string): string {
  const code = c.charCodeAt(0);
  // U+2400.. are the Unicode "control pictures": one column each, and plainly
  // not the control itself. C1 and DEL have none that reads well: use \xNN.
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  return `\\x${code.toString(16).padStart(2, "0")}`;
}

/**
 * Terminal-safe plain text: controls become visible pictures (ESC → ␛, BEL →
 * ␇), tabs become spaces to the next 4-column stop, CRLF becomes LF and a line
 * rewritten with bare \r (a progress bar) keeps its last non-empty state, which
 * is what a terminal would have left on screen.
 */
export function safeText(text: string): string {
  if (!NEEDS_WORK.test(text)) return text;
  let s = text.replace(/\r\n/g, "\n");
  if (s.includes("\r")) s = s.split("\n").map(lastCarriageState).join("\n");
  s = s.replace(CONTROL, visible).replace(BIDI, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
  return s.includes("\t") ? expandTabs(s) : s;
}

function lastCarriageState(line: string): string {
  if (!line.includes("\r")) return line;
  const parts = line.split("\r").filter((p) => p !== "");
  return parts[parts.length - 1] ?? "";
}

function expandTabs(s: string): string {
  return s
    .split("\n")
    .map((line) => {
      if (!line.includes("\t")) return line;
      let out = "";
      for (const ch of line) {
        if (ch === "\t") out += " ".repeat(TAB_WIDTH - (out.length % TAB_WIDTH));
        else out += ch;
      }
      return out;
    })
    .join("\n");
}

/** One line for a header or label: newlines folded into a visible ↵. */
export function oneLine(text: string): string {
  return safeText(text).replace(/\n+/g, " ↵ ").trim();
}

// ---------------------------------------------------------------------------
// Colour. Own SGR pairs instead of chalk: chalk decides by the process's TTY,
// the cards decide by opts.color, and each style closes only what it opened
// so styles nest (bold inside a coloured line stays coloured after it).

export type Paint = (s: string) => string;
const sgr =
  (open: string, close: string) =>
  (on: boolean): Paint =>
    on ? (s) => (s === "" ? s : `\x1b[${open}m${s}\x1b[${close}m`) : (s) => s;

export const styles = {
  bold: sgr("1", "22"),
  dim: sgr("2", "22"),
  italic: sgr("3", "23"),
  underline: sgr("4", "24"),
  inverse: sgr("7", "27"),
  strike: sgr("9", "29"),
  red: sgr("31", "39"),
  green: sgr("32", "39"),
  yellow: sgr("33", "39"),
  blue: sgr("34", "39"),
  magenta: sgr("35", "39"),
  cyan: sgr("36", "39"),
  gray: sgr("90", "39"),
  badgeBlue: sgr("1;37;44", "22;39;49"),
  badgeMagenta: sgr("1;37;45", "22;39;49"),
  badgeCyan: sgr("1;30;46", "22;39;49"),
  badgeGreen: sgr("1;30;42", "22;39;49"),
  badgeYellow: sgr("1;30;43", "22;39;49"),
  badgeRed: sgr("1;37;41", "22;39;49"),
  badgeGray: sgr("1;37;100", "22;39;49"),
};

/** The styles bound to one colour setting, so call sites read `p.red(x)`. */
export type Palette = { [K in keyof typeof styles]: Paint };
const palettes = new Map<boolean, Palette>();
export function palette(color: boolean): Palette {
  let p = palettes.get(color);
  if (!p) {
    p = Object.fromEntries(Object.entries(styles).map(([k, f]) => [k, f(color)])) as Palette;
    palettes.set(color, p);
  }
  return p;
}

// Any escape sequence (CSI, OSC, or a two-byte ESC x); only SGR (…m) is kept
// by keepSgrOnly, because colour is the one thing a card may ask of a terminal.
const ANY_ESCAPE = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-Z\\-_]?/g;
const SGR = /^\x1b\[[0-9;]*m$/;
export function keepSgrOnly(s: string): string {
  return s.replace(ANY_ESCAPE, (m) => (SGR.test(m) ? m : "")).replace(/[\x00-\x08\x0b-\x1a\x1c-\x1f\x7f-\x9f]/g, "");
}

// ---------------------------------------------------------------------------
// Width. Every line a card returns must fit its width, so Ink never wraps it
// again and the transcript's line counts stay exact. string-width is the
// measure Ink uses, but it segments graphemes with Intl.Segmenter (tens of µs
// per call) and wrap-ansi calls it per word (~0.8 ms for one 120-column line):
// far too slow for every streaming delta. So widths here are summed per code
// point from a memo of string-width's answer for that code point alone, with
// one correction so the sum is never narrower than string-width's answer: an
// emoji variation selector or keycap mark widens a one-column base to two.
// Other clusters (skin tones, ZWJ sequences) may count wider than they are,
// which only wraps a little early.

const PLAIN_ASCII = /^[\x20-\x7e]*$/;
const ESCAPE_AT = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-Z\\-_]?/y;
const cpWidths = new Map<number, number>();

function cpWidth(cp: number): number {
  if (cp >= 0x20 && cp < 0x7f) return 1;
  let w = cpWidths.get(cp);
  if (w === undefined) {
    w = stringWidth(String.fromCodePoint(cp));
    cpWidths.set(cp, w);
  }
  return w;
}

/** Walks a line: escape sequences (zero width) and code points with widths. */
function walk(s: string, onEscape: (seq: string) => void, onChar: (ch: string, w: number) => void): void {
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

/** Display columns of a line (SGR codes count zero); never below string-width. */
export function widthOf(s: string): number {
  if (PLAIN_ASCII.test(s)) return s.length;
  let w = 0;
  walk(s, () => {}, (_c, cw) => (w += cw));
  return w;
}

function fits(line: string, width: number): boolean {
  if (line.length <= width && PLAIN_ASCII.test(line)) return true;
  return widthOf(line) <= width;
}

const SGR_SEQ = /^\x1b\[[0-9;]*m$/;

/**
 * Word-wraps one line to width, breaking inside a word only when it is wider
 * than a row. Colour carries over: a row cut inside a style is closed with a
 * reset and the next row reopens the styles in effect.
 */
function hardWrap(line: string, width: number): string[] {
  const rows: string[] = [];
  let row = "";
  let w = 0;
  let breakAt = -1; // index in row just after the last space
  let breakW = 0;
  let styles: string[] = []; // SGR sequences in effect, replaced (never mutated) on change
  let stylesAtBreak: string[] = [];
  const push = (text: string, active: string[]) => rows.push(active.length > 0 ? `${text}\x1b[0m` : text);
  const newRow = () => {
    push(row.replace(/ +$/, ""), styles);
    row = styles.join("");
    w = 0;
    breakAt = -1;
  };
  walk(
    line,
    (seq) => {
      row += seq;
      if (SGR_SEQ.test(seq)) styles = seq === "\x1b[0m" || seq === "\x1b[m" ? [] : [...styles, seq];
    },
    (c, cwidth) => {
      // A double-width character cannot fit a one-column pane at all.
      const [ch, cw] = cwidth > width ? ["…", 1] : [c, cwidth];
      if (ch === " ") {
        if (w + cw > width) return newRow(); // the space becomes the break
        row += ch;
        w += cw;
        breakAt = row.length;
        breakW = w;
        stylesAtBreak = styles;
        return;
      }
      if (w + cw > width && w > 0) {
        if (breakAt > 0) {
          push(row.slice(0, breakAt).replace(/ +$/, ""), stylesAtBreak);
          row = stylesAtBreak.join("") + row.slice(breakAt);
          w -= breakW;
          breakAt = -1;
        }
        if (w + cw > width && w > 0) newRow();
      }
      row += ch;
      w += cw;
    },
  );
  push(row.replace(/ +$/, ""), styles);
  return rows;
}

const HANGING = /^( *(?:[*+-] |\d{1,4}[.)] )?)/;

/**
 * Wraps one line (which may hold SGR codes) to width. Continuation rows keep
 * the line's indentation and list bullet as a hanging indent, so wrapped
 * lists, code and indented output stay readable.
 */
export function wrapLine(line: string, width: number): string[] {
  if (fits(line, width)) return [line];
  const lead = HANGING.exec(line)?.[1] ?? "";
  const indent = lead.length;
  if (indent === 0 || indent > width / 2) return hardWrap(line, width);
  const rows = hardWrap(line.slice(indent), width - indent);
  const pad = " ".repeat(indent);
  return rows.map((r, i) => (i === 0 ? lead : pad) + r);
}

/** Wraps many lines (strings may contain \n). */
export function wrapLines(lines: readonly string[], width: number): string[] {
  const out: string[] = [];
  for (const l of lines) for (const part of l.split("\n")) for (const r of wrapLine(part, width)) out.push(r);
  return out;
}

/**
 * `prefix` then `text` wrapped beside it: continuation rows are indented by
 * the prefix's width. `paint` colours the text of every row separately, so a
 * row never depends on codes opened on the row above.
 */
export function wrapPrefixed(prefix: string, text: string, width: number, paint: Paint = (s) => s): string[] {
  const pw = widthOf(prefix);
  if (pw >= width - 4) return wrapLines([prefix + paint(text)], width);
  const rows = fits(text, width - pw) ? [text] : hardWrap(text, width - pw);
  const pad = " ".repeat(pw);
  return rows.map((r, i) => (r === "" ? (i === 0 ? prefix : pad).replace(/ +$/, "") : (i === 0 ? prefix : pad) + paint(r)));
}

/** Last line of defence: any row still too wide is hard-wrapped. */
export function fitLines(lines: string[], width: number): string[] {
  if (lines.every((l) => fits(l, width))) return lines;
  const out: string[] = [];
  for (const l of lines) {
    if (fits(l, width)) out.push(l);
    else out.push(...hardWrap(l, width));
  }
  return out;
}

/** Cuts one line to width with an ellipsis (for headers). Plain text only. */
export function truncate(text: string, width: number): string {
  if (width <= 0) return "";
  if (widthOf(text) <= width) return text;
  let out = "";
  let w = 0;
  let full = false;
  // walk keeps emoji clusters' widths (a base and its VS16 count together).
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
