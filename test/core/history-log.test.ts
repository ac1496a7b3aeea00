// The conversation log: a step appends only itself, an insertion rewrites
// from where it is, a line cut short by a crash is skipped (and said) without
// costing a later line, and a process that did not write the log starts it
// over.

import { appendFileSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { HistoryItem } from "../../core/history.js";
import { HISTORY_FILE, HistoryLog, readHistoryLog } from "../../core/history-log.js";

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
    const log = new HistoryLog();
    const history: HistoryItem[] = [user("a")];
    log.sync(d, history);
    history.push(user("b"), user("c"));
    log.sync(d, history);
    log.sync(d, history); // nothing new: nothing written
    expect(records(d)).toEqual([
      { at: 0, items: [user("a")] },
      { at: 1, items: [user("b"), user("c")] },
    ]);
    expect(readHistoryLog(d)!.history).toEqual(history);
  });

  it("rewrites from an insertion on", () => {
    const d = dir();
    const log = new HistoryLog();
    const history: HistoryItem[] = [user("a"), user("b"), user("c")];
    log.sync(d, history);
    history.splice(1, 0, { role: "summary", text: "S" });
    log.sync(d, history);
    expect(records(d)[1]).toEqual({ at: 1, items: history.slice(1) });
    expect(readHistoryLog(d)!.history).toEqual(history);
  });

  it("skips a line a crash cut short, says so, and loses no step appended after it", () => {
    const d = dir();
    const log = new HistoryLog();
    const history: HistoryItem[] = [user("a")];
    log.sync(d, history);
    appendFileSync(join(d, HISTORY_FILE), '{"at":1,"items":[{"role":"user","te');
    const reread = readHistoryLog(d)!;
    expect(reread).toMatchObject({ history: [user("a")], skipped: [{ line: 2, reason: "cut short (the writer stopped mid-line)" }] });
    // The next process (it read the log) appends on a fresh line, not onto the torn one.
    const next = reread.history;
    next.push(user("b"));
    reread.log.sync(d, next);
    next.push(user("c"));
    reread.log.sync(d, next);
    const read = readHistoryLog(d)!;
    expect(read.history).toEqual([user("a"), user("b"), user("c")]);
    expect(read.skipped).toEqual([{ line: 2, reason: expect.stringMatching(/^not JSON/) }]);
  });

  it("skips a record that would leave a gap rather than put items in the wrong place", () => {
    const d = dir();
    new HistoryLog().sync(d, [user("a")]);
    appendFileSync(join(d, HISTORY_FILE), `${JSON.stringify({ at: 5, items: [user("z")] })}\n${JSON.stringify({ at: 1, items: [user("b")] })}\n`);
    const read = readHistoryLog(d)!;
    expect(read.history).toEqual([user("a"), user("b")]);
    expect(read.skipped).toEqual([{ line: 2, reason: "it continues at item 5, but only 1 items precede it" }]);
  });

  it("starts the log over in a session that did not write or read it", () => {
    const d = dir();
    new HistoryLog().sync(d, [user("a"), user("b")]);
    const copy = mkdtempSync(join(tmpdir(), "yuj-history-log-copy-"));
    // Another directory with its own log that this process never saw.
    appendFileSync(join(copy, HISTORY_FILE), `${JSON.stringify({ at: 0, items: [user("x")] })}\n`);
    new HistoryLog().sync(copy, [user("y")]);
    expect(readHistoryLog(copy)!.history).toEqual([user("y")]);
  });
});
