// Wrapping safe terminal text (which may carry SGR colour codes) to a width,
// measured as width.ts measures. Every row a wrapper returns fits its width,
// so Ink never wraps it again and a transcript's line counts stay exact.

import { fits, walk, widthOf } from "./width.js";

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
 * Wraps one line to width. Continuation rows keep the line's indentation and
 * list bullet as a hanging indent, so wrapped lists, code and indented output
 * stay readable.
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
function wrapLines(lines: readonly string[], width: number): string[] {
  const out: string[] = [];
  for (const l of lines) for (const part of l.split("\n")) for (const r of wrapLine(part, width)) out.push(r);
  return out;
}

/**
 * `prefix` then `text` wrapped beside it: continuation rows are indented by
 * the prefix's width. `paint` colours the text of every row separately, so a
 * row never depends on codes opened on the row above.
 */
export function wrapPrefixed(prefix: string, text: string, width: number, paint: (s: string) => string = (s) => s): string[] {
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
