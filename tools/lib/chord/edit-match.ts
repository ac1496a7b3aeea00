// Where Chord `edit` replaces: every exact occurrence of old_string, or when
// there is none, the occurrences that match once punctuation is folded
// (tools/lib/punctuation-fold.ts), with the change spliced into the file's
// own characters. A missing or extra final newline is forgiven first.

import { fold, foldedOccurrences, spliceKeepingFile } from "../punctuation-fold.js";
import type { LfReplacement } from "../line-endings.js";

export type EditMatch =
  | { kind: "none" }
  | { kind: "many"; count: number; tolerant: boolean }
  | { kind: "ok"; replacements: LfReplacement[]; tolerant: boolean; lines: number[] };

function exactOffsets(text: string, needle: string): number[] {
  const out: number[] = [];
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) out.push(at);
  return out;
}

const lineAt = (text: string, offset: number): number => {
  let n = 1;
  for (let i = text.indexOf("\n"); i >= 0 && i < offset; i = text.indexOf("\n", i + 1)) n++;
  return n;
};

export function findReplacements(text: string, oldStr: string, newStr: string, replaceAll: boolean): EditMatch {
  const exact = exactOffsets(text, oldStr);
  if (exact.length > 0) {
    if (exact.length > 1 && !replaceAll) return { kind: "many", count: exact.length, tolerant: false };
    const replacements = exact.map((start) => ({ start, end: start + oldStr.length, insert: newStr }));
    return { kind: "ok", replacements, tolerant: false, lines: exact.map((o) => lineAt(text, o)) };
  }
  const alt = exact.length === 0 ? finalNewlineVariant(text, oldStr, newStr) : undefined;
  if (alt) return findReplacements(text, alt.oldStr, alt.newStr, replaceAll);
  const fileFold = fold(text, "text");
  const needle = fold(oldStr, "text").chars;
  const starts = foldedOccurrences(fileFold.chars, needle);
  if (starts.length === 0) return { kind: "none" };
  if (starts.length > 1 && !replaceAll) return { kind: "many", count: starts.length, tolerant: true };
  const replacements = starts.map((at) => {
    const start = fileFold.spans[at]![0];
    const end = fileFold.spans[at + needle.length - 1]![1];
    return { start, end, insert: spliceKeepingFile(text, fileFold, at, oldStr, newStr, "text") };
  });
  return { kind: "ok", replacements, tolerant: true, lines: replacements.map((r) => lineAt(text, r.start)) };
}

/**
 * old_string that differs from a unique place in the file only by one final
 * newline (the model added one the file lacks, or left out the one it has):
 * both strings adjusted alike, so the newline the file has stays.
 */
function finalNewlineVariant(text: string, oldStr: string, newStr: string): { oldStr: string; newStr: string } | undefined {
  const unique = (needle: string) => needle !== "" && exactOffsets(text, needle).length === 1;
  if (oldStr.endsWith("\n")) {
    const shorter = oldStr.slice(0, -1);
    return unique(shorter) ? { oldStr: shorter, newStr: newStr.replace(/\n$/, "") } : undefined;
  }
  const longer = `${oldStr}\n`;
  return unique(longer) ? { oldStr: longer, newStr: newStr.endsWith("\n") ? newStr : `${newStr}\n` } : undefined;
}
