// A large directory search shares its files between this thread and worker
// threads running the bundle's worker entry (dist/structural-worker.js, built
// before the tests).
// Their outcomes must be exactly those of the same search in this thread,
// in the same order, and a cancelled search must stop them.

import { availableParallelism } from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileSearcher, type FileJob, type FileOutcome } from "../../tools/lib/structural/scan-file.js";
import { scanAll } from "../../tools/lib/structural/scan-pool.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";
import { repoRoot } from "../support/loop-harness.js";

const WORKER = pathToFileURL(path.join(repoRoot, "dist", "structural-worker.js"));
/** Workers beside this thread: one per other core, at most four (the test asks for them whatever the load). */
const THREADS = Math.min(4, availableParallelism() - 1);
const QUERY = '((call function: (identifier) @f) @match (#any-of? @f "log" "warn"))';

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
});
afterEach(() => t.cleanup());

async function files(n: number): Promise<FileJob[]> {
  const contents: Record<string, string> = {};
  for (let i = 0; i < n; i++) {
    // Multibyte text, some files with no match, one that does not parse.
    contents[`pkg/m${String(i).padStart(3, "0")}.py`] =
      i % 7 === 0 ? `def broken(:\n    log("é")\n` : i % 3 === 0 ? `x = "ünïcödé ${i}"\n` : `# Grüße ${i}\nlog("☕", ${i})\nwarn(${i}); other(${i})\n`;
  }
  await t.put(contents);
  return Object.keys(contents).map((file) => ({ file, abs: path.join(t.cwd, file) }));
}

async function searcher(query = QUERY): Promise<FileSearcher> {
  const made = await FileSearcher.create("python", query);
  if (!made.ok) throw new Error(made.error);
  return made.searcher;
}

describe.skipIf(THREADS < 1)("search workers", () => {
  it("give exactly the outcomes of a search in this thread, in file order", async () => {
    const jobs = await files(120);
    const local = await searcher();
    try {
      const here = await scanAll(t.ctx, { language: "python", query: QUERY }, jobs, local, { script: undefined, workers: 0 });
      const pooled = await scanAll(t.ctx, { language: "python", query: QUERY }, jobs, local, { script: WORKER, workers: THREADS, atOnce: true });
      expect(here.ok && pooled.ok).toBe(true);
      if (!here.ok || !pooled.ok) return;
      expect([here.threads, pooled.threads]).toEqual([0, THREADS]);
      expect(pooled.outcomes).toEqual(here.outcomes);
      expect(pooled.outcomes.map((o) => o.file)).toEqual(jobs.map((j) => j.file));
      expect(pooled.outcomes.filter((o) => o.syntaxError)).toHaveLength(18);
      // Workers told the search's thread compiled its runtime whole with TurboFan load that one: the same outcomes.
      const optimized = await scanAll(t.ctx, { language: "python", query: QUERY, optimized: true }, jobs, local, { script: WORKER, workers: THREADS, atOnce: true });
      expect(optimized).toEqual(pooled);
      expect(pooled.outcomes[1]!.lines?.[0]).toMatch(/^pkg\/m001\.py:2:1 bytes=\[12,25\) digest=[0-9a-f]{12} \(call\) log\("☕", 1\)$/);
    } finally {
      local.free();
    }
  });

  it("keep the match lines of every file a page reaches, and only the count past it", async () => {
    const jobs = await files(120);
    const local = await searcher();
    /** The first `n` match lines in file order: a file the page reaches must have its lines. */
    const firstLines = (outcomes: FileOutcome[], n: number) => {
      const out: string[] = [];
      for (const o of outcomes) {
        if (out.length >= n || o.count === 0) continue;
        expect(o.lines, o.file).toBeDefined();
        out.push(...o.lines!.slice(0, n - out.length));
      }
      return out;
    };
    try {
      const all = await scanAll(t.ctx, { language: "python", query: QUERY }, jobs, local, { script: undefined, workers: 0 });
      if (!all.ok) throw new Error("not scanned");
      const counts = all.outcomes.map((o) => o.count);
      expect(counts.reduce((a, b) => a + b, 0)).toBe(154);
      for (const lines of [1, 7, 40, 153, 154]) {
        const here = await scanAll(t.ctx, { language: "python", query: QUERY }, jobs, local, { script: undefined, workers: 0, lines });
        const pooled = await scanAll(t.ctx, { language: "python", query: QUERY }, jobs, local, { script: WORKER, workers: THREADS, atOnce: true, lines });
        if (!here.ok || !pooled.ok) throw new Error("not scanned");
        expect(pooled.threads).toBe(THREADS);
        for (const run of [here, pooled]) {
          expect(run.outcomes.map((o) => o.count)).toEqual(counts);
          expect(firstLines(run.outcomes, lines)).toEqual(firstLines(all.outcomes, lines));
        }
        // The files past the page are counted, not rendered.
        if (lines < 100) expect(here.outcomes.at(-1)!.lines).toBeUndefined();
      }
    } finally {
      local.free();
    }
  });

  it("keep their results when a worker runs out of batches before this thread does", async () => {
    const jobs = await files(120);
    const local = await searcher();
    // This thread's reads slowed down (the event loop free meanwhile): the worker takes most
    // batches and has none left while this thread still reads and parses.
    const fs = t.ctx.services.fs;
    const slowFs = { ...fs, readFile: async (...args: Parameters<typeof fs.readFile>) => {
      await new Promise((r) => setTimeout(r, 40));
      return fs.readFile(...args);
    } } as typeof fs;
    const slowCtx = { ...t.ctx, services: { ...t.ctx.services, fs: slowFs } };
    try {
      const here = await scanAll(t.ctx, { language: "python", query: QUERY }, jobs, local, { script: undefined, workers: 0 });
      const pooled = await scanAll(slowCtx, { language: "python", query: QUERY }, jobs, local, { script: WORKER, workers: THREADS, atOnce: true });
      expect(pooled.threads).toBe(THREADS);
      expect(pooled).toEqual({ ...here, threads: THREADS });
    } finally {
      local.free();
    }
  });

  it("stop when the search is cancelled", async () => {
    const jobs = await files(200);
    const local = await searcher();
    try {
      const run = scanAll(t.ctx, { language: "python", query: QUERY }, jobs, local, { script: WORKER, workers: THREADS, atOnce: true });
      t.abort.abort();
      expect(await run).toEqual({ ok: false, cancelled: true, threads: THREADS });
    } finally {
      local.free();
    }
  });

  it("start none for a search that parses little: one whose literals no file holds", async () => {
    const jobs = await files(120);
    const query = '((call function: (identifier) @f) @match (#eq? @f "absent_name"))';
    const local = await searcher(query);
    try {
      const here = await scanAll(t.ctx, { language: "python", query }, jobs, local, { script: undefined, workers: 0 });
      const pooled = await scanAll(t.ctx, { language: "python", query }, jobs, local, { script: WORKER, workers: THREADS });
      expect(pooled).toEqual(here);
      expect(pooled.threads).toBe(0);
      expect(local.parsedChars).toBe(0);
    } finally {
      local.free();
    }
  });

  it("start once this thread has parsed enough, and still give the same outcomes", async () => {
    const contents: Record<string, string> = {};
    // 120 files of about 14,000 characters (mostly one docstring): the first batch this thread parses is over the threshold.
    for (let i = 0; i < 120; i++) contents[`big/f${String(i).padStart(3, "0")}.py`] = `"""${"Grüße ☕ ".repeat(1400)}"""\nlog("☕", ${i})\nwarn(${i}); other(${i})\n`;
    await t.put(contents);
    const jobs = Object.keys(contents).map((file) => ({ file, abs: path.join(t.cwd, file) }));
    const local = await searcher();
    try {
      const here = await scanAll(t.ctx, { language: "python", query: QUERY }, jobs, local, { script: undefined, workers: 0 });
      const pooled = await scanAll(t.ctx, { language: "python", query: QUERY }, jobs, local, { script: WORKER, workers: THREADS });
      expect(here.ok && pooled.ok).toBe(true);
      if (!here.ok || !pooled.ok) return;
      expect(pooled.threads).toBeGreaterThanOrEqual(1);
      expect(pooled.outcomes).toEqual(here.outcomes);
      expect(pooled.outcomes.reduce((n, o) => n + (o.lines?.length ?? 0), 0)).toBe(120 * 2);
    } finally {
      local.free();
    }
  });
});
