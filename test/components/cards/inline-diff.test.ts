import { describe, expect, it } from "vitest";
import { argsDiffLines, numberedDiffLines } from "../../../components/cards/diff.js";
import { changedWords, inlineDiff, type InlineSegment } from "../../../components/cards/inline-diff.js";

const join = (segs: InlineSegment[], ...kinds: string[]) => segs.filter((s) => kinds.includes(s.kind)).map((s) => s.text).join("");
const kinds = (segs: InlineSegment[]) => segs.map((s) => s.kind).join(",");
const INVERSE = "\x1b[7m";
const UNINVERSE = "\x1b[27m";

describe("changed words inside a changed line", () => {
  it("each side's segments add up to its line", () => {
    const pairs: Array<[string, string]> = [
      ["", ""],
      ["a", "a"],
      ["a", "b"],
      ["ab", "ac"],
      ["foo bar", "foo baz"],
      ["if x = nil {", "if err != nil {"],
      ["tab\there", "tab here  "],
      ["héllo wörld", "hello wörld"],
    ];
    for (const [a, b] of pairs) {
      const d = inlineDiff(a, b);
      expect(join(d.old, "same", "removed")).toBe(a);
      expect(join(d.new, "same", "added")).toBe(b);
    }
  });

  it("an identifier that gains a part keeps one inserted run and its shared text equal", () => {
    const d = inlineDiff("myVariable", "myHTTPVariable");
    expect(kinds(d.new)).toBe("same,added,same");
    expect(join(d.new, "added")).toBe("HTTP");
    expect(join(d.new, "same")).toBe("myVariable");
    expect(join(d.old, "removed")).toBe("");
  });

  it("a renamed key refines to the characters added; the old side stays whole", () => {
    const d = inlineDiff("timeout=30", "timeout_ms=30");
    expect(kinds(d.old)).toBe("same");
    expect(join(d.new, "added")).toBe("_ms");
    expect(kinds(d.new)).toBe("same,added,same");
  });

  it("a changed argument leaves the call around it equal", () => {
    const d = inlineDiff("foo(bar, baz)", "foo(longBar, baz)");
    expect(join(d.new, "added")).toContain("long");
    expect(join(d.new, "same")).toContain("foo(");
    expect(join(d.new, "same")).toContain(", baz)");
  });

  it("a dropped path segment is a deletion only", () => {
    const d = inlineDiff("github.com/org/service/internal/api", "github.com/org/service/api");
    expect(join(d.old, "removed")).toContain("internal");
    expect(join(d.new, "added")).toBe("");
  });

  it("unrelated words are replaced whole, not matched letter by letter", () => {
    const d = inlineDiff("if x = nil {", "if err != nil {");
    expect(join(d.old, "removed")).toBe("x");
    expect(d.new.filter((s) => s.kind === "added").map((s) => s.text)).toEqual(["err", "!"]);
  });

  it("a line rewritten whole, or one too long to compare, gets no word marks", () => {
    expect(changedWords("b", "B")).toBeUndefined();
    expect(changedWords("alpha beta", "gamma delta")).toBeUndefined();
    expect(changedWords(`${"x ".repeat(300)}a`, `${"x ".repeat(300)}b`)).toBeUndefined();
    expect(changedWords("x = 1", "x = 2")).toBeDefined();
  });
});

describe("diff cards mark the changed words", () => {
  it("an edit's removed and added lines show only the changed word in inverse", () => {
    const rows = argsDiffLines("const timeout = 30;\n", "const timeout = 45;\n", 80, true);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toContain(`${INVERSE}30${UNINVERSE}`);
    expect(rows[1]).toContain(`${INVERSE}45${UNINVERSE}`);
    expect(rows[1]).not.toContain(`${INVERSE}const`);
  });

  it("a numbered diff pairs removed and added lines in order; unpaired lines stay plain", () => {
    const hunk = "@@ -1,3 +1,4 @@\n-let a = 1;\n-let b = 2;\n+let a = 10;\n+let b = 20;\n+let c = 30;\n ok";
    const rows = numberedDiffLines(hunk, 80, true);
    expect(rows[0]).toContain(`${INVERSE}1${UNINVERSE}`);
    expect(rows[2]).toContain(`${INVERSE}10${UNINVERSE}`);
    expect(rows[3]).toContain(`${INVERSE}20${UNINVERSE}`);
    expect(rows[4]).not.toContain(INVERSE);
    expect(rows[5]).not.toContain(INVERSE);
  });

  it("without colour the rows are the plain text, marks and all", () => {
    expect(argsDiffLines("x = 1\n", "x = 2\n", 80, false)).toEqual(["- x = 1", "+ x = 2"]);
  });

  it("a marked line wrapped over rows keeps every row within the width", () => {
    const long = `${"word ".repeat(20)}old tail`;
    const rows = argsDiffLines(`${long}\n`, `${long.replace("old", "new")}\n`, 30, true);
    const visible = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, "");
    for (const r of rows) expect(visible(r).length).toBeLessThanOrEqual(30);
    expect(rows.some((r) => r.includes(`${INVERSE}new${UNINVERSE}`))).toBe(true);
  });
});
