// Chord `edit` with `edits`: several replacements in one file, each matched
// exactly against the original text (never against an earlier entry's
// result), applied together or not at all. Every entry is checked before
// anything is written, and a failed batch reports every failing entry in one
// result, the entries that were fine but not applied, and asks for the whole
// corrected batch: resending one entry alone would drop the others. Entries
// whose old and new text are the same ask for no change and are skipped.

import type { LfReplacement } from "../line-endings.js";
import { controlCharRefusal, stripForMatching, stripInvisible } from "../invisible-chars.js";
import { closestSummary } from "./closest-report.js";
import { closestWindow } from "./closest-window.js";
import { findReplacements } from "./edit-match.js";

export interface BatchEntry {
  old_string?: string | undefined;
  new_string?: string | undefined;
  replace_all?: boolean | undefined;
}

export type BatchPlan =
  | { ok: true; replacements: LfReplacement[]; applied: number; skipped: number[]; cleaned: string[] }
  | { ok: false; message: string };

const BATCH_NOT_WRITTEN = "No changes were written (batch edits are atomic).";
/** Line numbers an ambiguity lists before it only counts the rest. */
const LINES_SHOWN = 10;

const lineOf = (text: string, offset: number): number => {
  let n = 1;
  for (let i = text.indexOf("\n"); i >= 0 && i < offset; i = text.indexOf("\n", i + 1)) n++;
  return n;
};

function offsets(text: string, needle: string): number[] {
  const out: number[] = [];
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) out.push(at);
  return out;
}

const skippedLine = (i: number) => `Skipped edits[${i}]: old_string and new_string are identical, so no change was requested.`;

/** The replacements for `entries` in `text` (the file's LF view), or the report of every entry that failed. */
export function planBatch(text: string, entries: readonly BatchEntry[]): BatchPlan {
  if (entries.length === 0) {
    return { ok: false, message: `edits must list at least one {old_string, new_string} entry. ${BATCH_NOT_WRITTEN}` };
  }
  // Each failing entry's one-line summary, and the closest-span lines that may follow it.
  const problems = new Map<number, { summary: string; detail: string[] }>();
  const skipped: number[] = [];
  const cleaned: string[] = [];
  const spans: Span[] = [];
  const fail = (i: number, summary: string, detail: string[] = []) => void problems.set(i, { summary, detail });
  entries.forEach((e, i) => {
    if (e.old_string === undefined || e.old_string === "") return fail(i, `edits[${i}]: old_string is required`);
    if (e.new_string === undefined) return fail(i, `edits[${i}]: new_string is required; use an empty string for deletion`);
    const old = stripForMatching(e.old_string.replace(/\r\n/g, "\n"));
    const neu = stripInvisible(e.new_string.replace(/\r\n/g, "\n"));
    if (old.text === "") return fail(i, `edits[${i}]: old_string contains only invisible characters and cannot be matched`);
    const control = controlCharRefusal("new_string", neu.text, old.text);
    if (control) return fail(i, `edits[${i}]: ${control}`);
    if (old.text === neu.text) return void skipped.push(i);
    cleaned.push(...old.removed, ...neu.removed);
    const found = offsets(text, old.text);
    if (found.length === 0) {
      // A single edit forgives a final newline and punctuation forms; say so, as a clue, not as a way to resend one entry.
      const single = findReplacements(text, old.text, neu.text, e.replace_all === true).kind === "ok";
      const clue = single ? "; as a single edit it would match (a single edit forgives a final newline and punctuation/whitespace differences, batch entries match exactly)" : "";
      const window = single ? undefined : closestWindow(text, old.text);
      return fail(i, `edits[${i}]: old_string not found in the original file${clue}`, window ? closestSummary(old.text, window) : []);
    }
    if (found.length > 1 && e.replace_all !== true) {
      const lines = found.slice(0, LINES_SHOWN).map((o) => lineOf(text, o));
      const more = found.length > LINES_SHOWN ? ` (+${found.length - LINES_SHOWN} more)` : "";
      return fail(i, `edits[${i}]: old_string found ${found.length} times at lines ${lines.join(", ")}${more} in the original file; provide unique context or set replace_all`);
    }
    for (const start of found) spans.push({ start, end: start + old.text.length, insert: neu.text, entry: i });
  });
  for (const [entry, other] of overlaps(spans)) fail(entry, `edits[${entry}]: overlaps edits[${other}] in the original file`);
  const kept = spans.filter((s) => !problems.has(s.entry)).sort((a, b) => a.start - b.start);
  if (problems.size > 0) return { ok: false, message: failureReport(problems, skipped, kept) };
  const applied = new Set(kept.map((s) => s.entry)).size;
  return { ok: true, replacements: kept.map(({ start, end, insert }) => ({ start, end, insert })), applied, skipped, cleaned };
}

interface Span {
  start: number;
  end: number;
  insert: string;
  entry: number;
}

/**
 * Each entry whose match overlaps another entry's, with the first entry it
 * overlaps (in file order; at one offset, in edits order).
 */
function overlaps(spans: readonly Span[]): Map<number, number> {
  const sorted = [...spans].sort((a, b) => a.start - b.start || a.entry - b.entry);
  const partner = new Map<number, number>();
  for (let i = 0; i < sorted.length; i++) {
    for (let j = i + 1; j < sorted.length && sorted[j]!.start < sorted[i]!.end; j++) {
      const [a, b] = [sorted[i]!.entry, sorted[j]!.entry];
      if (a === b) continue;
      if (!partner.has(a)) partner.set(a, b);
      if (!partner.has(b)) partner.set(b, a);
    }
  }
  return partner;
}

/** Lines a failed batch's report may take; summaries always fit, closest-span details only while room remains. */
const REPORT_LINES = 40;

function failureReport(problems: Map<number, { summary: string; detail: string[] }>, skipped: readonly number[], kept: readonly Span[]): string {
  const fine = [...new Set(kept.map((s) => s.entry))].sort((a, b) => a - b);
  const tail = [
    ...skipped.map(skippedLine),
    ...(fine.length ? [`Remaining entries (${fine.map((i) => `edits[${i}]`).join(", ")}) passed per-entry matching but were not applied.`] : []),
    "Fix the failing entries above and resubmit the complete batch.",
  ];
  const order = [...problems.keys()].sort((a, b) => a - b);
  let room = REPORT_LINES - (1 + order.length + tail.length);
  let omitted = 0;
  const body: string[] = [];
  for (const i of order) {
    const { summary, detail } = problems.get(i)!;
    body.push(summary);
    if (detail.length === 0) continue;
    // A detail is shown whole or not at all: a cut one could end before its read guidance.
    if (detail.length <= room - 1) {
      body.push(...detail);
      room -= detail.length;
    } else omitted++;
  }
  const note = omitted ? [`(the closest spans of ${omitted} entr${omitted === 1 ? "y are" : "ies are"} not shown, to keep this report short; read the file around them)`] : [];
  return [BATCH_NOT_WRITTEN, ...body, ...note, ...tail].join("\n");
}

/** What a batch that wrote says after its size summary. */
export const skippedLines = (skipped: readonly number[]): string => skipped.map((i) => `\n${skippedLine(i)}`).join("");
