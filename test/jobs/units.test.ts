// The pure pieces: /proc parsing, the "is this group still ours" decision,
// and turning byte ranges of the output file into bounded text.

import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { spawn } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { parseStat, readStartTime, type ProcStat } from "../../core/jobs/proc.js";
import { mayStillBeOurs, terminateGroup } from "../../core/jobs/process-group.js";
import { completeLength, previewRange } from "../../core/jobs/output-file.js";
import { modelText } from "../../core/text/escapes.js";
import { fileReader } from "../../core/jobs/job-log.js";
import { systemClock } from "../../core/services.js";
import { liveMembers } from "./support.js";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "yuj-units-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe("proc", () => {
  it("parses stat lines whose command name holds spaces and parentheses", () => {
    const fields = Array.from({ length: 50 }, (_, i) => String(i + 3));
    fields[0] = "S"; // state
    fields[2] = "4242"; // pgrp
    fields[19] = "987654"; // starttime (field 22)
    const stat = parseStat(`4243 (evil) (name ) x) ${fields.join(" ")}\n`);
    expect(stat).toMatchObject({ pid: 4243, state: "S", pgid: 4242, startTime: 987654 });
  });

  it("reads this process's own start time", () => {
    expect(readStartTime(process.pid)).toBeGreaterThan(0);
    expect(readStartTime(999_999_999)).toBeUndefined();
  });
});

describe("the kill decision after the shell exited", () => {
  const table = new Map<number, ProcStat>();
  const read = (pid: number) => table.get(pid);
  const proc = (pid: number, pgid: number, startTime: number, state = "S"): ProcStat => ({
    pid,
    pgid,
    startTime,
    state,
    ppid: 1,
  });

  it("signals only while a recorded member is still in the group with its start time", () => {
    const members = [{ pid: 101, startTime: 500 }, { pid: 102, startTime: 510 }];
    table.clear();
    expect(mayStillBeOurs(100, members, read)).toBe(false); // every member gone
    table.set(101, proc(101, 100, 777)); // pid recycled: other start time
    table.set(102, proc(102, 300, 510)); // same process, moved to another group
    expect(mayStillBeOurs(100, members, read)).toBe(false);
    table.set(102, proc(102, 100, 510, "Z")); // a zombie still holds the group
    expect(mayStillBeOurs(100, members, read)).toBe(true);
    table.set(102, proc(102, 100, 510));
    expect(mayStillBeOurs(100, members, read)).toBe(true);
    expect(mayStillBeOurs(100, [], read)).toBe(false);
  });

  it("sends no signal at all when the proof fails", async () => {
    const stranger = spawn("sleep", ["30"], { detached: true, stdio: "ignore" });
    const pgid = stranger.pid!;
    try {
      const start = readStartTime(pgid)!;
      const stale = [{ pid: pgid, startTime: start + 1 }];
      const confirmed = await terminateGroup(pgid, {
        graceMs: 50,
        clock: systemClock,
        isOurs: () => mayStillBeOurs(pgid, stale),
        isGone: () => liveMembers(pgid).length === 0,
      });
      expect(confirmed).toBe(false);
      await new Promise((r) => setTimeout(r, 100));
      expect(liveMembers(pgid)).toEqual([pgid]);
      expect(stranger.exitCode).toBeNull();
      expect(stranger.signalCode).toBeNull();
    } finally {
      stranger.kill("SIGKILL");
    }
  });
});

describe("output text", () => {
  it("strips escapes, shows control characters, keeps \\n and \\t, normalises \\r\\n", () => {
    expect(modelText("\u001b[1;32mok\u001b[0m\r\nx\u0007y\tz\u0000\n\u001b]0;title\u0007done")).toBe("ok\nx␇y\tz␀\ndone");
  });

  it("holds back a UTF-8 sequence cut at the end", () => {
    const euro = Buffer.from("a€"); // 61 e2 82 ac
    expect(completeLength(euro)).toBe(4);
    expect(completeLength(euro.subarray(0, 3))).toBe(1);
    expect(completeLength(euro.subarray(0, 2))).toBe(1);
    expect(completeLength(Buffer.from([0x61, 0xff]))).toBe(2); // invalid stays (becomes U+FFFD)
  });

  it("returns everything when it fits and decodes invalid UTF-8 as U+FFFD", async () => {
    const file = path.join(tmp, "small.log");
    fs.writeFileSync(file, Buffer.concat([Buffer.from("ok "), Buffer.from([0xff]), Buffer.from("\n")]));
    const p = await previewRange(fileReader(file), 0, 5, 100);
    expect(p).toEqual({ text: "ok \ufffd\n", headBytes: 5, tailBytes: 0, omittedBytes: 0, droppedBytes: 0 });
  });

  it("cuts head and tail at line boundaries and counts the omitted bytes exactly", async () => {
    const file = path.join(tmp, "lines.log");
    // Punctuation that changes from line to line: no line template dominates, nothing collapses.
    const marks = ["", ".", ",", ";"];
    const lines = Array.from({ length: 1000 }, (_, i) => `line ${i} ${String.fromCharCode(97 + (i % 26))}${marks[i % 4]} ünïcödé\n`).join("");
    fs.writeFileSync(file, lines);
    const size = Buffer.byteLength(lines);
    const p = await previewRange(fileReader(file), 0, size, 1000);
    expect(p.headBytes + p.omittedBytes + p.tailBytes).toBe(size);
    expect(p.headBytes).toBeLessThanOrEqual(500);
    expect(p.tailBytes).toBeLessThanOrEqual(500);
    const [head, rest] = p.text.split(/\[\.\.\. \d+ bytes omitted; full output: .* \.\.\.\]\n/);
    expect(head).toMatch(/^line 0 a ünïcödé\n(.*\n)*$/);
    expect(head!.endsWith("\n")).toBe(true);
    expect(rest).toMatch(/^line \d+ [a-z][.,;]? ünïcödé\n(.*\n)*line 999 l; ünïcödé\n$/);
    expect(p.text).toContain(`[... ${p.omittedBytes} bytes omitted; full output: ${file} ...]`);
  });

  it("cuts at character boundaries when there are no lines", async () => {
    const file = path.join(tmp, "noline.log");
    const text = "€".repeat(1000); // 3 bytes each, no newline
    fs.writeFileSync(file, text);
    const p = await previewRange(fileReader(file), 0, 3000, 100);
    expect(p.headBytes + p.omittedBytes + p.tailBytes).toBe(3000);
    expect(p.text).not.toContain("\ufffd");
    expect(p.text.startsWith("€".repeat(16))).toBe(true);
  });

  it("previews a range in the middle of the file", async () => {
    const file = path.join(tmp, "range.log");
    fs.writeFileSync(file, "aaaa\nbbbb\ncccc\n");
    const p = await previewRange(fileReader(file), 5, 10, 100);
    expect(p.text).toBe("bbbb\n");
  });
});
