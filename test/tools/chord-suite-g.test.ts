// Chord's file tools as the reference's newest apply_patch test and its
// hunk-matching source word what a model sees (seventh set): each reason a
// hunk was not found in Chord's own sentence (the closest file line with how
// similar it is, a line that is only part of a file line, a line nowhere in
// the file, the re-read advice after a divergence), the warning about blank
// context lines used as placeholders, the closing "do not retry" and the
// note that earlier hunks of the file must be resent with the failed one;
// an ambiguous hunk naming its first three places; and view_image's
// "Loaded image … into context." confirmation.

import * as fsp from "node:fs/promises";
import { join } from "node:path";
import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chordCall } from "../support/chord-call.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
});
afterEach(() => t.cleanup());

const read = (rel: string) => fsp.readFile(join(t.cwd, rel), "utf8");
const patch = (...lines: string[]) => chordCall(t, "apply_patch", { patch: ["*** Begin Patch", ...lines, "*** End Patch"].join("\n") });
const REREAD = "the file may have changed — re-read the current target range and rebuild this hunk from current complete lines";
const NO_RETRY = "do not retry the same hunk unchanged";
const FAILED = "apply_patch failed: 1 file group not applied and no file changed; resolve each cause above and resubmit the failed file groups rebuilt from current file contents.";

describe("chord apply_patch: why a hunk was not found, in Chord's words", () => {
  it("points at the closest file line with how similar it is, then says to re-read", async () => {
    const file = "first line\nmiddle line\nlast line\n";
    await t.put({ "p.md": file });
    const r = await patch("*** Update File: p.md", "@@", "-muddle line", "+replacement");
    expect(r.ok).toBe(false);
    expect(r.text).toContain(
      '- p.md: hunk not found (1/1) at patch line 3; first expected complete line: "muddle line"; ' +
        `the first line of the hunk matches no file line; the closest file line is 2 (91% similar): found "middle line", expected "muddle line"; ${REREAD}; ${NO_RETRY}\n`,
    );
    expect(r.text).toContain("      2| middle line\n");
    expect(r.text.endsWith(FAILED)).toBe(true);
    expect(await read("p.md")).toBe(file);
  });

  it("a line nowhere in the file may be stale or invented, and the message says what to re-read", async () => {
    await t.put({ "p.md": "alpha\nbeta\n" });
    const r = await patch("*** Update File: p.md", "@@", "-completely unrelated text here", "+x");
    expect(r.text).toContain(
      '- p.md: hunk not found (1/1) at patch line 3; first expected complete line: "completely unrelated text here"; ' +
        "the expected line does not exist in the current file; the file may have changed since it was last read, or the line was invented" +
        ` — re-read the current target range and rebuild this hunk from current complete lines; ${NO_RETRY}\n`,
    );
    expect(await read("p.md")).toBe("alpha\nbeta\n");
  });

  it("a line that is only part of a file line names that line number, then the whole line to copy", async () => {
    await t.put({ "p.md": "alpha football team\nbeta\n" });
    const r = await patch("*** Update File: p.md", "@@", "-football", "+x");
    expect(r.text).toContain(
      '- p.md: hunk not found (1/1) at patch line 3; first expected complete line: "football"; ' +
        `the expected text is only part of current line 1; include that complete line in the hunk: "alpha football team"; ${NO_RETRY}\n`,
    );
    expect(await read("p.md")).toBe("alpha football team\nbeta\n");
  });

  it("after the line where a hunk parts from the file, says to re-read that range", async () => {
    await t.put({ "demo.txt": "a\nb\n" });
    const r = await patch("*** Update File: demo.txt", "@@", " a", " c", "-d", "+e");
    expect(r.text).toContain(
      '- demo.txt: hunk not found (1/1) at patch line 3; first expected complete line: "a"; ' +
        'the first 1 line(s) of the hunk match at line 1, but the next expected line differs from the file: expected "c", found "b"; ' +
        "first mismatch at rune 1 (1-based): your line has U+0063, file has U+0062; " +
        `line-count difference: your hunk has 1 extra line(s), the file has 0 extra line(s); ${REREAD}; ${NO_RETRY}\n`,
    );
    expect(await read("demo.txt")).toBe("a\nb\n");
  });

  it("warns first that a blank context line is a line of the file, not a placeholder for lines left out", async () => {
    await t.put({ "p.md": "a\nb\n" });
    const r = await patch("*** Update File: p.md", "@@", " a", " ", "-zz", "+x");
    expect(r.text).toContain(
      "- p.md: hunk not found (1/1) at patch line 3; " +
        "whitespace-only context lines are literal source lines; the leading space marks context, so do not use them as omitted-line placeholders; " +
        'first expected complete line: "a"; ',
    );
    expect(await read("p.md")).toBe("a\nb\n");
  });

  it("a later hunk's failure notes that the earlier hunks matched and must be resent with it; the fixed patch then applies", async () => {
    await t.put({ "multi.txt": "alpha\nbeta\ngamma\ndelta\n" });
    const hunks = ["*** Update File: multi.txt", "@@", "-alpha", "+ALPHA", "@@", "-gamma", "+GAMMA", "@@"];
    const r = await patch(...hunks, "-missing", "+NEVER");
    expect(r.text).toContain(
      `; ${NO_RETRY}; note: hunks 1..2 matched successfully in memory but were not applied because this hunk failed, so keep all hunks 1..3 together when rebuilding this operation\n`,
    );
    expect(await read("multi.txt")).toBe("alpha\nbeta\ngamma\ndelta\n");
    expect(await patch(...hunks, "-delta", "+NEVER")).toEqual({ ok: true, text: "Applied patch:\nM multi.txt" });
    expect(await read("multi.txt")).toBe("ALPHA\nbeta\nGAMMA\nNEVER\n");
  });
});

describe("chord view_image: the confirmation Chord gives", () => {
  it("says the image was loaded into context under its label, then where from and what was sent", async () => {
    const png = await sharp({ create: { width: 4, height: 3, channels: 3, background: { r: 200, g: 10, b: 10 } } }).png().toBuffer();
    await t.put({ "shots/red.png": png });
    const r = await chordCall(t, "view_image", { path: "shots/red.png", label: "the red one" });
    expect(r.ok).toBe(true);
    expect(r.text).toMatch(/^Loaded image "the red one" into context\.\npath: shots\/red\.png\nsource: PNG 4x3, \d+ bytes\nsent: PNG 4x3, \d+ bytes$/);
    const plain = await chordCall(t, "view_image", { path: "shots/red.png" });
    expect(plain.text.split("\n")[0]).toBe('Loaded image "red.png" into context.');
  });
});

describe("chord apply_patch: an ambiguous hunk names its first three places", () => {
  it("lists three line numbers, then an ellipsis when there are more, and changes nothing", async () => {
    const five = "it’s here\nx\nit’s here\nx\nit’s here\n";
    await t.put({ "three.txt": five, "four.txt": `${five}x\nit’s here\n` });
    const three = await patch("*** Update File: three.txt", "@@", " it's here", "+y");
    expect(three.text).toContain("punctuation/whitespace-tolerant matching is ambiguous at lines 1, 3, 5; add context lines or an '@@' header so they match once");
    const four = await patch("*** Update File: four.txt", "@@", " it's here", "+y");
    expect(four.text).toContain("punctuation/whitespace-tolerant matching is ambiguous at lines 1, 3, 5, …; add context lines or an '@@' header so they match once");
    expect(await read("three.txt")).toBe(five);
    expect(await read("four.txt")).toBe(`${five}x\nit’s here\n`);
  });
});
