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
  it("adds, updates and deletes files with the envelope", async () => {
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
      modelText: '<udiff ok="true" files="3" v="1">\n  updated: src/a.ts (1 hunk, ~1/+1)\n  added: new.txt (2 lines)\n  deleted: old.txt\n</udiff>',
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
        '<udiff ok="false" error_kind="hunk_ambiguous" v="1">',
        "ERROR: r.txt: hunk 1 (patch line 3): old lines match 3 positions in file (lines 2, 4, 6); add context lines or an '@@' scope so they match once",
        "matching spans in r.txt:",
        "  lines 2-2:",
        "    2| foo",
        "  lines 4-4:",
        "    4| foo",
        "  lines 6-6:",
        "    6| foo",
        "</udiff>",
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
    expect(r.modelText).toMatch(/^<udiff ok="false" error_kind="hunk_not_found" v="1">\nERROR: b.txt: hunk 1/);
    expect(r.modelText).toContain("    2| beta");
    expect(r.modelText.endsWith("\n</udiff>")).toBe(true);
    expect(await read("a.txt")).toBe("1\n2\n");
    expect(await read("b.txt")).toBe("alpha\nbeta\n");
  });

  it("refuses a new file that already exists and a rename", async () => {
    await t.put({ "x.txt": "x\n" });
    const add = await udiffTool.run({ patch: diff("--- /dev/null", "+++ b/x.txt", "@@ -0,0 +1 @@", "+y") }, t.ctx);
    expect(add.modelText).toContain('error_kind="file_exists"');
    const mv = await udiffTool.run({ patch: diff("--- a/x.txt", "+++ b/y.txt", "@@ -1 +1 @@", "-x", "+y") }, t.ctx);
    expect(mv.modelText).toContain('error_kind="unknown_op_kind"');
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
