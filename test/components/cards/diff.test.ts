import { describe, expect, it } from "vitest";
import { argsDiffLines, numberedDiffLines, numberedLines, patchLines } from "../../../components/cards/diff.js";
import { renderCard } from "../../../components/cards/render.js";
import { chordTool, expectSafe, hasAnsi, opts, plain, tool } from "./helpers.js";

const GREEN = "\x1b[32m";
const RED = "\x1b[31m";
const CYAN = "\x1b[36m";
const BOLD = "\x1b[1m";

describe("diffs and previews", () => {
  it("edit: a diff built from old_str/new_str", () => {
    const lines = argsDiffLines("a\nb\nc\n", "a\nB\nc\n", 80, false);
    expect(lines).toEqual(["  a", "- b", "+ B", "  c"]);
    const coloured = argsDiffLines("a\nb\nc\n", "a\nB\nc\n", 80, true);
    expect(coloured[1]).toContain(RED);
    expect(coloured[2]).toContain(GREEN);
    expect(coloured[0]).not.toContain("\x1b");
  });

  it("edit card: the diff asked for, by each surface's edit (old_str/new_str, old_string/new_string)", () => {
    for (const card of [
      tool("edit", { path: "/repo/src/a.ts", old_str: "x = 1", new_str: "x = 2" }, "running"),
      chordTool("edit", { path: "/repo/src/a.ts", old_string: "x = 1", new_string: "x = 2" }, "running"),
    ]) {
      expect(plain(renderCard(card, opts())).slice(1)).toEqual(["    src/a.ts", "    - x = 1", "    + x = 2"]);
    }
  });

  it("edit card: the tool's own diff with file line numbers", () => {
    const hunks = "@@ -654,3 +654,3 @@\n a\n-b\n+B\n c";
    const display = { kind: "diff" as const, files: [{ path: "src/a.ts", op: "update" as const, hunks }], note: "OK" };
    const card = tool("edit", { path: "src/a.ts", old_str: "b", new_str: "B" }, "ok", { modelText: "OK", display });
    expect(plain(renderCard(card, opts())).slice(1)).toEqual([
      "    src/a.ts",
      "    654   a",
      "    655 - b",
      "    655 + B",
      "    656   c",
      "    ↳ OK",
    ]);
    const coloured = renderCard(card, opts({ color: true }));
    expect(coloured.some((l) => l.includes(`${GREEN}B`))).toBe(true);
    expect(coloured.some((l) => l.includes(`${RED}b`))).toBe(true);
    expect(hasAnsi(renderCard(card, opts({ color: false })))).toBe(false);
  });

  it("edit card: a failed edit shows the diff tried and the error", () => {
    const card = tool("edit", { path: "a", old_str: "p", new_str: "q" }, "error", { modelText: "ERROR: old_str not found in a" });
    expect(plain(renderCard(card, opts())).slice(1)).toEqual(["    a", "    - p", "    + q", "    ↳ ERROR: old_str not found in a"]);
  });

  it("numbered diff with several hunks", () => {
    const lines = numberedDiffLines("@@ -1,2 +1,2 @@\n-a\n+b\n x\n@@ -100,1 +100,2 @@\n y\n+z", 80, false);
    expect(lines).toEqual(["  1 - a", "  1 + b", "  2   x", "    ⋯", "100   y", "101 + z"]);
  });

  it("apply_patch / udiff: the patch text coloured by line kind", () => {
    const patch = "*** Begin Patch\n*** Update File: a.ts\n@@ fn\n-old\n+new\n ctx\n*** End Patch";
    const lines = patchLines(patch, 80, true);
    expect(lines[0]).toContain(BOLD);
    expect(lines[2]).toContain(CYAN);
    expect(lines[3]).toContain(RED);
    expect(lines[4]).toContain(GREEN);
    expect(lines[5]).toBe(" ctx");
    const udiff = patchLines("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b", 80, true);
    expect(udiff[0]).toContain(BOLD);
    expect(udiff[1]).toContain(BOLD);
    expect(udiff[1]).not.toContain(GREEN);
    expect(hasAnsi(patchLines(patch, 80, false))).toBe(false);
    const card = tool("udiff", { patch: "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b" }, "ok", { viewText: "OK" });
    expect(plain(renderCard(card, opts())).slice(1)).toEqual(["    --- a/x", "    +++ b/x", "    @@ -1 +1 @@", "    -a", "    +b", "    ↳ OK"]);
  });

  it("write: first 20 lines numbered, then how many more", () => {
    const content = Array.from({ length: 26 }, (_, i) => `row ${i + 1}`).join("\n");
    const lines = numberedLines(content.split("\n").slice(0, 20), 26, 80, false);
    expect(lines).toHaveLength(21);
    expect(lines[0]).toBe(" 1  row 1");
    expect(lines[19]).toBe("20  row 20");
    expect(lines[20]).toBe("… 6 more lines");
    const card = plain(renderCard(tool("write", { path: "/repo/w.txt", content }, "ok", { viewText: "OK: wrote 9 bytes to w.txt" }), opts()));
    expect(card[1]).toBe("    w.txt");
    expect(card.at(-1)).toBe("    ↳ OK: wrote 9 bytes to w.txt");
  });

  it("long diff lines wrap beside the gutter", () => {
    const lines = argsDiffLines("short\n", `${"long ".repeat(30)}\n`, 30, true);
    expectSafe(lines, 30);
    expect(plain(lines)[1]).toMatch(/^\+ long/);
    expect(plain(lines)[2]).toMatch(/^ {2}long/);
  });

  it("diff text is terminal-safe", () => {
    const lines = argsDiffLines("a\x1b[2J\n", "b\x07\n", 80, true);
    expectSafe(lines, 80);
    expect(plain(lines)).toEqual(["- a␛[2J", "+ b␇"]);
  });
});
