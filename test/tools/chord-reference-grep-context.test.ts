// Chord grep's context_lines against what the Chord reference system pins in
// its own tests: real files through the real dispatcher and the `chord`
// profile, checking the lines the model reads.

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chordCall } from "../support/chord-call.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
  // Hits at lines 4, 8 and 9: a 2-line window around 4 stays apart, 8 and 9 share one.
  const lines = ["l1 alpha", "l2 alpha", "l3 alpha", "l4 needle one", "l5 alpha", "l6 alpha", "l7 alpha", "l8 needle two", "l9 needle three", "l10 alpha", "l11 alpha", "l12 alpha"];
  await t.put({ "ctx.txt": `${lines.join("\n")}\n` });
});
afterEach(() => t.cleanup());

const grep = (args: Record<string, unknown>) => chordCall(t, "grep", { pattern: "needle", ...args });
/** The line numbers of the result's match and context lines, in order. */
const numbers = (text: string) =>
  text.split("\n").flatMap((l) => {
    const m = /^(?:\| )?ctx\.txt[:-](\d+)[:-]/.exec(l);
    return m ? [Number(m[1])] : [];
  });

describe("chord grep context_lines, as the reference pins it", () => {
  it("without context_lines only the matches are listed", async () => {
    const r = await grep({});
    expect(r.text).toBe("ctx.txt:4:l4 needle one\nctx.txt:8:l8 needle two\nctx.txt:9:l9 needle three");
  });

  it("context lines are marked apart from matches, and lines outside every window stay out", async () => {
    const r = await grep({ context_lines: 2 });
    for (const want of ["| ctx.txt-2-l2 alpha", "| ctx.txt-3-l3 alpha", "ctx.txt:4:l4 needle one", "| ctx.txt-5-l5 alpha", "| ctx.txt-6-l6 alpha"]) {
      expect(r.text.split("\n")).toContain(want);
    }
    expect(r.text).not.toContain("l1 alpha");
    expect(r.text).not.toContain("l12 alpha");
  });

  it("nearby matches share one window, each line once", async () => {
    const r = await grep({ context_lines: 2 });
    expect(r.text.split("l10 alpha").length - 1).toBe(1);
    expect(r.text.split("l7 alpha").length - 1).toBe(1);
    expect(r.text.split("\n")).toContain("| ctx.txt-11-l11 alpha");
  });

  it("lines come in file order", async () => {
    const r = await grep({ context_lines: 1 });
    expect(numbers(r.text)).toEqual([3, 4, 5, 7, 8, 9, 10]);
  });

  it.each<[string, unknown]>([
    ["-1", -1],
    ["1.5", 1.5],
    ['"invalid"', "invalid"],
    ['"2"', "2"],
    ["true", true],
  ])("context_lines %s is refused, naming context_lines", async (_name, value) => {
    const r = await grep({ context_lines: value });
    expect(r.ok).toBe(false);
    expect(r.text).toContain("context_lines");
  });

  it("context_lines 2.0 is the integer 2", async () => {
    const r = await grep({ context_lines: 2.0 });
    expect(r.ok, r.text).toBe(true);
    expect(r.text.split("\n")).toContain("| ctx.txt-5-l5 alpha");
  });
});

describe("chord grep context_lines: null", () => {
  it("context_lines null is the default", async () => {
    const r = await grep({ context_lines: null });
    expect(r.ok, r.text).toBe(true);
    expect(r.text).toBe("ctx.txt:4:l4 needle one\nctx.txt:8:l8 needle two\nctx.txt:9:l9 needle three");
  });
});
