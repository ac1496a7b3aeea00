// The stale-file guard (block mode) over Yuj's two patch dialects, on real
// files through the real dispatcher: every unread file a patch would change
// is named at once and nothing is written; a file the patch adds needs no
// read; a successful patch refreshes every path it touched. And udiff's
// word for deleting a file that is not there.

import * as fsp from "node:fs/promises";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { guardedSession, type GuardedSession } from "../guards/session.js";

let s: GuardedSession | undefined;
afterEach(async () => {
  await s?.cleanup();
  s = undefined;
});

const PATCHES = {
  apply_patch: {
    both: "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+ONE\n*** Update File: b.txt\n@@\n-two\n+TWO\n*** Add File: c.txt\n+new\n*** End Patch\n",
    again: "*** Begin Patch\n*** Update File: a.txt\n@@\n-ONE\n+uno\n*** Update File: c.txt\n@@\n-new\n+newer\n*** End Patch\n",
    result: '<apply_patch ok="true" ops="3" v="1">\n  updated: a.txt (1 hunk, ~1/+1)\n  updated: b.txt (1 hunk, ~1/+1)\n  added: c.txt (1 line)\n</apply_patch>',
  },
  udiff: {
    both: "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+ONE\n--- a/b.txt\n+++ b/b.txt\n@@ -1 +1 @@\n-two\n+TWO\n--- /dev/null\n+++ b/c.txt\n@@ -0,0 +1 @@\n+new\n",
    again: "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-ONE\n+uno\n--- a/c.txt\n+++ b/c.txt\n@@ -1 +1 @@\n-new\n+newer\n",
    result: "OK: applied unified diff (3 file(s))",
  },
} as const;

describe.each(["apply_patch", "udiff"] as const)("%s under the stale-file guard (block)", (tool) => {
  const p = PATCHES[tool];
  const text = (rel: string) => fsp.readFile(path.join(s!.cwd, rel), "utf8");

  it("names every unread file at once, writes nothing, then applies once they are read and needs no read for its own change", async () => {
    s = await guardedSession((c) => {
      c.tools.stale_file = "block";
      c.tools.edit_format = tool;
    });
    await s.put({ "a.txt": "one\n", "b.txt": "two\n" });
    expect((await s.call(tool, { patch: p.both })).modelText).toBe("ERROR: stale_file: read a.txt, b.txt first");
    await s.call("read", { path: "a.txt" });
    expect((await s.call(tool, { patch: p.both })).modelText).toBe("ERROR: stale_file: read b.txt first");
    expect([await text("a.txt"), await text("b.txt")]).toEqual(["one\n", "two\n"]);
    await expect(fsp.stat(path.join(s.cwd, "c.txt"))).rejects.toThrow();

    await s.call("read", { path: "b.txt" });
    expect((await s.call(tool, { patch: p.both })).modelText).toBe(p.result);
    // The patch's own changes, the added file among them, count as seen.
    expect((await s.call(tool, { patch: p.again })).ok).toBe(true);
    expect([await text("a.txt"), await text("c.txt")]).toEqual(["uno\n", "newer\n"]);
  });
});

describe("udiff: deleting a file that is not there", () => {
  it("says there is nothing to delete (creating is no way forward), with the near names", async () => {
    s = await guardedSession((c) => (c.tools.edit_format = "udiff"));
    await s.put({ "notes.txt": "x\n" });
    const r = await s.call("udiff", { patch: "--- a/note.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n" });
    expect(r.modelText).toBe("ERROR: udiff file_not_found: cannot delete note.txt: file does not exist (did you mean 'notes.txt'?); there is nothing to delete");
    const upd = await s.call("udiff", { patch: "--- a/note.txt\n+++ b/note.txt\n@@ -1 +1 @@\n-x\n+y\n" });
    expect(upd.modelText).toBe("ERROR: udiff file_not_found: cannot update note.txt: file does not exist (did you mean 'notes.txt'?); a new file's diff starts with --- /dev/null");
  });
});
