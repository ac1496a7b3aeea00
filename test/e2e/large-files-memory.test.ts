// The memory a file tool costs on inputs far larger than it shows, measured
// as the peak RSS of a real `yuj tool` process (the bundle), against the
// peak of the same command reading a one-line file. The bounds are generous
// (twice the targets in the README) so that a busy machine cannot fail
// them, and far below what loading the input costs: 600 MB for the read,
// several hundred MB for a million grep matches.

import * as fsp from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isolatedEnv } from "../support/cli.js";
import { matchFile, matchLine, numberedLine, writeMatchTree, writeNumberedFile, writeSparseText } from "../support/big-files.js";
import { measureToolCall } from "../support/peak-rss.js";

let dir: string;
let env: Record<string, string>;
let baseMiB: number;
let bigLines: number;

beforeAll(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), "yuj-large-files-"));
  env = isolatedEnv();
  await fsp.mkdir(path.join(dir, "files"));
  await fsp.writeFile(path.join(dir, "files", "small.txt"), "one line\n");
  await writeSparseText(path.join(dir, "files", "huge.txt"), 80_000, 600 * 1024 * 1024);
  bigLines = await writeNumberedFile(path.join(dir, "files", "big.txt"), 60 * 1024 * 1024);
  await writeMatchTree(path.join(dir, "tree"), 20, 50_000);
  const base = await measureToolCall("read", { path: "small.txt" }, { cwd: path.join(dir, "files"), env });
  expect(base.stdout).toBe("1: one line\n");
  baseMiB = base.peakMiB;
}, 120_000);
afterAll(() => fsp.rm(dir, { recursive: true, force: true }));

describe("peak memory of yuj tool on large inputs", () => {
  it("Yuj read of 10 lines of a 600 MB file", async () => {
    const res = await measureToolCall("read", { path: "huge.txt", offset: 100, limit: 10 }, { cwd: path.join(dir, "files"), env });
    expect(res.stdout.split("\n").slice(0, 10)).toEqual(Array.from({ length: 10 }, (_, i) => `${101 + i}: ${numberedLine(101 + i)}`));
    expect(res.peakMiB - baseMiB).toBeLessThan(100);
  });

  it("Chord read of 10 lines of a 60 MB file (past its 50 MiB limit), counting all its lines", async () => {
    const res = await measureToolCall("read", { path: "big.txt", offset: 500_001, limit: 10 }, { cwd: path.join(dir, "files"), env, global: ["--profile", "chord"] });
    const lines = res.stdout.split("\n");
    expect(lines[0]).toBe(`READ_RESULT lines=500001-500010 total=${bigLines}`);
    expect(lines[1]).toBe(numberedLine(500_001));
    expect(res.peakMiB - baseMiB).toBeLessThan(100);
  });

  it("Yuj grep with a million matches", async () => {
    const res = await measureToolCall("grep", { pattern: "match" }, { cwd: path.join(dir, "tree"), env });
    expect(res.stdout.split("\n").slice(0, 2)).toEqual([
      '<search_result tool="grep" total="1000000" shown="25" page="1" next_page="2" pattern="match" scope=".">',
      `./${matchFile(0)}:1:${matchLine(1)}`,
    ]);
    expect(res.peakMiB - baseMiB).toBeLessThan(200);
  });

  it("Chord grep with a million matches", async () => {
    const res = await measureToolCall("grep", { pattern: "match" }, { cwd: path.join(dir, "tree"), env, global: ["--profile", "chord"] });
    expect(res.stdout.split("\n")[0]).toBe(`${matchFile(0)}:1:${matchLine(1)}`);
    expect(res.peakMiB - baseMiB).toBeLessThan(200);
  });
});
