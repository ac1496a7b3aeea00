// The conversation of a session as an append-only log beside state.json.
// Rewriting the whole conversation after every step made each step cost the
// size of the session (a 5,000-card session spent most of its time
// serialising and fsyncing it); the log costs the size of the step.
//
// Each line is one record: `{"at": K, "items": [...]}`: keep the first K
// items, then append these. A normal step appends (K = the length already
// saved); an insertion earlier in the history (a compaction summary, the
// results a resume gives interrupted calls) rewrites from that point on.
// Lines are fsynced as they are written (core/append-log.ts: a failed append
// leaves nothing, the line after a torn one starts afresh). A reader skips a
// line that is not a whole record, and says so, and goes on: the log reads as
// every step whose line was written whole.

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { openAppendLog } from "./append-log.js";
import type { HistoryItem } from "./history.js";

export const HISTORY_FILE = "history.jsonl";

type Replacer = (key: string, value: unknown) => unknown;

/** A line of the log that was not used, and why (a 1-based line number). */
export interface SkippedLine {
  line: number;
  reason: string;
}

// What each session dir's log holds, as the item objects this process wrote
// or read; items are never changed in place once in the history, so an item
// that is still the same object is still saved.
const saved = new Map<string, HistoryItem[]>();

/** Brings the log up to `history`; throws with the system's reason when it cannot. */
export function syncHistoryLog(dir: string, history: readonly HistoryItem[], replacer?: Replacer): void {
  const file = join(dir, HISTORY_FILE);
  // A process that did not read or write this log (a new session, or one
  // whose log another process wrote) starts it over from item 0.
  const known = saved.get(dir) ?? [];
  let at = 0;
  const common = Math.min(known.length, history.length);
  while (at < common && known[at] === history[at]) at++;
  if (at === history.length && at === known.length && (at > 0 || existsSync(file))) return;
  const log = openAppendLog(file);
  try {
    log.append(JSON.stringify({ at, items: history.slice(at) }, replacer), { sync: true });
  } finally {
    log.close();
  }
  // Only once the line is on disk: a failed append leaves the log as it was.
  saved.set(dir, history.slice());
}

/** The session folder holding a log moved (a staged session published under its id): what it holds is known still. */
export function historyLogMoved(from: string, to: string): void {
  const known = saved.get(from);
  if (!known) return;
  saved.delete(from);
  saved.set(to, known);
}

/** The history the log holds and the lines it skipped; undefined when there is no log. */
export function readHistoryLog(dir: string): { history: HistoryItem[]; skipped: SkippedLine[] } | undefined {
  const file = join(dir, HISTORY_FILE);
  if (!existsSync(file)) return undefined;
  const lines = readFileSync(file, "utf8").split("\n");
  const history: HistoryItem[] = [];
  const skipped: SkippedLine[] = [];
  lines.forEach((text, index) => {
    if (text === "") return;
    const record = parseRecord(text);
    const torn = index === lines.length - 1;
    if (typeof record === "string") {
      skipped.push({ line: index + 1, reason: torn ? "cut short (the writer stopped mid-line)" : record });
    } else if (record.at > history.length) {
      // Keeping items after a gap would put them in the wrong place.
      skipped.push({ line: index + 1, reason: `it continues at item ${record.at}, but only ${history.length} items precede it` });
    } else {
      history.length = record.at;
      history.push(...record.items);
    }
  });
  saved.set(dir, history.slice());
  return { history, skipped };
}

/** The record a line holds, or why it holds none. */
function parseRecord(text: string): { at: number; items: HistoryItem[] } | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return `not JSON (${(err as Error).message})`;
  }
  const r = value as { at?: unknown; items?: unknown };
  if (value === null || typeof value !== "object" || !Number.isInteger(r.at) || (r.at as number) < 0 || !Array.isArray(r.items)) {
    return 'not a record ({"at": K, "items": [...]})';
  }
  return r as { at: number; items: HistoryItem[] };
}
