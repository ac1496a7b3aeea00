// What changed inside a changed line. A diff card pairs each removed line with
// the added line that replaced it and marks only the words that differ, so a
// renamed argument or a changed number stands out of an otherwise equal line.
// The diff runs over tokens (identifiers, numbers, single symbols, spaces), so
// a change never splits a word in two places; a word replaced by a similar
// one (`timeout` → `timeout_ms`, `myVariable` → `myHTTPVariable`) is refined
// by characters, keeping its shared part plain.

import { diffArrays, diffChars } from "diff";

type InlineKind = "same" | "removed" | "added";
export interface InlineSegment {
  kind: InlineKind;
  text: string;
}

// Lines longer than this are not compared: the token diff is quadratic.
const MAX_LINE = 500;

const TOKEN = /[\p{L}\p{N}_]+|\s+|[^\p{L}\p{N}_\s]/gu;

function tokens(line: string): string[] {
  return line.match(TOKEN) ?? [];
}

// Only words with letters are refined: a number is read whole (1 → 10 is a
// new number, not an added 0).
const isWord = (t: string) => /^[\p{L}\p{N}_]+$/u.test(t) && /\p{L}/u.test(t);
const wordChars = (t: string) => (t.match(/[\p{L}\p{N}]/gu) ?? []).length;

/** Appends a segment, merging it with the last one of the same kind. */
function push(segs: InlineSegment[], kind: InlineKind, text: string): void {
  if (text === "") return;
  const last = segs[segs.length - 1];
  if (last?.kind === kind) last.text += text;
  else segs.push({ kind, text });
}

/**
 * Two words refined by characters, when they share at least half of the
 * shorter one (`bar`/`longBar` yes, `x`/`err` no: unrelated words read better
 * replaced whole).
 */
function refineWord(oldSegs: InlineSegment[], newSegs: InlineSegment[], a: string, b: string): void {
  const parts = diffChars(a, b);
  const shared = parts.filter((p) => !p.added && !p.removed).reduce((n, p) => n + p.value.length, 0);
  if (shared * 2 < Math.min(a.length, b.length)) {
    push(oldSegs, "removed", a);
    push(newSegs, "added", b);
    return;
  }
  for (const p of parts) {
    if (p.added) push(newSegs, "added", p.value);
    else if (p.removed) push(oldSegs, "removed", p.value);
    else {
      push(oldSegs, "same", p.value);
      push(newSegs, "same", p.value);
    }
  }
}

/**
 * The segments of an old and a new line: concatenating the old side's same
 * and removed segments gives the old line, the new side's same and added
 * segments the new line.
 */
export function inlineDiff(oldLine: string, newLine: string): { old: InlineSegment[]; new: InlineSegment[] } {
  const oldSegs: InlineSegment[] = [];
  const newSegs: InlineSegment[] = [];
  const parts = diffArrays(tokens(oldLine), tokens(newLine));
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    const next = parts[i + 1];
    const text = p.value.join("");
    // One word replaced by one word: compare their characters.
    if (p.removed && next?.added && p.value.length === 1 && next.value.length === 1 && isWord(p.value[0]!) && isWord(next.value[0]!)) {
      refineWord(oldSegs, newSegs, p.value[0]!, next.value[0]!);
      i++;
    } else if (p.removed) push(oldSegs, "removed", text);
    else if (p.added) push(newSegs, "added", text);
    else {
      push(oldSegs, "same", text);
      push(newSegs, "same", text);
    }
  }
  return { old: oldSegs, new: newSegs };
}

/**
 * The pair's segments when marking words inside it helps: at least a third
 * of the longer line's letters and digits are shared (spaces and punctuation
 * in common do not count), and both lines are short enough to compare. A
 * line rewritten whole gets undefined and is shown plain.
 */
export function changedWords(oldLine: string, newLine: string): { old: InlineSegment[]; new: InlineSegment[] } | undefined {
  if (oldLine.length > MAX_LINE || newLine.length > MAX_LINE || oldLine === newLine) return undefined;
  const segs = inlineDiff(oldLine, newLine);
  const shared = segs.old.filter((s) => s.kind === "same").reduce((n, s) => n + wordChars(s.text), 0);
  return shared * 3 >= Math.max(wordChars(oldLine), wordChars(newLine)) && shared > 0 ? segs : undefined;
}
