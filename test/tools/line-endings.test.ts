// Every line keeps its own ending through every edit tool of both surfaces:
// a mixed LF/CRLF file keeps each untouched line's ending, added lines take
// the ending of the line they replace (or of the line they go before, or of
// the line before at the end), CR-only files and lone CRs are lines too, and
// a last line without a newline gets the ending of the line before once it
// is no longer last.

import * as fsp from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { applyPatchTool } from "../../tools/yuj/apply_patch.js";
import { udiffTool } from "../../tools/yuj/udiff.js";
import { editTool } from "../../tools/yuj/edit.js";
import { chordApplyPatchTool } from "../../tools/chord/apply_patch.js";
import { chordEditTool } from "../../tools/chord/edit.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
});
afterEach(() => t.cleanup());

const bytes = (rel: string) => fsp.readFile(path.join(t.cwd, rel), "latin1");
const v4a = (...body: string[]) => ["*** Begin Patch", "*** Update File: f.txt", "@@", ...body, "*** End Patch"].join("\n");

interface Case {
  name: string;
  file: string;
  /** Hunk body lines (V4A); the unified diff uses the same lines under a header. */
  hunk: string[];
  want: string;
  /** The unified diff header, where a pure insertion needs its place. */
  at?: string;
}

const CASES: Case[] = [
  { name: "uniform CRLF", file: "a\r\nb\r\nc\r\n", hunk: [" a", "-b", "+x", "+y"], want: "a\r\nx\r\ny\r\nc\r\n" },
  { name: "CR-only file", file: "a\rb\rc\r", hunk: [" a", "-b", "+x"], want: "a\rx\rc\r" },
  { name: "mixed: untouched lines keep theirs", file: "a\r\nb\nc\rd\r\n", hunk: [" b", "-c", "+x"], want: "a\r\nb\nx\rd\r\n" },
  { name: "mixed: added lines follow the replaced line", file: "a\nb\r\nc\n", hunk: ["-b", "+x", "+y"], want: "a\nx\r\ny\r\nc\n" },
  { name: "mixed: an insertion takes the following line's ending", file: "a\nb\r\n", hunk: ["+x", " b"], want: "a\nx\r\nb\r\n" },
  { name: "mixed: deletion", file: "a\r\nb\nc\r\n", hunk: ["-b"], want: "a\r\nc\r\n" },
  { name: "mixed: append at the end takes the last line's ending", file: "a\nb\r\n", hunk: ["+c"], want: "a\nb\r\nc\r\n", at: "@@ -2,0 +3 @@" },
  { name: "missing final newline: terminated like the line before", file: "a\r\nb\nc", hunk: [" c", "+d"], want: "a\r\nb\nc\nd\n" },
  { name: "a lone CR in a CRLF file ends a line", file: "a\r\nb\rc\r\n", hunk: ["-b", "+x"], want: "a\r\nx\rc\r\n" },
];

describe.each([
  ["Yuj apply_patch", (c: Case) => applyPatchTool.run({ patch: v4a(...c.hunk) }, t.ctx)],
  ["Chord apply_patch", (c: Case) => chordApplyPatchTool.run({ patch: v4a(...c.hunk) }, t.ctx)],
  ["udiff", (c: Case) => udiffTool.run({ patch: ["--- a/f.txt", "+++ b/f.txt", c.at ?? "@@ -1 +1 @@", ...c.hunk, ""].join("\n") }, t.ctx)],
] as const)("%s keeps line endings per line", (_name, run) => {
  it.each(CASES)("$name", async (c) => {
    await t.put({ "f.txt": Buffer.from(c.file, "latin1") });
    const r = await run(c);
    expect(r.ok, r.modelText).toBe(true);
    expect(await bytes("f.txt")).toBe(c.want);
  });
});

const EDITS = [
  { name: "mixed: a replaced line's new lines take its ending", file: "a\r\nb\nc\r\n", old: "b", new: "x\ny", want: "a\r\nx\ny\nc\r\n" },
  { name: "uniform CRLF stays CRLF", file: "a\r\nb\r\n", old: "b", new: "B\nC", want: "a\r\nB\r\nC\r\n" },
  { name: "CR-only file", file: "a\rb\r", old: "a", new: "A", want: "A\rb\r" },
  { name: "a lone CR inside a CRLF file", file: "a\r\nb\rc\r\n", old: "b", new: "B", want: "a\r\nB\rc\r\n" },
  { name: "several lines replaced by one take the last one's ending", file: "a\r\nb\nc\r\n", old: "a\nb", new: "z", want: "z\nc\r\n" },
  { name: "the last line without a newline stays without one", file: "a\r\nb", old: "b", new: "B", want: "a\r\nB" },
];

describe("edit keeps line endings per line", () => {
  it.each(EDITS)("Yuj edit: $name", async (c) => {
    await t.put({ "f.txt": Buffer.from(c.file, "latin1") });
    const r = await editTool.run({ path: "f.txt", old_str: c.old, new_str: c.new }, t.ctx);
    expect(r.modelText.split("\n")[0]).toBe("OK");
    expect(await bytes("f.txt")).toBe(c.want);
  });
  it.each(EDITS)("Chord edit: $name", async (c) => {
    await t.put({ "f.txt": Buffer.from(c.file, "latin1") });
    const r = await chordEditTool.run({ path: "f.txt", old_string: c.old, new_string: c.new }, t.ctx);
    expect(r.ok).toBe(true);
    expect(r.modelText).toMatch(/^Replaced 1 occurrence \(\d+ bytes -> \d+ bytes\)$/);
    expect(await bytes("f.txt")).toBe(c.want);
  });
  it("Chord edit with replace_all keeps each replaced line's ending", async () => {
    await t.put({ "f.txt": Buffer.from("x=1\r\nx=1\nx=1\r", "latin1") });
    const r = await chordEditTool.run({ path: "f.txt", old_string: "x=1", new_string: "x=2", replace_all: true }, t.ctx);
    expect(r.ok).toBe(true);
    expect(r.modelText).toMatch(/^Replaced 3 occurrences \(\d+ bytes -> \d+ bytes\)$/);
    expect(await bytes("f.txt")).toBe("x=2\r\nx=2\nx=2\r");
  });
});
