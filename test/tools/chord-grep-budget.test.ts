// Chord grep's output budget with context_lines, on real files: once the
// budget has no room for more context, the window in flight may end early,
// but no later match shows part of its leading window; later matches are bare.

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chordGrepTool } from "../../tools/chord/grep.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
});
afterEach(() => t.cleanup());

/** Blocks of three lines before a match, the match, three after, and a gap wider than the context. */
function blocks(count: number, width: number): string {
  const lines: string[] = [];
  for (let b = 0; b < count; b++) {
    for (let k = 0; k < 3; k++) lines.push(`before ${b}.${k} `.padEnd(width, "b"));
    lines.push(`NEEDLE ${b}`);
    for (let k = 0; k < 3; k++) lines.push(`after ${b}.${k} `.padEnd(width, "a"));
    for (let k = 0; k < 4; k++) lines.push(`gap ${b}.${k}`);
  }
  return lines.join("\n") + "\n";
}

describe("chord grep lists later matches bare when the budget runs out", () => {
  it.each([150, 163, 177, 190, 204, 219, 233, 247])("lines of %i bytes: no partial leading window", async (width) => {
    await t.put({ "f.txt": blocks(40, width) });
    const res = await chordGrepTool.run({ pattern: "NEEDLE", paths: ["f.txt"], context_lines: 3 }, t.ctx);
    const body = res.modelText.split("\n\n(")[0]!.split("\n");
    // Every match is shown; context stops at some point and the footer says so.
    expect(body.filter((l) => l.startsWith("f.txt:")).length).toBe(40);
    expect(res.modelText).toContain("(surrounding lines omitted for later matches");
    for (const [i, line] of body.entries()) {
      if (!line.startsWith("f.txt:")) continue;
      const b = /NEEDLE (\d+)/.exec(line)![1];
      const before = body.slice(Math.max(0, i - 3), i).filter((l) => l.includes(`before ${b}.`));
      // A match shows all three lines before it, or none.
      expect([0, 3]).toContain(before.length);
    }
    // After the first bare match, nothing but bare matches.
    const firstBare = body.findIndex((l, i) => l.startsWith("f.txt:") && !(body[i - 1] ?? "").includes("before"));
    expect(body.slice(firstBare).every((l) => l.startsWith("f.txt:"))).toBe(true);
  });

  it("puts the match footer first and the context note on the next line when both apply", async () => {
    await t.put({ "many.txt": blocks(400, 120) });
    const res = await chordGrepTool.run({ pattern: "NEEDLE", paths: ["many.txt"], context_lines: 3 }, t.ctx);
    const shown = res.modelText.split("\n").filter((l) => l.startsWith("many.txt:")).length;
    expect(res.modelText.endsWith(
      `\n\n(showing first ${shown} matches within 12 KiB; narrow paths/includes/pattern for more precise results)` +
        "\n(surrounding lines omitted for later matches to stay within 12 KiB; lower context_lines or narrow paths/includes/pattern to see them)",
    )).toBe(true);
  });
});
