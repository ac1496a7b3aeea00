// File changes as coloured lines: the diff of an edit, a patch as sent, a
// numbered preview of written or read content. Inputs are untrusted text and
// are made terminal-safe line by line; every row fits the width.

import { structuredPatch } from "diff";
import { screenText } from "../../core/text/safe.js";
import { wrapPrefixed } from "../../core/text/wrap.js";
import { changedWords, type InlineSegment } from "./inline-diff.js";
import { palette, type Paint, type Palette } from "./paint.js";

// Past this many differences Myers' diff gets slow; show old then new instead.
const MAX_EDIT_LENGTH = 4000;

function safeLines(text: string): string[] {
  const s = screenText(text);
  return s === "" ? [] : s.replace(/\n$/, "").split("\n");
}

/**
 * The diff between an edit's old and new text, built from the call's args.
 * Line numbers would be relative to the snippet and mislead, so rows carry
 * only the -/+ marker; hunks are separated by a dim ⋯.
 */
export function argsDiffLines(oldStr: string, newStr: string, width: number, color: boolean): string[] {
  const p = palette(color);
  const a = screenText(oldStr);
  const b = screenText(newStr);
  const patch = structuredPatch("a", "b", a.endsWith("\n") ? a : `${a}\n`, b.endsWith("\n") ? b : `${b}\n`, "", "", {
    context: 3,
    maxEditLength: MAX_EDIT_LENGTH,
  });
  const rows: string[] = [];
  const block = (lines: string[]) => {
    const bodies = lineBodies(lines, p);
    lines.forEach((line, i) => {
      const mark = line[0] ?? " ";
      rows.push(...wrapPrefixed(markPaint(mark, p)(`${mark} `), bodies[i]!, width, markPaint(mark, p)));
    });
  };
  if (!patch) {
    block([...safeLines(a).map((l) => `-${l}`), ...safeLines(b).map((l) => `+${l}`)]);
    return rows;
  }
  patch.hunks.forEach((h, i) => {
    if (i > 0) rows.push(p.dim("⋯"));
    block(h.lines.filter((l) => !l.startsWith("\\")));
  });
  return rows;
}

/**
 * Each diff line's text without its mark. A run of removed lines followed by
 * a run of added ones pairs them in order, and a pair that shares words shows
 * the words that changed in inverse video, inside the line's red or green.
 */
function lineBodies(lines: readonly string[], p: Palette): string[] {
  const bodies = lines.map((l) => l.slice(1));
  for (let i = 0; i < lines.length; ) {
    if (!lines[i]!.startsWith("-")) {
      i++;
      continue;
    }
    let del = i;
    while (del < lines.length && lines[del]!.startsWith("-")) del++;
    let add = del;
    while (add < lines.length && lines[add]!.startsWith("+")) add++;
    for (let k = 0; k < Math.min(del - i, add - del); k++) {
      const pair = changedWords(bodies[i + k]!, bodies[del + k]!);
      if (!pair) continue;
      bodies[i + k] = marked(pair.old, p);
      bodies[del + k] = marked(pair.new, p);
    }
    i = add;
  }
  return bodies;
}

function marked(segs: readonly InlineSegment[], p: Palette): string {
  return segs.map((s) => (s.kind === "same" ? s.text : p.inverse(s.text))).join("");
}

function markPaint(mark: string, p: Palette): Paint {
  return mark === "+" ? p.green : mark === "-" ? p.red : (s) => s;
}

/** Whether a text holds a unified diff hunk (the edit tool's own view). */
function hasUnifiedDiff(text: string): boolean {
  return /^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@/m.test(text);
}

/**
 * A unified diff with real line numbers taken from its @@ headers: removed
 * rows show the old number, added and context rows the new one. File headers
 * (---/+++) are left out: the card names the file already.
 */
export function numberedDiffLines(diffText: string, width: number, color: boolean): string[] {
  const p = palette(color);
  const lines = safeLines(diffText);
  // First pass: the widest number decides the gutter.
  let maxNum = 1;
  for (const l of lines) {
    const m = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(l);
    if (m) maxNum = Math.max(maxNum, +m[1]! + +(m[2] ?? 1), +m[3]! + +(m[4] ?? 1));
  }
  const nw = String(maxNum).length;
  const rows: string[] = [];
  let oldN = 0;
  let newN = 0;
  let hunks = 0;
  let inHunk = false;
  const bodies = lineBodies(lines, p);
  lines.forEach((l, idx) => {
    const m = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(l);
    if (m) {
      if (hunks++ > 0) rows.push(p.dim(`${" ".repeat(nw)} ⋯`));
      oldN = +m[1]!;
      newN = +m[2]!;
      inHunk = true;
      return;
    }
    if (!inHunk || l.startsWith("\\")) return;
    const mark = l[0] ?? " ";
    if (mark !== "+" && mark !== "-" && mark !== " ") return;
    // Context rows read best in the file's new numbering (as after the edit).
    const n = mark === "-" ? oldN++ : newN++;
    if (mark === " ") oldN++;
    const paint = markPaint(mark, p);
    rows.push(...wrapPrefixed(`${p.dim(String(n).padStart(nw))} ${paint(mark === " " ? " " : mark)} `, bodies[idx]!, width, paint));
  });
  return rows;
}

/**
 * A patch as the model sent it (apply_patch envelope or unified diff), each
 * line coloured by what it is: headers bold, hunks cyan, + green, - red.
 */
export function patchLines(patch: string, width: number, color: boolean): string[] {
  const p = palette(color);
  const rows: string[] = [];
  for (const l of safeLines(patch)) {
    let paint: Paint = (s) => s;
    if (/^(\*\*\* |diff |--- |\+\+\+ |index )/.test(l)) paint = p.bold;
    else if (l.startsWith("@@")) paint = p.cyan;
    else if (l.startsWith("+")) paint = p.green;
    else if (l.startsWith("-")) paint = p.red;
    rows.push(...wrapPrefixed("", l, width, paint));
  }
  return rows;
}

/**
 * The first lines of a file as it will be written, numbered: `  12  text`,
 * then "… N more lines" for the rest of its `total`.
 */
export function numberedLines(lines: readonly string[], total: number, width: number, color: boolean): string[] {
  const p = palette(color);
  const shown = lines.map((l) => screenText(l));
  const nw = String(Math.max(1, shown.length)).length;
  const rows: string[] = [];
  shown.forEach((l, i) => rows.push(...wrapPrefixed(`${p.dim(String(i + 1).padStart(nw))}  `, l, width)));
  if (shown.length < total) rows.push(p.dim(`… ${total - shown.length} more lines`));
  return rows;
}

/**
 * Lines read from a file: `N: text` rows become a dim number gutter and the
 * text; anything else (a note about the lines) is shown dim as it is.
 */
export function readPreviewLines(lines: readonly string[], width: number, color: boolean): string[] {
  const p = palette(color);
  let nw = 1;
  for (const l of lines) {
    const m = /^(\d+): /.exec(l);
    if (m) nw = Math.max(nw, m[1]!.length);
  }
  const rows: string[] = [];
  for (const l of lines) {
    const m = /^(\d+): ?(.*)$/.exec(l);
    if (m) rows.push(...wrapPrefixed(`${p.dim(m[1]!.padStart(nw))}  `, m[2]!, width));
    else rows.push(...wrapPrefixed("", l, width, p.dim));
  }
  return rows;
}
