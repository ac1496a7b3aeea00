import * as fsp from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseUdiff } from "../../tools/lib/patch/udiff-parse.js";
import { udiffTool } from "../../tools/yuj/udiff.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
});
afterEach(() => t.cleanup());

const read = (rel: string) => fsp.readFile(path.join(t.cwd, rel), "utf8");
const diff = (...lines: string[]) => lines.join("\n") + "\n";

describe("udiff", () => {
  it("adds, updates and deletes files, answering in one line", async () => {
    await t.put({ "src/a.ts": "one\ntwo\nthree\n", "old.txt": "bye\n" });
    const r = await udiffTool.run(
      {
        patch: diff(
          "diff --git a/src/a.ts b/src/a.ts",
          "index 123..456 100644",
          "--- a/src/a.ts",
          "+++ b/src/a.ts",
          "@@ -1,3 +1,3 @@",
          " one",
          "-two",
          "+TWO",
          " three",
          "--- /dev/null",
          "+++ b/new.txt",
          "@@ -0,0 +1,2 @@",
          "+hello",
          "+world",
          "--- a/old.txt",
          "+++ /dev/null",
          "@@ -1 +0,0 @@",
          "-bye",
        ),
      },
      t.ctx,
    );
    expect(r).toMatchObject({
      ok: true,
      modelText: "OK: applied unified diff (3 file(s))",
      display: { kind: "text", text: "updated: src/a.ts (1 hunk, ~1/+1)\nadded: new.txt (2 lines)\ndeleted: old.txt" },
    });
    expect(await read("src/a.ts")).toBe("one\nTWO\nthree\n");
    expect(await read("new.txt")).toBe("hello\nworld\n");
    await expect(fsp.stat(path.join(t.cwd, "old.txt"))).rejects.toThrow();
  });

  it("never lets the line numbers pick among equal matches: ambiguous changes nothing and lists them", async () => {
    await t.put({ "r.txt": "x\nfoo\nx\nfoo\nx\nfoo\n" });
    const r = await udiffTool.run({ patch: diff("--- a/r.txt", "+++ b/r.txt", "@@ -4,1 +4,1 @@", "-foo", "+bar") }, t.ctx);
    expect(r).toMatchObject({
      ok: false,
      modelText: [
        "ERROR: udiff hunk_ambiguous: hunk for r.txt matches more than one location (hunk 1, patch line 3: lines 2, 4, 6); " +
          "add context lines so it matches once. No files were changed.",
        '<candidates total="3" cause_hint="multiple_matches" path="r.txt">',
        '  <candidate rank="1" strategy="exact" similarity="1.00" line="2">',
        "foo",
        "  </candidate>",
        '  <candidate rank="2" strategy="exact" similarity="1.00" line="4">',
        "foo",
        "  </candidate>",
        '  <candidate rank="3" strategy="exact" similarity="1.00" line="6">',
        "foo",
        "  </candidate>",
        "</candidates>",
      ].join("\n"),
    });
    expect(await read("r.txt")).toBe("x\nfoo\nx\nfoo\nx\nfoo\n");
  });

  it("finds a hunk whose line numbers are wrong", async () => {
    await t.put({ "w.txt": "a\nb\nc\nd\n" });
    const r = await udiffTool.run({ patch: diff("--- a/w.txt", "+++ b/w.txt", "@@ -40,2 +40,2 @@", " c", "-d", "+D") }, t.ctx);
    expect(r.ok).toBe(true);
    expect(await read("w.txt")).toBe("a\nb\nc\nD\n");
  });

  it("changes nothing when any hunk misses, and lists candidates", async () => {
    await t.put({ "a.txt": "1\n2\n", "b.txt": "alpha\nbeta\n" });
    const r = await udiffTool.run(
      { patch: diff("--- a/a.txt", "+++ b/a.txt", "@@ -1 +1 @@", "-1", "+one", "--- a/b.txt", "+++ b/b.txt", "@@ -2 +2 @@", "-betta", "+BETA") },
      t.ctx,
    );
    expect(r.ok).toBe(false);
    expect(r.modelText).toMatch(/^ERROR: udiff hunk_not_found: hunk for b.txt was not found \(hunk 1, patch line 8\)/);
    expect(r.modelText).toContain('<candidate rank="1" strategy="closest_lines" similarity="0.');
    expect(r.modelText).toContain('line="2">\nbeta\n  </candidate>');
    expect(await read("a.txt")).toBe("1\n2\n");
    expect(await read("b.txt")).toBe("alpha\nbeta\n");
  });

  it("refuses a new file that already exists and a rename", async () => {
    await t.put({ "x.txt": "x\n" });
    const add = await udiffTool.run({ patch: diff("--- /dev/null", "+++ b/x.txt", "@@ -0,0 +1 @@", "+y") }, t.ctx);
    expect(add.modelText).toBe("ERROR: udiff file_exists: cannot add x.txt: file already exists; diff it against the file (--- a/x.txt) to change it");
    const mv = await udiffTool.run({ patch: diff("--- a/x.txt", "+++ b/y.txt", "@@ -1 +1 @@", "-x", "+y") }, t.ctx);
    expect(mv.modelText).toMatch(/^ERROR: udiff parse: line 1: renaming x.txt to y.txt is not supported/);
    const gone = await udiffTool.run({ patch: diff("--- a/gone.txt", "+++ b/gone.txt", "@@ -1 +1 @@", "-x", "+y") }, t.ctx);
    expect(gone.modelText).toBe("ERROR: udiff file_not_found: cannot update gone.txt: file does not exist; a new file's diff starts with --- /dev/null");
    expect(await read("x.txt")).toBe("x\n");
  });

  it("names parse errors by line", () => {
    expect(parseUdiff("--- a/x\n+++ b/x\n@@ bogus @@\n-a\n")).toMatchObject({
      ok: false,
      kind: "parse",
      message: "line 3: malformed hunk header '@@ bogus @@'; expected '@@ -a,b +c,d @@'",
    });
    expect(parseUdiff("just text\n")).toMatchObject({ ok: false, kind: "parse" });
    const r = parseUdiff("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n*a\n");
    expect(r).toMatchObject({ ok: false, message: expect.stringContaining("line 5:") });
  });

  it("keeps CRLF endings", async () => {
    await t.put({ "c.txt": "a\r\nb\r\n" });
    const r = await udiffTool.run({ patch: diff("--- a/c.txt", "+++ b/c.txt", "@@ -1,2 +1,2 @@", " a", "-b", "+B") }, t.ctx);
    expect(r.ok).toBe(true);
    expect(await read("c.txt")).toBe("a\r\nB\r\n");
  });
});
