// Memory of the file tools on inputs far larger than what they show: each
// call is a real `yuj tool` process (the built bundle) whose own peak RSS is
// read as it exits (test/support/peak-rss.ts), minus the peak of the same
// command reading a one-line file. Inputs: a real 500 MB text file (7.3M
// numbered lines) and a tree of 20 files holding a million matching lines.
// BENCH_LARGE_RUNS sets the runs per measure (default 3); the median is shown.

import * as fsp from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isolatedEnv } from "../test/support/cli.js";
import { writeMatchTree, writeNumberedFile } from "../test/support/big-files.js";
import { measureToolCall } from "../test/support/peak-rss.js";

type Row = [string, string, string];

const RUNS = Number(process.env.BENCH_LARGE_RUNS ?? 3);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

interface Case {
  label: string;
  tool: string;
  args: unknown;
  where: "files" | "tree";
  chord?: boolean;
  target: string;
}

const CASES: Case[] = [
  { label: "read: 10 lines of a 500 MB file (Yuj)", tool: "read", args: { path: "big.txt", offset: 3_000_000, limit: 10 }, where: "files", target: "+50 MB" },
  { label: "read: 10 lines of a 500 MB file (Chord, counts all lines)", tool: "read", args: { path: "big.txt", offset: 3_000_001, limit: 10 }, where: "files", chord: true, target: "+50 MB" },
  { label: "grep: 1M matches, page 1 (Yuj)", tool: "grep", args: { pattern: "match" }, where: "tree", target: "+100 MB" },
  { label: "grep: 1M matches, first 120 (Chord)", tool: "grep", args: { pattern: "match" }, where: "tree", chord: true, target: "+100 MB" },
];

export async function benchLargeInputs(): Promise<Row[]> {
  const dir = await fsp.mkdtemp(join(tmpdir(), "yuj-bench-large-"));
  try {
    const env = isolatedEnv();
    await writeNumberedFile(join(dir, "files", "big.txt"), 500 * 1024 * 1024);
    await fsp.writeFile(join(dir, "files", "small.txt"), "one line\n");
    await writeMatchTree(join(dir, "tree"), 20, 50_000);

    const run = async (c: Case | undefined) => {
      const res = c
        ? await measureToolCall(c.tool, c.args, { cwd: join(dir, c.where), env, global: c.chord ? ["--profile", "chord"] : [] })
        : await measureToolCall("read", { path: "small.txt" }, { cwd: join(dir, "files"), env });
      if (res.code !== 0) throw new Error(`${c?.label ?? "baseline"} exited ${res.code}: ${res.stdout.slice(0, 300)}${res.stderr}`);
      return res.peakMiB;
    };
    const peaks = new Map<Case | undefined, number[]>();
    const timings = new Map<Case, number[]>();
    // Interleaved, so load elsewhere on the machine hits every case alike.
    for (let i = 0; i < RUNS; i++) {
      for (const c of [undefined, ...CASES]) {
        const t0 = performance.now();
        const peak = await run(c);
        const list = peaks.get(c) ?? [];
        list.push(peak);
        peaks.set(c, list);
        if (c) timings.set(c, [...(timings.get(c) ?? []), performance.now() - t0]);
      }
    }
    const base = median(peaks.get(undefined)!);
    const rows: Row[] = [["`yuj tool read` of a one-line file (the base)", `${base.toFixed(0)} MiB peak RSS`, ""]];
    for (const c of CASES) {
      const grow = median(peaks.get(c)!) - base;
      rows.push([c.label, `+${grow.toFixed(0)} MiB (${(median(timings.get(c)!) / 1000).toFixed(2)} s)`, c.target]);
    }
    return rows;
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}
