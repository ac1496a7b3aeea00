// The streaming line scanner against the whole-file decode it replaces: the
// same lines, line count and "more follows" for random windows of random
// files, with line ends, CR/LF pairs and multi-byte characters placed across
// the scanner's chunk boundaries, where a streaming reader goes wrong.

import * as fsp from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeServices } from "../../core/services.js";
import { SCAN_CHUNK_BYTES, scanLines } from "../../tools/lib/line-scan.js";
import { decodeText } from "../../tools/lib/text-file.js";

const fs = nodeServices().fs;
let dir: string;
beforeAll(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), "yuj-line-scan-"));
});
afterAll(() => fsp.rm(dir, { recursive: true, force: true }));

// A tiny deterministic generator, so a failure can be rerun.
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const TOKENS = ["a", "bc", "é", "€", "😀", "\n", "\r", "\r\n", "\n\n", " "];

const STRADDLERS = ["😀", "€", "é", "\r\n", "\r", "\n"];

/**
 * ~2.3 chunks of random text. At each chunk boundary one tricky token starts
 * 0-4 bytes before it, so that it is split (or just not split) by the read.
 */
function randomText(seed: number): Buffer {
  const next = rng(seed);
  const parts: Buffer[] = [];
  let size = 0;
  const push = (text: string) => {
    const b = Buffer.from(text, "utf8");
    parts.push(b);
    size += b.length;
  };
  const target = Math.floor(SCAN_CHUNK_BYTES * 2.3);
  while (size < target) {
    const boundary = (Math.floor(size / SCAN_CHUNK_BYTES) + 1) * SCAN_CHUNK_BYTES;
    if (boundary - size <= 130) {
      const start = boundary - Math.floor(next() * 5);
      push("x".repeat(Math.max(0, start - size)));
      push(STRADDLERS[Math.floor(next() * STRADDLERS.length)]!);
      continue;
    }
    // Mostly long runs, so the files have realistic line lengths.
    push(next() < 0.7 ? "x".repeat(Math.floor(next() * 120)) : TOKENS[Math.floor(next() * TOKENS.length)]!);
  }
  return Buffer.concat(parts);
}

// Yuj: what its edit works on (CRLF turned to LF), cut at LF. Chord: LF, CRLF
// and a lone CR each end one line.
function referenceLines(bytes: Buffer, chord: boolean): string[] {
  const text = chord ? bytes.toString("utf8").replace(/^\ufeff/, "").replace(/\r\n|\r/g, "\n") : decodeText(bytes)!.text;
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

/** Where two long line lists part, shortly (a whole-list diff of megabytes is unreadable). */
function firstDifference(got: string[], want: string[]): object | undefined {
  const at = got.findIndex((l, i) => l !== want[i]);
  if (at < 0 && got.length === want.length) return undefined;
  const i = at < 0 ? Math.min(got.length, want.length) : at;
  const around = (lines: string[]) => lines.slice(Math.max(0, i - 1), i + 2).map((l) => JSON.stringify(l.slice(-30)));
  return { at: i, lengths: [got.length, want.length], got: around(got), want: around(want) };
}

describe("scanLines", () => {
  it("gives the lines, count and continuation a whole-file decode gives, across chunk boundaries", async () => {
    for (let seed = 1; seed <= 12; seed++) {
      const bytes = randomText(seed);
      const file = path.join(dir, `f${seed}.txt`);
      await fsp.writeFile(file, bytes);
      const next = rng(seed * 7919);
      for (const chord of [false, true]) {
        const all = referenceLines(bytes, chord);
        const windows: Array<[number, number]> = [
          [0, Infinity],
          [0, 5],
          [all.length - 3, 10],
          [all.length, 1],
          [Math.floor(next() * all.length), 1 + Math.floor(next() * 3000)],
          [Math.floor(next() * all.length), Infinity],
        ];
        for (const [from, count] of windows) {
          const scan = await scanLines(fs, file, {
            from,
            count,
            toEnd: chord,
            loneCrEndsLine: chord,
            maxKeptBytes: 64 * 1024 * 1024,
            hash: chord && from === 0,
          });
          const where = `seed ${seed}, ${chord ? "chord" : "yuj"}, window ${from}+${count}`;
          expect(scan.ok, where).toBe(true);
          if (!scan.ok) continue;
          expect(firstDifference(scan.lines, all.slice(from, from + count)), where).toBeUndefined();
          expect(scan.cut, where).toBe(false);
          if (chord) {
            expect(scan.total, where).toBe(all.length);
            if (from === 0) expect(scan.sha256, where).toBe(createHash("sha256").update(bytes).digest("hex"));
          } else {
            expect(scan.more, where).toBe(from + count < all.length);
          }
        }
      }
    }
  });

  it("drops a BOM, and a lone CR ends a line only when asked", async () => {
    const file = path.join(dir, "bom.txt");
    await fsp.writeFile(file, "\ufeffone\rtwo\r\nthree\r");
    const window = { from: 0, count: Infinity, toEnd: true, maxKeptBytes: 1000 };
    expect(await scanLines(fs, file, { ...window, loneCrEndsLine: true })).toMatchObject({ ok: true, lines: ["one", "two", "three"], total: 3 });
    expect(await scanLines(fs, file, { ...window, loneCrEndsLine: false })).toMatchObject({ ok: true, lines: ["one\rtwo", "three\r"], total: 2 });
  });

  it("keeps at most maxKeptBytes and says the window was cut", async () => {
    const file = path.join(dir, "long.txt");
    await fsp.writeFile(file, `${"a".repeat(100)}\n${"b".repeat(100)}\nc\n`);
    const scan = await scanLines(fs, file, { from: 0, count: 3, toEnd: true, loneCrEndsLine: false, maxKeptBytes: 150 });
    expect(scan).toMatchObject({ ok: true, lines: ["a".repeat(100), "b".repeat(49)], cut: true, total: 3 });
  });

  it("reports NUL as binary and invalid UTF-8, also a sequence cut off at the end of the file", async () => {
    const nul = path.join(dir, "nul.bin");
    const bad = path.join(dir, "bad.txt");
    const cut = path.join(dir, "cut.txt");
    await fsp.writeFile(nul, Buffer.from("ab\0cd\n"));
    await fsp.writeFile(bad, Buffer.from([0x61, 0xe9, 0x0a]));
    await fsp.writeFile(cut, Buffer.concat([Buffer.from("x".repeat(SCAN_CHUNK_BYTES - 1)), Buffer.from([0xe2, 0x82])]));
    const window = { from: 0, count: 1, toEnd: false, loneCrEndsLine: false, maxKeptBytes: 1 << 22 };
    expect(await scanLines(fs, nul, window)).toEqual({ ok: false, reason: "binary" });
    expect(await scanLines(fs, bad, window)).toEqual({ ok: false, reason: "not_utf8" });
    expect(await scanLines(fs, cut, window)).toEqual({ ok: false, reason: "not_utf8" });
  });
});
