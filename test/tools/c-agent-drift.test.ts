// Drift on the Chord surface, as the reference's agent tests pin it: edit and
// apply_patch warn and back up a file that changed on disk since the session
// last saw it — through a paged read too, or its own write or edit — and a
// patch of a file never seen applies without a warning.
import * as fsp from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chordApplyPatchTool } from "../../tools/chord/apply_patch.js";
import { chordEditTool } from "../../tools/chord/edit.js";
import { chordReadTool } from "../../tools/chord/read.js";
import { chordWriteTool } from "../../tools/chord/write.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
});
afterEach(() => t.cleanup());

const onDisk = (rel: string) => fsp.readFile(path.join(t.cwd, rel), "utf8");
const patch = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch"].join("\n");

/** Splits a drift result into its lines and checks the backup holds `was`. */
async function expectBackup(text: string, warning: RegExp, was: string): Promise<void> {
  const m = warning.exec(text);
  expect(m, text).not.toBeNull();
  expect(await fsp.readFile(m![1]!, "utf8")).toBe(was);
}

describe("Chord drift after a paged read", () => {
  it("edit warns and backs up a file changed since a read of its first line", async () => {
    await t.put({ "a.txt": "one\ntwo\n" });
    const r = await chordReadTool.run({ path: "a.txt", limit: 1 }, t.ctx);
    expect(r).toMatchObject({ ok: true, modelText: "READ_RESULT lines=1-1 total=2\none\n" });
    await t.put({ "a.txt": "one\nTWO\n" });
    const e = await chordEditTool.run({ path: "a.txt", old_string: "one", new_string: "1" }, t.ctx);
    expect(e.ok).toBe(true);
    const [head, warning] = e.modelText.split("\n");
    expect(head).toBe("Replaced 1 occurrence (8 bytes -> 6 bytes)");
    await expectBackup(
      warning!,
      /^warning: a\.txt changed on disk since it was last read; the edit was applied to the current content \(previous content backed up to (.+)\)$/,
      "one\nTWO\n",
    );
    expect(await onDisk("a.txt")).toBe("1\nTWO\n");
  });

  it("apply_patch warns after a read from a later offset", async () => {
    await t.put({ "b.txt": "x\ny\nz\n" });
    await chordReadTool.run({ path: "b.txt", offset: 2, limit: 1 }, t.ctx);
    await t.put({ "b.txt": "x\ny\nZ\n" });
    const r = await chordApplyPatchTool.run({ patch: patch("*** Update File: b.txt", "@@", "-x", "+X") }, t.ctx);
    expect(r.ok).toBe(true);
    const lines = r.modelText.split("\n");
    expect(lines.slice(0, 2)).toEqual(["Applied patch:", "M b.txt"]);
    await expectBackup(
      lines[2]!,
      /^warning: b\.txt changed on disk since it was last read; the patch was applied to the current content \(previous content backed up to (.+)\)$/,
      "x\ny\nZ\n",
    );
    expect(await onDisk("b.txt")).toBe("X\ny\nZ\n");
  });

  it("a paged read still does not let write replace the file", async () => {
    await t.put({ "c.txt": "one\ntwo\n" });
    await chordReadTool.run({ path: "c.txt", offset: 1, limit: 1 }, t.ctx);
    const w = await chordWriteTool.run({ path: "c.txt", content: "replacement\n" }, t.ctx);
    expect(w).toEqual({
      ok: false,
      modelText:
        "write refused: c.txt exists and has not been read in full in this session (paged or truncated reads do not count). " +
        "Read the whole file first, then retry, or use edit for a targeted change.",
    });
    expect(await onDisk("c.txt")).toBe("one\ntwo\n");
  });
});

describe("Chord drift after the session's own change", () => {
  it("a file the session wrote and someone then changed is patched with a warning and a backup", async () => {
    const w = await chordWriteTool.run({ path: "d.txt", content: "before\n" }, t.ctx);
    expect(w).toEqual({ ok: true, modelText: "Successfully wrote 2 lines, 7 bytes" });
    await t.put({ "d.txt": "external\n" });
    const r = await chordApplyPatchTool.run({ patch: patch("*** Update File: d.txt", "@@", "-external", "+after") }, t.ctx);
    expect(r.ok).toBe(true);
    await expectBackup(
      r.modelText.split("\n")[2]!,
      /^warning: d\.txt changed on disk since it was last read; the patch was applied to the current content \(previous content backed up to (.+)\)$/,
      "external\n",
    );
    expect(await onDisk("d.txt")).toBe("after\n");
  });

  it("an edit of an unread file, then an outside change: the next edit warns", async () => {
    await t.put({ "e.txt": "alpha\nbeta\n" });
    const first = await chordEditTool.run({ path: "e.txt", old_string: "alpha", new_string: "ALPHA" }, t.ctx);
    expect(first).toEqual({ ok: true, modelText: "Replaced 1 occurrence (11 bytes -> 11 bytes)" });
    await t.put({ "e.txt": "ALPHA\nbeta\ngamma\n" });
    const second = await chordEditTool.run({ path: "e.txt", old_string: "beta", new_string: "BETA" }, t.ctx);
    expect(second.ok).toBe(true);
    await expectBackup(
      second.modelText.split("\n")[1]!,
      /^warning: e\.txt changed on disk since it was last read; the edit was applied to the current content \(previous content backed up to (.+)\)$/,
      "ALPHA\nbeta\ngamma\n",
    );
  });

  it("the session's own successive edits are never drift", async () => {
    await t.put({ "f.txt": "a\nb\n" });
    await chordEditTool.run({ path: "f.txt", old_string: "a", new_string: "A" }, t.ctx);
    const again = await chordEditTool.run({ path: "f.txt", old_string: "b", new_string: "B" }, t.ctx);
    expect(again).toEqual({ ok: true, modelText: "Replaced 1 occurrence (4 bytes -> 4 bytes)" });
  });
});

describe("Chord edit tools need no prior read", () => {
  it("apply_patch updates a file never read, with no warning", async () => {
    await t.put({ "demo.txt": "before\n" });
    const r = await chordApplyPatchTool.run({ patch: patch("*** Update File: demo.txt", "@@", "-before", "+after") }, t.ctx);
    expect(r).toEqual({ ok: true, modelText: "Applied patch:\nM demo.txt" });
    expect(await onDisk("demo.txt")).toBe("after\n");
  });

  it("a failed edit of an unread file leaves it as it was", async () => {
    await t.put({ "demo.txt": "before" });
    const r = await chordEditTool.run({ path: "demo.txt", old_string: "missing", new_string: "after" }, t.ctx);
    expect(r.ok).toBe(false);
    expect(r.modelText.startsWith("old_string not found in file")).toBe(true);
    expect(await onDisk("demo.txt")).toBe("before");
  });
});

describe("Chord write over its own write", () => {
  it("needs no read while the file is as the session wrote it", async () => {
    await chordWriteTool.run({ path: "g.txt", content: "v1\n" }, t.ctx);
    expect(await chordWriteTool.run({ path: "g.txt", content: "v2\n" }, t.ctx)).toEqual({ ok: true, modelText: "Successfully wrote 2 lines, 3 bytes" });
  });

  it("is refused, saying why, once someone else changed it", async () => {
    await chordWriteTool.run({ path: "g.txt", content: "v1\n" }, t.ctx);
    await t.put({ "g.txt": "external\n" });
    expect(await chordWriteTool.run({ path: "g.txt", content: "v2\n" }, t.ctx)).toEqual({
      ok: false,
      modelText:
        "write refused: g.txt changed on disk after this session wrote it, so the write would overwrite changes you have not seen. " +
        "Read the whole file first, then retry, or use edit for a targeted change.",
    });
    expect(await onDisk("g.txt")).toBe("external\n");
  });
});
