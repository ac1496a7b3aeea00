// The output goes to disk, not through yuj: a command that prints hundreds
// of megabytes must not grow yuj's memory, and what the model gets stays
// bounded while saying exactly what was left out.

import { afterEach, expect, it } from "vitest";
import { cleanupAll, makeHarness } from "./support.js";

afterEach(cleanupAll);

const OMITTED = /\[\.\.\. (\d+) bytes omitted; full output: (.+) \.\.\.\]\n/;

it("spills 200 MB to disk with flat memory and a bounded, exact preview", async () => {
  const { manager, events } = makeHarness();
  const total = 200 * 1024 * 1024;
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  const job = manager.start({ command: `yes | head -c ${total}`, cwd: process.cwd(), background: true });
  try {
    expect(await manager.wait(job.id, "exit", 60_000)).toBe("exited");
  } finally {
    clearInterval(sampler);
  }
  peak = Math.max(peak, process.memoryUsage().rss);
  expect(peak - baseline).toBeLessThan(50 * 1024 * 1024);

  const snap = manager.get(job.id)!;
  expect(snap.exitCode).toBe(141); // pipefail: `yes` dies of SIGPIPE when head is done
  expect(snap.totalBytes).toBe(total);

  const previewBytes = 16384;
  const read = await manager.readNew(job.id, previewBytes);
  expect(read.newBytes).toBe(total);
  expect(Buffer.byteLength(read.text)).toBeLessThan(previewBytes + 512);
  const m = OMITTED.exec(read.text)!;
  expect(m).not.toBeNull();
  const omitted = Number(m[1]);
  expect(m[2]).toBe(job.outputFile);
  expect(omitted).toBe(read.omittedBytes);
  const head = read.text.slice(0, m.index);
  const tail = read.text.slice(m.index + m[0].length);
  expect(head).toMatch(/^(y\n)+$/);
  expect(tail).toMatch(/^(y\n)+$/);
  expect(Buffer.byteLength(head) + omitted + Buffer.byteLength(tail)).toBe(total);

  const outputs = events.filter((e) => e.type === "job_output") as unknown as { text: string; totalBytes: number }[];
  expect(outputs.every((o) => Buffer.byteLength(o.text) <= 4096)).toBe(true);
  expect(outputs.at(-1)?.totalBytes).toBe(total);
  expect((await manager.readNew(job.id)).newBytes).toBe(0);
}, 90_000);
