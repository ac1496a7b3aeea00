// Retries on the Chord surface, as the reference's agent tests pin them: an
// apply_patch that failed to match is refused when sent again unchanged while
// its files neither changed nor were read, and repeated near misses on one
// file (edit's old_string not found, a patch hunk not found) carry a note to
// read the target range fresh.
import * as fsp from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chordApplyPatchTool } from "../../tools/chord/apply_patch.js";
import { chordEditTool } from "../../tools/chord/edit.js";
import { chordReadTool } from "../../tools/chord/read.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
});
afterEach(() => t.cleanup());

const onDisk = (rel: string) => fsp.readFile(path.join(t.cwd, rel), "utf8");
const envelope = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch"].join("\n");
const run = (patch: string) => chordApplyPatchTool.run({ patch }, t.ctx);
const edit = (p: string, old_string: string, new_string: string) => chordEditTool.run({ path: p, old_string, new_string }, t.ctx);

const REFUSED = (files: string) =>
  `apply_patch refused: this exact patch already failed, and its files (${files}) have not changed on disk or been read since, ` +
  "so it would fail the same way. Read the current target range and rebuild the failed hunks from it, or send a changed patch.\n" +
  "No file changed: fix the failed operations and resend the patch.";
const NOTE = (n: number, p: string) =>
  `Note: ${n} repeated approximate-match failures for ${p} since it was last read or changed. ` +
  "Stop adjusting the same text: read the target range fresh and copy the lines exactly from that read.";

describe("an unchanged failed patch", () => {
  const PATCH = envelope("*** Update File: demo.txt", "@@", "-expected", "+replacement");

  it("is refused until a read of its file, then runs", async () => {
    await t.put({ "demo.txt": "current\n" });
    const first = await run(PATCH);
    expect(first.ok).toBe(false);
    expect(first.modelText).toContain("- demo.txt: hunk not found (1/1)");
    expect(await run(PATCH)).toEqual({ ok: false, modelText: REFUSED("demo.txt") });
    await t.put({ "demo.txt": "expected\n" });
    // The file changed: the patch may match now.
    expect(await run(PATCH)).toEqual({ ok: true, modelText: "Applied patch:\nM demo.txt" });
    expect(await onDisk("demo.txt")).toBe("replacement\n");
  });

  it("runs again after a read of the file, even a paged one", async () => {
    await t.put({ "demo.txt": "current\n" });
    await run(PATCH);
    await chordReadTool.run({ path: "demo.txt", offset: 1, limit: 20 }, t.ctx);
    const again = await run(PATCH);
    expect(again.ok).toBe(false);
    expect(again.modelText).toContain("- demo.txt: hunk not found (1/1)");
    // Failed again against the same content: armed once more.
    expect(await run(PATCH)).toEqual({ ok: false, modelText: REFUSED("demo.txt") });
  });

  it("a changed patch is not refused", async () => {
    await t.put({ "demo.txt": "current\n" });
    await run(PATCH);
    const revised = envelope("*** Update File: demo.txt", "@@", "-current", "+new");
    expect(await run(revised)).toEqual({ ok: true, modelText: "Applied patch:\nM demo.txt" });
  });

  it("names every file a multi-file patch touches", async () => {
    await t.put({ "a.txt": "a\n", "b.txt": "b\n" });
    const p = envelope("*** Update File: a.txt", "@@", "-x", "+y", "*** Update File: b.txt", "@@", "-z", "+w");
    await run(p);
    expect(await run(p)).toEqual({ ok: false, modelText: REFUSED("a.txt, b.txt") });
  });
});

describe("repeated near misses on one file", () => {
  it("edit: the second miss carries the note, a read starts the count over", async () => {
    await t.put({ "demo.md": "alpha\nbeta\n" });
    const first = await edit("demo.md", "gamma", "G");
    expect(first.ok).toBe(false);
    expect(first.modelText).not.toContain("repeated approximate-match");
    const second = await edit("./demo.md", "gamma!", "G");
    expect(second.ok).toBe(false);
    expect(second.modelText.endsWith(`\n${NOTE(2, "./demo.md")}`)).toBe(true);
    const third = await edit(path.join(t.cwd, "demo.md"), "gamma?", "G");
    expect(third.modelText).toContain(NOTE(3, "demo.md"));
    await chordReadTool.run({ path: "demo.md" }, t.ctx);
    expect((await edit("demo.md", "gamma", "G")).modelText).not.toContain("repeated approximate-match");
  });

  it("an ambiguous match is neither counted nor a reset; a success resets", async () => {
    await t.put({ "d.txt": "x\nx\ny\n" });
    await edit("d.txt", "missing", "m");
    const many = await edit("d.txt", "x", "X");
    expect(many).toEqual({ ok: false, modelText: "old_string found 2 times, provide more context or set replace_all to true" });
    expect((await edit("d.txt", "missing", "m")).modelText).toContain(NOTE(2, "d.txt"));
    expect((await edit("d.txt", "y", "Y")).ok).toBe(true);
    expect((await edit("d.txt", "missing", "m")).modelText).not.toContain("repeated approximate-match");
  });

  it("each file keeps its own count", async () => {
    await t.put({ "a.md": "a\n", "b.md": "b\n" });
    await edit("a.md", "q", "Q");
    const b = await edit("b.md", "q", "Q");
    expect(b.modelText).not.toContain("repeated approximate-match");
    expect((await edit("a.md", "q", "Q")).modelText).toContain(NOTE(2, "a.md"));
  });

  it("apply_patch hunks that find no match count with edit misses on the same file", async () => {
    await t.put({ "demo.md": "### 3.2.1 Heading\n" });
    await edit("demo.md", "### 3.2 Heading", "x");
    const r = await run(envelope("*** Update File: demo.md", "@@", "-### 3.2.1 Headng", "+### 3.2.1 Renamed"));
    expect(r.ok).toBe(false);
    expect(r.modelText.endsWith(`\n${NOTE(2, "demo.md")}`)).toBe(true);
  });

  it("a multi-file patch is not counted against one file", async () => {
    await t.put({ "a.md": "a\n", "b.md": "b\n" });
    const p = (n: number) => envelope("*** Update File: a.md", "@@", `-a${n}`, "+b", "*** Update File: b.md", "@@", `-c${n}`, "+d");
    await run(p(1));
    expect((await run(p(2))).modelText).not.toContain("repeated approximate-match");
  });

  it("the note stops after five misses", async () => {
    await t.put({ "e.txt": "e\n" });
    const texts: string[] = [];
    for (let i = 0; i < 6; i++) texts.push((await edit("e.txt", `nope${i}`, "x")).modelText);
    expect(texts.map((s) => s.includes("repeated approximate-match"))).toEqual([false, true, true, true, true, false]);
  });
});
