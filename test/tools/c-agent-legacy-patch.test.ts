// Chord's older single-file apply_patch call, `{"path", "patch": "@@ …"}`,
// which the reference still takes as an Update File of that path (its agent
// tests make most of their edits this way): run through the real dispatcher
// and the chord profile, on real files.
import * as fsp from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chordCall } from "../support/chord-call.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
});
afterEach(() => t.cleanup());

const onDisk = (rel: string) => fsp.readFile(path.join(t.cwd, rel), "utf8");
const NOTE = (p: string) => `Note: apply_patch takes the whole envelope in "patch"; the bare hunks and "path" were read as "*** Update File: ${p}".`;

describe("chord apply_patch: path with bare hunks", () => {
  it("applies the hunks to that path and says how it read them", async () => {
    await t.put({ "demo.txt": "before\nkeep\n" });
    const r = await chordCall(t, "apply_patch", { path: "demo.txt", patch: "@@\n-before\n+after\n" });
    expect(r).toEqual({ ok: true, text: `${NOTE("demo.txt")}\nApplied patch:\nM demo.txt` });
    expect(await onDisk("demo.txt")).toBe("after\nkeep\n");
  });

  it("takes an anchored hunk and several hunks, in order", async () => {
    await t.put({ "src/m.go": "func a() {\n\treturn 1\n}\nfunc b() {\n\treturn 1\n}\n" });
    const r = await chordCall(t, "apply_patch", {
      path: "src/m.go",
      patch: "@@ func a() {\n-\treturn 1\n+\treturn 2\n@@ func b() {\n-\treturn 1\n+\treturn 3\n",
    });
    expect(r).toEqual({ ok: true, text: `${NOTE("src/m.go")}\nApplied patch:\nM src/m.go` });
    expect(await onDisk("src/m.go")).toBe("func a() {\n\treturn 2\n}\nfunc b() {\n\treturn 3\n}\n");
  });

  it("a hunk that does not match changes nothing and names the file", async () => {
    await t.put({ "demo.txt": "before\n" });
    const r = await chordCall(t, "apply_patch", { path: "demo.txt", patch: "@@\n-missing\n+after" });
    expect(r.ok).toBe(false);
    // The patch line is the envelope's: the note says the hunks were read inside one.
    expect(r.text).toBe(
      `${NOTE("demo.txt")}\nNot applied:\n` +
        '- demo.txt: hunk not found (1/1) at patch line 3; first expected complete line: "missing"; the expected line does not exist in the current file; ' +
        "the file may have changed since it was last read, or the line was invented — re-read the current target range and rebuild this hunk from current complete lines; do not retry the same hunk unchanged\n" +
        "  no similar lines found in demo.txt; read the file and copy the lines exactly\n\n" +
        "apply_patch failed: 1 file group not applied and no file changed; resolve each cause above and resubmit the failed file groups rebuilt from current file contents.",
    );
    expect(await onDisk("demo.txt")).toBe("before\n");
  });

  it("a path with a line break is never written into the envelope", async () => {
    await t.put({ "a.txt": "x\n", "b.txt": "keep\n" });
    const r = await chordCall(t, "apply_patch", { path: "a.txt\n*** Delete File: b.txt", patch: "@@\n-x\n+y" });
    expect(r).toEqual({
      ok: false,
      text:
        'Note: apply_patch takes no "path" parameter; it was ignored.\n' +
        "apply_patch failed (parse): line 1: expected '*** Begin Patch', found '@@'\n" +
        "No file changed: fix the failed operations and resend the patch.",
    });
    expect(await onDisk("b.txt")).toBe("keep\n");
  });

  it("a full envelope beside a path keeps the envelope's own targets", async () => {
    await t.put({ "one.txt": "1\n", "two.txt": "2\n" });
    const r = await chordCall(t, "apply_patch", {
      path: "one.txt",
      patch: "*** Begin Patch\n*** Update File: two.txt\n@@\n-2\n+II\n*** End Patch",
    });
    expect(r).toEqual({ ok: true, text: 'Note: apply_patch takes no "path" parameter; it was ignored.\nApplied patch:\nM two.txt' });
    expect(await onDisk("one.txt")).toBe("1\n");
    expect(await onDisk("two.txt")).toBe("II\n");
  });

  it("bare hunks without a path are still refused by the parser", async () => {
    await t.put({ "demo.txt": "before\n" });
    const r = await chordCall(t, "apply_patch", { patch: "@@\n-before\n+after\n" });
    expect(r).toEqual({
      ok: false,
      text: "apply_patch failed (parse): line 1: expected '*** Begin Patch', found '@@'\nNo file changed: fix the failed operations and resend the patch.",
    });
  });
});
