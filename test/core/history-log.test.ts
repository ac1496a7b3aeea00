// The conversation log: a step appends only itself, an insertion rewrites
// from where it is, a line cut short by a crash is ignored, and a process
// that did not write the log starts it over.

import { appendFileSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { HistoryItem } from "../../core/history.js";
import { HISTORY_FILE, readHistoryLog, syncHistoryLog } from "../../core/history-log.js";

const dir = () => mkdtempSync(join(tmpdir(), "yuj-history-log-"));
const user = (text: string): HistoryItem => ({ role: "user", text });
const records = (d: string) =>
  readFileSync(join(d, HISTORY_FILE), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { at: number; items: HistoryItem[] });

describe("history log", () => {
  it("appends each step's new items only", () => {
    const d = dir();
    const history: HistoryItem[] = [user("a")];
    syncHistoryLog(d, history);
    history.push(user("b"), user("c"));
    syncHistoryLog(d, history);
    syncHistoryLog(d, history); // nothing new: nothing written
    expect(records(d)).toEqual([
      { at: 0, items: [user("a")] },
      { at: 1, items: [user("b"), user("c")] },
    ]);
    expect(readHistoryLog(d)).toEqual(history);
  });

  it("rewrites from an insertion on", () => {
    const d = dir();
    const history: HistoryItem[] = [user("a"), user("b"), user("c")];
    syncHistoryLog(d, history);
    history.splice(1, 0, { role: "summary", text: "S" });
    syncHistoryLog(d, history);
    expect(records(d)[1]).toEqual({ at: 1, items: history.slice(1) });
    expect(readHistoryLog(d)).toEqual(history);
  });

  it("reads up to the last complete line after a crash mid-write", () => {
    const d = dir();
    const history: HistoryItem[] = [user("a")];
    syncHistoryLog(d, history);
    appendFileSync(join(d, HISTORY_FILE), '{"at":1,"items":[{"role":"user","te');
    expect(readHistoryLog(d)).toEqual([user("a")]);
  });

  it("starts the log over in a process that did not write or read it", () => {
    const d = dir();
    syncHistoryLog(d, [user("a"), user("b")]);
    const copy = mkdtempSync(join(tmpdir(), "yuj-history-log-copy-"));
    // Another directory with its own log that this process never saw.
    appendFileSync(join(copy, HISTORY_FILE), `${JSON.stringify({ at: 0, items: [user("x")] })}\n`);
    syncHistoryLog(copy, [user("y")]);
    expect(readHistoryLog(copy)).toEqual([user("y")]);
  });
});
