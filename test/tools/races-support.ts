// The shape of every race test: a project holding `dir/f.txt`, a folder
// outside it with a file of the same name, a child process swapping a path
// of the project for a link to the outside while a tool is called a few
// hundred times; then the outside must be exactly as it was and no result
// may quote it.

import * as fsp from "node:fs/promises";
import * as path from "node:path";
import { expect } from "vitest";
import { createSessionMemory } from "../../core/session-memory.js";
import { makeOutside, snapshot, startSwapper } from "../support/swapper.js";
import type { TestToolContext } from "../support/tool-context.js";

export const SECRET = "OUTSIDE-SECRET";
const CALLS = 300;

export interface RaceCase {
  t: TestToolContext;
  /** Files of the project, relative to it. */
  files: Record<string, string>;
  /** Files of the outside folder. */
  outside: Record<string, string>;
  /** The "outside" is this folder of the project instead (`.git`, a hidden one): the tools must not reach it either. */
  protectedDir?: string;
  /** What the child swaps (`dir` or `dir/f.txt`) and, relative to the outside folder, what the link points at. */
  swap: string;
  linkTo: string;
  /** One tool call; `i` counts from 0. */
  call: (i: number) => Promise<{ ok: boolean; text: string }>;
}

/** Runs the case (raced calls may fail, refused, which is right; none may reach outside). */
export async function runRace(c: RaceCase): Promise<void> {
  await c.t.put(c.files);
  const outside = c.protectedDir ? path.join(c.t.cwd, c.protectedDir) : await makeOutside(c.outside);
  if (c.protectedDir) await c.t.put(Object.fromEntries(Object.entries(c.outside).map(([rel, text]) => [path.join(c.protectedDir!, rel), text])));
  const before = await snapshot(outside);
  // The call itself is sound: with nothing swapping, it succeeds.
  expect(await c.call(-1)).toMatchObject({ ok: true });
  const swapper = await startSwapper(c.t.cwd, c.swap, path.join(outside, c.linkTo));
  const leaks: string[] = [];
  let swapped = false;
  try {
    for (let i = 0; i < CALLS; i++) {
      const r = await c.call(i);
      if (r.text.includes(SECRET)) leaks.push(r.text);
    }
  } finally {
    swapped = await swapper.stop();
  }
  expect(swapped).toBe(true);
  // And once the swapping stops, it works on the project's file again (in a
  // fresh memory: a refused patch sent again as it was would be refused as a repeat).
  c.t.ctx.memory = createSessionMemory();
  expect(await c.call(CALLS)).toMatchObject({ ok: true });
  const after = await snapshot(outside);
  if (!c.protectedDir) await fsp.rm(outside, { recursive: true, force: true });
  expect(leaks.slice(0, 2)).toEqual([]);
  expect(after).toEqual(before);
}

/** The project file's text wherever the swapper has put it now (`dir/f.txt`, `dir.real/f.txt` or `dir/f.txt.real`), or "". */
async function currentText(cwd: string, rel = "dir/f.txt"): Promise<string> {
  const dir = path.dirname(rel);
  const base = path.basename(rel);
  for (const p of [rel, `${dir}.real/${base}`, `${rel}.real`]) {
    const st = await fsp.lstat(path.join(cwd, p)).catch(() => undefined);
    if (st?.isFile()) {
      const text = await fsp.readFile(path.join(cwd, p), "utf8").catch(() => "");
      if (!text.includes(SECRET)) return text;
    }
  }
  return "";
}

/** The word to replace and its replacement: `inside` and `INSIDE` by turns, whichever the file holds now. */
export async function flip(cwd: string, rel?: string): Promise<[string, string]> {
  const text = await currentText(cwd, rel);
  return text.includes("INSIDE") ? ["INSIDE", "inside"] : ["inside", "INSIDE"];
}
