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
  const problems: string[] = [];
  const failed = new Set<number>();
  const skipped: number[] = [];
  const cleaned: string[] = [];
  const spans: Array<{ start: number; end: number; insert: string; entry: number }> = [];
  const fail = (i: number, ...lines: string[]) => {
    failed.add(i);
    problems.push(...lines);
  };
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
      return fail(i, `edits[${i}]: old_string not found in the original file${clue}`, ...(window ? closestSummary(old.text, window) : []));
    }
    if (found.length > 1 && e.replace_all !== true) {
      const lines = found.slice(0, LINES_SHOWN).map((o) => lineOf(text, o));
      const more = found.length > LINES_SHOWN ? ` (+${found.length - LINES_SHOWN} more)` : "";
      return fail(i, `edits[${i}]: old_string found ${found.length} times at lines ${lines.join(", ")}${more} in the original file; provide unique context or set replace_all`);
    }
    for (const start of found) spans.push({ start, end: start + old.text.length, insert: neu.text, entry: i });
  });
  // Overlaps, named from the span that comes first in the file (at one offset, the first entry).
  const ordered = spans.filter((s) => !failed.has(s.entry)).sort((a, b) => a.start - b.start || a.entry - b.entry);
  for (let k = 1; k < ordered.length; k++) {
    const [prev, next] = [ordered[k - 1]!, ordered[k]!];
    if (next.start < prev.end && prev.entry !== next.entry && !failed.has(next.entry)) {
      fail(next.entry, `edits[${prev.entry}]: overlaps edits[${next.entry}] in the original file`);
      failed.add(prev.entry);
    }
  }
  const kept = ordered.filter((s) => !failed.has(s.entry));
  if (failed.size > 0) {
    const fine = [...new Set(kept.map((s) => s.entry))].sort((a, b) => a - b);
    return {
      ok: false,
      message: [
        BATCH_NOT_WRITTEN,
        ...problems,
        ...skipped.map(skippedLine),
        ...(fine.length ? [`Remaining entries (${fine.map((i) => `edits[${i}]`).join(", ")}) passed per-entry matching but were not applied.`] : []),
        "Fix the failing entries above and resubmit the complete batch.",
      ].join("\n"),
    };
  }
  const applied = new Set(kept.map((s) => s.entry)).size;
  return { ok: true, replacements: kept.map(({ start, end, insert }) => ({ start, end, insert })), applied, skipped, cleaned };
}

/** What a batch that wrote says after its size summary. */
export const skippedLines = (skipped: readonly number[]): string => skipped.map((i) => `\n${skippedLine(i)}`).join("");
