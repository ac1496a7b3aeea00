// Chord's file tools (`--profile chord`) against a process that swaps a
// folder of the project (or the file itself) for a link to the outside
// between the tool's path check and its use of the path: nothing outside is
// written, replaced, deleted or shown. The Chord tools take outside paths
// (the permission rules judge them), so a path named inside the project
// must also never become an outside one halfway.

import * as fsp from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, it } from "vitest";
import { chordCall } from "../support/chord-call.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";
import { flip, runRace, SECRET } from "./races-support.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
});
afterEach(async () => {
  await t.cleanup();
});

const files = { "dir/f.txt": "inside\n" };
const outside = { "f.txt": `${SECRET}\n` };
const v4a = (from: string, to: string) => `*** Begin Patch\n*** Update File: dir/f.txt\n@@\n-${from}\n+${to}\n*** End Patch`;

/** Puts `dir/f.txt` back when a delete removed it: in the real folder, never through a link (wx does not follow one). */
async function recreate(cwd: string): Promise<void> {
  for (const dir of ["dir", "dir.real"]) {
    const st = await fsp.lstat(path.join(cwd, dir)).catch(() => undefined);
    if (!st?.isDirectory()) continue;
    const names: string[] = await fsp.readdir(path.join(cwd, dir)).catch(() => []);
    if (names.includes("f.txt") || names.includes("f.txt.real")) return;
    await fsp.writeFile(path.join(cwd, dir, "f.txt"), "inside\n", { flag: "wx" }).catch(() => undefined);
    return;
  }
}

describe.each([
  { swap: "dir", linkTo: "." },
  { swap: "dir/f.txt", linkTo: "f.txt" },
])("Chord file tools while $swap is swapped for a link outside", ({ swap, linkTo }) => {
  const race = (call: (i: number) => Promise<{ ok: boolean; text: string }>) => runRace({ t, files, outside, swap, linkTo, call });

  it("read never returns the outside file", async () => {
    await race(() => chordCall(t, "read", { path: "dir/f.txt" }));
  }, 20_000);

  it("write (after a whole read) never writes outside", async () => {
    await race(async (i) => {
      const seen = await chordCall(t, "read", { path: "dir/f.txt" });
      const wrote = await chordCall(t, "write", { path: "dir/f.txt", content: `written ${i}\n` });
      return { ok: wrote.ok, text: `${seen.text}\n${wrote.text}` };
    });
  }, 20_000);

  it("write of a new file in a new folder creates nothing outside", async () => {
    await race((i) => chordCall(t, "write", { path: `dir/new${i}/f.txt`, content: "x\n" }));
  }, 20_000);

  it("edit never changes or quotes the outside file", async () => {
    await race(async () => {
      const [from, to] = await flip(t.cwd);
      return chordCall(t, "edit", { path: "dir/f.txt", old_string: from, new_string: to });
    });
  }, 20_000);

  it("apply_patch never changes the outside file", async () => {
    await race(async () => {
      const [from, to] = await flip(t.cwd);
      return chordCall(t, "apply_patch", { patch: v4a(from, to) });
    });
  }, 20_000);

  it("delete never deletes the outside file", async () => {
    await race(async () => {
      const r = await chordCall(t, "delete", { paths: ["dir/f.txt"], reason: "race test" });
      await recreate(t.cwd);
      return r;
    });
  }, 20_000);
});

// The link leads to the project's `.git` instead, which no file tool opens.
// (chordCall runs with the default config, so unreadable_paths is covered on the Yuj surface.)
describe("Chord file tools while dir is swapped for a link to .git", () => {
  const race = (call: (i: number) => Promise<{ ok: boolean; text: string }>) => runRace({ t, files, outside, swap: "dir", linkTo: ".", protectedDir: ".git", call });

  it("read never returns what is there", async () => {
    await race(() => chordCall(t, "read", { path: "dir/f.txt" }));
  }, 20_000);

  it("delete never deletes there", async () => {
    await race(async () => {
      const r = await chordCall(t, "delete", { paths: ["dir/f.txt"], reason: "race test" });
      await recreate(t.cwd);
      return r;
    });
  }, 20_000);
});
