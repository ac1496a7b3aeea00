// A command that prints hundreds of megabytes must not grow yuj's memory or
// its disk use: the log keeps its head and its tail within
// [output].max_job_log_bytes, and what the model gets stays bounded while
// saying exactly what was left out and what the log no longer holds.

import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, expect, it } from "vitest";
import { DEFAULT_MAX_LOG_BYTES } from "../../core/jobs/job-log.js";
import { createTerminalManager } from "../../core/jobs/terminal.js";
import { createEmitter } from "../../core/events.js";
import { cleanupAll, makeHarness } from "./support.js";

afterEach(cleanupAll);

const OMITTED = /\[\.\.\. (\d+) bytes omitted, (\d+) of them dropped from the log .*; kept output: (.+) \.\.\.\]\n/;
const DROPPED_LINE = /\n\[\.\.\. (\d+) bytes of output dropped here: the log keeps the first and the last part, \[output\]\.max_job_log_bytes = (\d+) \.\.\.\]\n/;

it("keeps 200 MB of output within the cap on disk, with flat memory and an exact preview", async () => {
  const { manager, events } = makeHarness();
  const total = 200 * 1024 * 1024;
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  let mostOnDisk = 0;
  const job = manager.start({ command: `yes | head -c ${total}`, cwd: process.cwd(), background: true });
  const jobsDir = path.dirname(job.outputFile);
  // The log and its tail files together, sampled while the output pours in.
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
    const sizes = fs.readdirSync(jobsDir).map((f) => fs.statSync(path.join(jobsDir, f), { throwIfNoEntry: false })?.size ?? 0);
    mostOnDisk = Math.max(mostOnDisk, sizes.reduce((a, b) => a + b, 0));
  }, 10);
  try {
    expect(await manager.wait(job.id, "exit", 60_000)).toBe("exited");
  } finally {
    clearInterval(sampler);
  }
  peak = Math.max(peak, process.memoryUsage().rss);
  expect(peak - baseline).toBeLessThan(50 * 1024 * 1024);
  // On disk at every moment sampled, and at the end: never more than the cap.
  expect(mostOnDisk).toBeLessThanOrEqual(DEFAULT_MAX_LOG_BYTES);
  expect(mostOnDisk).toBeGreaterThan(0);
  const size = fs.statSync(job.outputFile).size;
  expect(size).toBeLessThanOrEqual(DEFAULT_MAX_LOG_BYTES);
  expect(size).toBeGreaterThan(DEFAULT_MAX_LOG_BYTES * 0.7);

  const snap = manager.get(job.id)!;
  expect(snap.exitCode).toBe(141); // pipefail: `yes` dies of SIGPIPE when head is done
  expect(snap.totalBytes).toBe(total);

  const previewBytes = 16384;
  const read = await manager.readNew(job.id, previewBytes);
  expect(read.newBytes).toBe(total);
  expect(read.lines).toBe(total / 2);
  expect(Buffer.byteLength(read.text)).toBeLessThan(previewBytes + 512);
  const m = OMITTED.exec(read.text)!;
  expect(m).not.toBeNull();
  const [omitted, dropped] = [Number(m[1]), Number(m[2])];
  expect(m[3]).toBe(job.outputFile);
  expect(omitted).toBe(read.omittedBytes);
  expect(dropped).toBe(read.droppedBytes);
  const head = read.text.slice(0, m.index);
  const tail = read.text.slice(m.index + m[0].length);
  expect(head).toMatch(/^(y\n)+$/);
  expect(tail).toMatch(/^(y\n)+$/);
  expect(Buffer.byteLength(head) + omitted + Buffer.byteLength(tail)).toBe(total);

  // The log itself says where and how much was dropped, and the rest adds up.
  const logText = fs.readFileSync(job.outputFile, "latin1");
  const d = DROPPED_LINE.exec(logText)!;
  expect(Number(d[1])).toBe(dropped);
  expect(Number(d[2])).toBe(DEFAULT_MAX_LOG_BYTES);
  expect(logText.length - d[0].length + dropped).toBe(total);
  expect(fs.readdirSync(jobsDir).filter((f) => f.startsWith("j1."))).toEqual(["j1.log"]); // the tail files are gone

  const outputs = events.filter((e) => e.type === "job_output") as unknown as { text: string; totalBytes: number }[];
  expect(outputs.every((o) => Buffer.byteLength(o.text) <= 4096)).toBe(true);
  expect(outputs.at(-1)?.totalBytes).toBe(total);
  expect((await manager.readNew(job.id)).newBytes).toBe(0);
}, 90_000);

it("keeps exactly the first and the last bytes of the stream past a small cap", async () => {
  const cap = 256 * 1024;
  const { manager } = makeHarness({ maxLogBytes: cap });
  const job = manager.start({ command: "seq 1 300000", cwd: process.cwd(), background: false });
  expect(await manager.wait(job.id, "exit", 30_000)).toBe("exited");
  const full = execFileSync("seq", ["1", "300000"], { maxBuffer: 16 * 1024 * 1024 });
  const log = fs.readFileSync(job.outputFile);
  expect(log.length).toBeLessThanOrEqual(cap);
  const d = DROPPED_LINE.exec(log.toString("latin1"))!;
  const dropped = Number(d[1]);
  const headLen = d.index;
  const tailLen = log.length - headLen - d[0].length;
  expect(headLen + dropped + tailLen).toBe(full.length);
  expect(log.subarray(0, headLen).equals(full.subarray(0, headLen))).toBe(true);
  expect(log.subarray(headLen + d[0].length).equals(full.subarray(full.length - tailLen))).toBe(true);
  // The tail is at least a quarter of the cap (the two tail files take turns).
  expect(tailLen).toBeGreaterThanOrEqual(cap / 4 - 512);

  // A read of the whole range counts every line and says how much is gone.
  const read = await manager.readNew(job.id, 4096);
  expect(read.lines).toBe(300000);
  expect(read.droppedBytes).toBe(dropped);
  expect(read.text.startsWith("1\n2\n3\n")).toBe(true);
  expect(read.text.endsWith("299999\n300000\n")).toBe(true);
});

it("caps the terminal's log the same way", async () => {
  const cap = 256 * 1024;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "yuj-term-cap-"));
  const { emit } = createEmitter("test", () => undefined);
  const terminals = createTerminalManager({ emit, sessionDir: dir, maxLogBytes: cap });
  try {
    const started = await terminals.start("head -c 3000000 /dev/zero | tr '\\0' 'y'; echo; echo the-end", dir);
    expect(started.ok).toBe(true);
    for (let i = 0; i < 60; i++) {
      const r = await terminals.io("t1", { timeoutMs: 500 });
      if (r.ok && r.read.status.state === "exited") break;
    }
    const log = fs.readFileSync(path.join(dir, "terminal", "t1.log"), "latin1");
    expect(log.length).toBeLessThanOrEqual(cap);
    const d = DROPPED_LINE.exec(log)!;
    expect(Number(d[1])).toBeGreaterThan(3000000 - cap);
    expect(log.startsWith("yyyy")).toBe(true);
    expect(log.trimEnd().endsWith("the-end")).toBe(true);
    expect(fs.readdirSync(path.join(dir, "terminal"))).toEqual(["t1.log"]);
  } finally {
    await terminals.shutdown();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
