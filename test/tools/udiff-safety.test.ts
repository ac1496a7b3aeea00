// udiff never edits the wrong place or loses data: a partial `+++ /dev/null`
// is refused, `-a,0` inserts after line a, `\ No newline at end of file` is
// honoured on both sides, and nothing is written when any file fails.

import * as fsp from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { udiffTool } from "../../tools/yuj/udiff.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
});
afterEach(() => t.cleanup());

const read = (rel: string) => fsp.readFile(path.join(t.cwd, rel), "utf8");
const run = (...lines: string[]) => udiffTool.run({ patch: lines.join("\n") + "\n" }, t.ctx);

describe("udiff safety", () => {
  it("refuses +++ /dev/null whose hunk removes only some lines, and keeps the file", async () => {
    await t.put({ "sample.txt": "keep\nremove\n" });
    const r = await run("--- a/sample.txt", "+++ /dev/null", "@@ -2 +0,0 @@", "-remove");
    expect(r).toMatchObject({
      ok: false,
      modelText:
        "ERROR: udiff delete_not_empty: +++ /dev/null would delete sample.txt, but the hunks do not remove all of it (it has 2 lines; the hunks remove 1); " +
        "the file is not empty afterwards. Use '+++ b/sample.txt' to remove only those lines",
    });
    expect(await read("sample.txt")).toBe("keep\nremove\n");
  });

  it("deletes a file whose hunk removes every line", async () => {
    await t.put({ "gone.txt": "a\nb\n" });
    const r = await run("--- a/gone.txt", "+++ /dev/null", "@@ -1,2 +0,0 @@", "-a", "-b");
    expect(r).toMatchObject({ ok: true, modelText: "OK: applied unified diff (1 file(s))", display: { kind: "text", text: "deleted: gone.txt" } });
    await expect(fsp.stat(path.join(t.cwd, "gone.txt"))).rejects.toThrow();
  });

  it("@@ -1,0 +2 @@ inserts after line 1", async () => {
    await t.put({ "sample.txt": "one\nthree\n" });
    const r = await run("--- a/sample.txt", "+++ b/sample.txt", "@@ -1,0 +2 @@", "+two");
    expect(r).toMatchObject({ ok: true, modelText: "OK: applied unified diff (1 file(s))" });
    expect(await read("sample.txt")).toBe("one\ntwo\nthree\n");
  });

  it("@@ -0,0 +1 @@ inserts before the first line", async () => {
    await t.put({ "sample.txt": "one\n" });
    expect((await run("--- a/sample.txt", "+++ b/sample.txt", "@@ -0,0 +1 @@", "+zero")).ok).toBe(true);
    expect(await read("sample.txt")).toBe("zero\none\n");
  });

  it("a new file marked '\\ No newline at end of file' ends without one", async () => {
    const r = await run("--- /dev/null", "+++ b/no-newline.txt", "@@ -0,0 +1 @@", "+last line", "\\ No newline at end of file");
    expect(r).toMatchObject({ ok: true, modelText: "OK: applied unified diff (1 file(s))" });
    expect(await read("no-newline.txt")).toBe("last line");
  });

  it("removing the final newline, and adding it back, as the markers say", async () => {
    await t.put({ "a.txt": "x\ny\n" });
    expect((await run("--- a/a.txt", "+++ b/a.txt", "@@ -2 +2 @@", "-y", "+Y", "\\ No newline at end of file")).ok).toBe(true);
    expect(await read("a.txt")).toBe("x\nY");
    expect((await run("--- a/a.txt", "+++ b/a.txt", "@@ -2 +2 @@", "-Y", "\\ No newline at end of file", "+y")).ok).toBe(true);
    expect(await read("a.txt")).toBe("x\ny\n");
  });

  it("an untouched last line without a newline stays that way", async () => {
    await t.put({ "a.txt": "one\ntwo\nthree" });
    expect((await run("--- a/a.txt", "+++ b/a.txt", "@@ -1 +1 @@", "-one", "+ONE")).ok).toBe(true);
    expect(await read("a.txt")).toBe("ONE\ntwo\nthree");
  });

  it("deleting the last line keeps the surviving line's newline", async () => {
    await t.put({ "sample.txt": "keep\nremove\n" });
    expect((await run("--- a/sample.txt", "+++ b/sample.txt", "@@ -2 +1,0 @@", "-remove")).ok).toBe(true);
    expect(await read("sample.txt")).toBe("keep\n");
  });

  it("an ambiguous whitespace-normalised match changes nothing", async () => {
    const original = "if ready:\n    run()\nif ready:\n    run()\n";
    await t.put({ "sample.py": original });
    const r = await run("--- a/sample.py", "+++ b/sample.py", "@@ -50,2 +50,2 @@", " if ready:", "-  run()", "+    stop()");
    expect(r.ok).toBe(false);
    expect(r.modelText).toMatch(/^ERROR: udiff hunk_ambiguous: hunk for sample.py matches more than one location \(hunk 1, patch line 3: lines 1, 3\)/);
    expect(r.modelText).toContain('<candidates total="2" cause_hint="whitespace_drift" path="sample.py">');
    expect(await read("sample.py")).toBe(original);
  });
});
