// Large test inputs, written a block at a time: numbered text files of any
// size, a sparse file that is text at its start and a hole after, and a tree
// whose files hold a given number of matching lines.

import * as fsp from "node:fs/promises";
import * as path from "node:path";

export const numberedLine = (n: number): string => `line ${n} of the file`;

/** Lines `numberedLine(1..)` until the file holds at least `bytes`; returns the line count. */
export async function writeNumberedFile(file: string, bytes: number, line: (n: number) => string = numberedLine): Promise<number> {
  await fsp.mkdir(path.dirname(file), { recursive: true });
  const handle = await fsp.open(file, "w");
  let n = 0;
  try {
    for (let written = 0; written < bytes; ) {
      const block = Buffer.from(Array.from({ length: 10_000 }, (_, i) => line(n + i + 1)).join("\n") + "\n");
      await handle.write(block);
      written += block.length;
      n += 10_000;
    }
  } finally {
    await handle.close();
  }
  return n;
}

/** `lines` numbered lines, then a hole up to `bytes` (no disk used for it). */
export async function writeSparseText(file: string, lines: number, bytes: number): Promise<void> {
  await fsp.mkdir(path.dirname(file), { recursive: true });
  await fsp.writeFile(file, Array.from({ length: lines }, (_, i) => numberedLine(i + 1)).join("\n") + "\n");
  await fsp.truncate(file, bytes);
}

export const matchLine = (n: number): string => `match line ${n} ${"-".repeat(50)}`;
export const matchFile = (f: number): string => `dir/f${String(f).padStart(2, "0")}.txt`;

/** `files` files under `root/dir/` of `lines` matching lines each, written in reverse name order. */
export async function writeMatchTree(root: string, files: number, lines: number): Promise<void> {
  const body = Array.from({ length: lines }, (_, i) => matchLine(i + 1)).join("\n") + "\n";
  await fsp.mkdir(path.join(root, "dir"), { recursive: true });
  for (let f = files - 1; f >= 0; f--) await fsp.writeFile(path.join(root, matchFile(f)), body);
}
