// Chord's apply_patch, edit and argument handling as the reference's own
// tests pin them, on real files: what a failed hunk says about the line that
// did not match (the first old line as written, the first character where it
// parts from the file's, lines the hunk has that the file has not), and the
// older argument shapes Chord still takes for apply_patch.

import * as fsp from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chordApplyPatchTool } from "../../tools/chord/apply_patch.js";
import { chordEditTool } from "../../tools/chord/edit.js";
import { chordCall } from "../support/chord-call.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
});
afterEach(() => t.cleanup());

const patch = (...lines: string[]) => chordApplyPatchTool.run({ patch: ["*** Begin Patch", ...lines, "*** End Patch"].join("\n") }, t.ctx);
const read = (rel: string) => fsp.readFile(join(t.cwd, rel), "utf8");

/** A call through the real dispatcher and the Chord profile, its arguments' text as sent. */
async function call(name: string, rawArgs: string) {
  const { ok, text } = await chordCall(t, name, rawArgs, { raw: true });
  return { ok, text };
}

const ENVELOPE = "*** Begin Patch\n*** Update File: file.txt\n@@\n-old\n+new\n*** End Patch";

describe("chord apply_patch: what a hunk that does not match says", () => {
  it("quotes the first old line as written, only its start past 120 characters", async () => {
    await t.put({ "short.txt": "current\n", "long.txt": "current\n" });
    const short = await patch("*** Update File: short.txt", "@@", "-invented line", "+replacement");
    expect(short.modelText).toContain(
      '- short.txt: hunk not found (1/1) at patch line 3; first expected complete line: "invented line"; the expected line does not exist in the current file; the file may have changed since it was last read, or the line was invented — re-read the current target range and rebuild this hunk from current complete lines; do not retry the same hunk unchanged\n',
    );
    const long = await patch("*** Update File: long.txt", "@@", `-${"x".repeat(160)}`, "+replacement");
    expect(long.modelText).toContain(`first expected line prefix: "${"x".repeat(120)}"; the expected line does not exist`);
    expect(long.modelText).not.toContain("x".repeat(121));
    expect(long.modelText).not.toContain('Changes under "Applied patch"');
    expect(await read("long.txt")).toBe("current\n");
  });

  it("a line the file lacks may be stale or invented: it says so rather than blame reading", async () => {
    await t.put({ "p.md": "first\nmiddle\nlast\n" });
    const r = await patch("*** Update File: p.md", "@@", "-invented content line", "+replacement");
    expect(r.modelText).toContain("does not exist in the current file; the file may have changed since it was last read, or the line was invented — re-read the current target range and rebuild this hunk from current complete lines; do not retry the same hunk unchanged\n");
    expect(await read("p.md")).toBe("first\nmiddle\nlast\n");
  });

  it("spells out an invisible character in the quoted line", async () => {
    await t.put({ "f.txt": "x\n" });
    const r = await patch("*** Update File: f.txt", "@@", "-\ufe0f0", "+y");
    expect(r.modelText).toContain('first expected complete line: "\\ufe0f0";');
    expect(r.modelText).not.toContain("\ufe0f");
  });

  it("names the first differing character of a diverging line by code point", async () => {
    const file = "before anchor\nlimit := 100 // maximum retries\nafter anchor\n";
    await t.put({ "a.txt": file });
    const r = await patch("*** Update File: a.txt", "@@", " before anchor", "-limit := 250 // maximum retries", "+limit := 500 // maximum retries", " after anchor");
    expect(r.ok).toBe(false);
    expect(r.modelText).toContain(
      'the first 1 line(s) of the hunk match at line 1, but the next expected line differs from the file: expected "limit := 250 // maximum retries", found "limit := 100 // maximum retries"; ' +
        "first mismatch at rune 10 (1-based): your line has U+0032, file has U+0031; the file may have changed — re-read the current target range and rebuild this hunk from current complete lines; do not retry the same hunk unchanged\n",
    );
    // One retyped line is a changed line, not a line-count drift.
    expect(r.modelText).not.toContain("line-count difference");
    expect(await read("a.txt")).toBe(file);
  });

  it("says when the hunk and the file differ by whole lines, and when those lines are blank", async () => {
    await t.put({ "demo.txt": "a\nb\n", "gap.txt": "a\n\nb\nc\n" });
    const r = await patch("*** Update File: demo.txt", "@@", " a", " c", "-d", "+e");
    expect(r.modelText).toContain(
      "first mismatch at rune 1 (1-based): your line has U+0063, file has U+0062; line-count difference: your hunk has 1 extra line(s), the file has 0 extra line(s); the file may have changed — re-read the current target range and rebuild this hunk from current complete lines; do not retry the same hunk unchanged\n",
    );
    const blank = await patch("*** Update File: gap.txt", "@@", " a", "", "", " b", "-c", "+C");
    expect(blank.modelText).toContain(
      "line-count difference: your hunk has 1 extra line(s), the file has 0 extra line(s) — the extra lines are blank, so the blank-line count differs; the file may have changed — re-read the current target range and rebuild this hunk from current complete lines; do not retry the same hunk unchanged\n",
    );
    expect(await read("gap.txt")).toBe("a\n\nb\nc\n");
  });

  it("never suggests the missing path itself", async () => {
    await t.put({ "old.txt": "before\n" });
    const r = await patch("*** Update File: old.txt", "*** Move to: new.txt", "@@", "-before", "+after", "*** Update File: old.txt", "@@", "-missing", "+never");
    expect(r.modelText).toContain("- old.txt: file not found: old.txt (this file group has 2 operations;");
    expect(await read("old.txt")).toBe("before\n");
  });
});

describe("chord edit: an indentation mismatch shows the lines to copy", () => {
  it("shows the first line with its own indentation", async () => {
    await t.put({ "main.go": '\tif true {\n\t\tfmt.Println("hi")\n\t}\n' });
    const r = await chordEditTool.run({ path: "main.go", old_string: '  if true {\n\t\tfmt.Println("hi")\n\t}', new_string: "x" }, t.ctx);
    expect(r.modelText).toContain('from there:\n  1| \tif true {\n  2| \t\tfmt.Println("hi")\n  3| \t}');
  });
});

describe("chord edit: the closest match of an old_string that is not in the file", () => {
  const edit = (path: string, old_string: string) => chordEditTool.run({ path, old_string, new_string: "z" }, t.ctx);

  it("finds a block deep in a long file of look-alike lines", async () => {
    const row = (i: number) => `padding line ${String(i).padStart(4, "0")} with some filler text to widen each row`;
    await t.put({ "pad.txt": Array.from({ length: 1200 }, (_, i) => `${row(i)}\n`).join("") });
    const r = await edit("pad.txt", `${row(500)}\n${row(501)}x\n`);
    expect(r.ok).toBe(false);
    expect(r.modelText).toContain(
      `Closest match is at line 501 (99% similar, 1 character difference):\n  file line 502: "${row(501)}"\n  your line 2: "${row(501)}x"\n`,
    );
  });

  it("ranks the windows of a common line by how well they match, not by file order", async () => {
    const body = Array.from({ length: 2000 }, (_, i) => `func gen() {\n\treturn ${i === 1500 ? "xGOOD" : "x"}\n}\n`).join("");
    await t.put({ "gen.go": body });
    const r = await edit("gen.go", "func gen() {\n\treturn xGOD\n}\n");
    expect(r.modelText).toContain('Closest match is at line 4501 (96% similar, 1 character difference):\n  file line 4502: "\\treturn xGOOD"\n  your line 2: "\\treturn xGOD"\n');
  });

  it("seeds on a blank line when it is the only one the file has", async () => {
    const body = Array.from({ length: 300 }, (_, i) => `file line ${String(i).padStart(4, "0")} ${"z".repeat(300)}\n\n`).join("");
    await t.put({ "blank.txt": body });
    const r = await edit("blank.txt", `\nfile line 0150 ${"z".repeat(299)}Q`);
    expect(r.modelText).toContain(`Closest match is at line 300 (99% similar, 1 character difference):\n  file line 301: "file line 0150 ${"z".repeat(240 - 15)}" … (75 more characters)\n  your line 2: "file line 0150 `);
  });
});

describe("chord apply_patch: the argument shapes Chord takes", () => {
  it("ignores the path of the older single-file form, with a note", async () => {
    await t.put({ "file.txt": "old\n" });
    expect(await call("apply_patch", JSON.stringify({ path: "file.txt", patch: ENVELOPE }))).toEqual({
      ok: true,
      text: 'Note: apply_patch takes no "path" parameter; it was ignored.\nApplied patch:\nM file.txt',
    });
    expect(await read("file.txt")).toBe("new\n");
    expect(await call("apply_patch", JSON.stringify({ path: "file.txt" }))).toEqual({
      ok: false,
      text: "ERROR: bad arguments for apply_patch: patch is required (string)",
    });
  });

  it("takes the patch sent as bare text or as one JSON string", async () => {
    await t.put({ "file.txt": "old\n", "gone.txt": "x\n" });
    expect(await call("apply_patch", ENVELOPE)).toEqual({ ok: true, text: "Applied patch:\nM file.txt" });
    expect(await read("file.txt")).toBe("new\n");
    expect(await call("apply_patch", JSON.stringify("*** Begin Patch\n*** Delete File: gone.txt\n*** End Patch"))).toEqual({
      ok: true,
      text: "Applied patch:\nD gone.txt",
    });
    await expect(fsp.stat(join(t.cwd, "gone.txt"))).rejects.toThrow();
  });

  it("reads arguments encoded twice (a JSON string holding the object), for any tool", async () => {
    await t.put({ "demo.txt": "hi\n" });
    expect(await call("read", JSON.stringify(JSON.stringify({ path: "demo.txt" })))).toEqual({ ok: true, text: "READ_RESULT lines=1-1 total=1\nhi\n" });
    expect(await call("read", JSON.stringify("demo.txt"))).toEqual({ ok: false, text: "ERROR: bad arguments for read: expected a JSON object, got string" });
  });

  it("names a number below its minimum in words", async () => {
    expect(await call("shell", JSON.stringify({ command: "echo hi", timeout_ms: -5 }))).toEqual({
      ok: false,
      text: "ERROR: bad arguments for shell: timeout_ms must be at least 0",
    });
  });
});
