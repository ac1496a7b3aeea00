// The conversation of a session as an append-only log beside state.json.
// Rewriting the whole conversation after every step made each step cost the
// size of the session (a 5,000-card session spent most of its time
// serialising and fsyncing it); the log costs the size of the step.
//
// Each line is one record: `{"at": K, "items": [...]}`: keep the first K
// items, then append these. A normal step appends (K = the length already
// saved); an insertion earlier in the history (a compaction summary, the
// results a resume gives interrupted calls) rewrites from that point on.
// Lines are fsynced as they are written; a line cut short by a crash has no
// newline and is ignored on reading, so the log always reads as the last
// complete step.

import { closeSync, existsSync, fsyncSync, openSync, readFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { HistoryItem } from "./history.js";

export const HISTORY_FILE = "history.jsonl";

type Replacer = (key: string, value: unknown) => unknown;

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
  const line = `${JSON.stringify({ at, items: history.slice(at) }, replacer)}\n`;
  const fd = openSync(file, "a", 0o600);
  try {
    writeSync(fd, line);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  saved.set(dir, history.slice());
}

/** The history the log holds; undefined when there is no log. */
export function readHistoryLog(dir: string): HistoryItem[] | undefined {
  const file = join(dir, HISTORY_FILE);
  if (!existsSync(file)) return undefined;
  const text = readFileSync(file, "utf8");
  const history: HistoryItem[] = [];
  let start = 0;
  for (let nl = text.indexOf("\n"); nl >= 0; start = nl + 1, nl = text.indexOf("\n", start)) {
    let record: { at: number; items: HistoryItem[] };
    try {
      record = JSON.parse(text.slice(start, nl)) as { at: number; items: HistoryItem[] };
    } catch {
      // Only a crash mid-write leaves a bad line, and then it is the last complete-looking one.
      break;
    }
    history.length = Math.min(history.length, record.at);
    history.push(...record.items);
  }
  saved.set(dir, history.slice());
  return history;
}
