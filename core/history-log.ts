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

/**
 * What one session's log holds, as the item objects this session wrote or
 * read; items are never changed in place once in the history, so an item
 * that is still the same object is still saved. Each session has its own:
 * another session reading this folder's log (a listing, a parent looking at
 * an agent's conversation) leaves the writer's knowledge alone.
 */
export class HistoryLog {
  private saved: readonly HistoryItem[];

  /** `saved`: what the log is known to hold (as read); empty for a log this session has not read. */
  constructor(saved: readonly HistoryItem[] = []) {
    this.saved = saved.slice();
  }

  /** Brings the log in `dir` up to `history`; throws with the system's reason when it cannot. */
  sync(dir: string, history: readonly HistoryItem[], replacer?: Replacer): void {
    const file = join(dir, HISTORY_FILE);
    // A log this session did not read or write (a new session, or one whose
    // log another process wrote) is started over from item 0.
    const known = this.saved;
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
    this.saved = history.slice();
  }
}

/**
 * The history the log holds, the lines it skipped, and the log's writer for
 * a session that goes on from what it read; undefined when there is no log.
 */
export function readHistoryLog(dir: string): { history: HistoryItem[]; skipped: SkippedLine[]; log: HistoryLog } | undefined {
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
  return { history, skipped, log: new HistoryLog(history) };
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
