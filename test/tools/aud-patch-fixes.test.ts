// Chord apply_patch and edit against the reference's own tests, the cases an
// audit found different (real files, the real dispatcher and the chord
// profile): the older single-file form with a closing `*** End Patch` or a
// second file in it, the applied list's order and a move onto an existing
// file, and the closest-span report when the span is shorter than old_string.

import * as fsp from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chordCall } from "../support/chord-call.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
});
afterEach(() => t.cleanup());

const read = (rel: string) => fsp.readFile(join(t.cwd, rel), "utf8");
const exists = (rel: string) =>
  fsp.stat(join(t.cwd, rel)).then(
    () => true,
    () => false,
  );
const FOLDED = (p: string) => `Note: apply_patch takes the whole envelope in "patch"; the bare hunks and "path" were read as "*** Update File: ${p}".`;
const patch = (...lines: string[]) => ({ patch: ["*** Begin Patch", ...lines, "*** End Patch"].join("\n") });

describe("chord apply_patch: the older {path, patch} form", () => {
  it("a closing *** End Patch after the bare hunks is not read as a hunk line", async () => {
    await t.put({ "a.txt": "old\n" });
    const r = await chordCall(t, "apply_patch", { path: "a.txt", patch: "@@\n-old\n+new\n*** End Patch" });
    expect(r).toEqual({ ok: true, text: `${FOLDED("a.txt")}\nApplied patch:\nM a.txt` });
    expect(await read("a.txt")).toBe("new\n");
  });

  it("context lines that look like envelope markers stay context", async () => {
    await t.put({ "a.txt": "*** Begin Patch\nold\n*** End Patch\n" });
    const r = await chordCall(t, "apply_patch", { path: "a.txt", patch: "@@\n *** Begin Patch\n-old\n+new\n *** End Patch\n*** End Patch" });
    expect(r).toEqual({ ok: true, text: `${FOLDED("a.txt")}\nApplied patch:\nM a.txt` });
    expect(await read("a.txt")).toBe("*** Begin Patch\nnew\n*** End Patch\n");
  });

  it("bare hunks followed by another file's operation are one file's hunks no more: refused, nothing written", async () => {
    await t.put({ "a.txt": "a\n", "b.txt": "c\n" });
    const r = await chordCall(t, "apply_patch", { path: "a.txt", patch: "@@\n-a\n+b\n*** Update File: b.txt\n@@\n-c\n+d\n" });
    expect(r).toEqual({
      ok: false,
      text:
        'Note: apply_patch takes no "path" parameter; it was ignored.\n' +
        "apply_patch failed (parse): line 1: expected '*** Begin Patch', found '@@'\n" +
        "No file changed: fix the failed operations and resend the patch.",
    });
    expect(await read("a.txt")).toBe("a\n");
    expect(await read("b.txt")).toBe("c\n");
  });
});

describe("chord apply_patch: the applied list", () => {
  it("is sorted by marker and path, as the reference sorts it", async () => {
    await t.put({ "update.txt": "one\ntwo\n", "delete.txt": "obsolete\n" });
    const r = await chordCall(t, "apply_patch", patch("*** Update File: update.txt", "@@", "-two", "+TWO", "*** Add File: added.txt", "+created", "*** Delete File: delete.txt"));
    expect(r).toEqual({ ok: true, text: "Applied patch:\nA added.txt\nD delete.txt\nM update.txt" });
    expect(await read("update.txt")).toBe("one\nTWO\n");
    expect(await read("added.txt")).toBe("created\n");
    expect(await exists("delete.txt")).toBe(false);
  });

  it("a move onto an existing file is a move, and keeps the moved file's mode", async () => {
    await t.put({ "old.txt": "old\n", "target.txt": "target\n" });
    await fsp.chmod(join(t.cwd, "old.txt"), 0o700);
    await fsp.chmod(join(t.cwd, "target.txt"), 0o600);
    const r = await chordCall(t, "apply_patch", patch("*** Update File: old.txt", "*** Move to: target.txt", "@@", "-old", "+new"));
    expect(r).toEqual({ ok: true, text: "Applied patch:\nR old.txt -> target.txt" });
    expect(await read("target.txt")).toBe("new\n");
    expect((await fsp.stat(join(t.cwd, "target.txt"))).mode & 0o777).toBe(0o700);
    expect(await exists("old.txt")).toBe(false);
  });

  it("a move and a re-add of its source list the add first", async () => {
    await t.put({ "plan.md": "# old\nbody\n" });
    const r = await chordCall(t, "apply_patch", patch("*** Update File: plan.md", "*** Move to: archive/plan.md", "@@", "-# old", "+# archived", "*** Add File: plan.md", "+# new", "+replacement"));
    expect(r).toEqual({ ok: true, text: "Applied patch:\nA archive/plan.md\nM plan.md" });
    expect(await read("archive/plan.md")).toBe("# archived\nbody\n");
    expect(await read("plan.md")).toBe("# new\nreplacement\n");
  });
});

describe("chord apply_patch: a patch that changes nothing", () => {
  it("answers as the reference does: Applied patch, No net file changes", async () => {
    await t.put({ "a.txt": "x\n" });
    expect(await chordCall(t, "apply_patch", patch("*** Update File: a.txt", "@@", "-x", "+x"))).toEqual({ ok: true, text: "Applied patch:\nNo net file changes" });
    expect(await read("a.txt")).toBe("x\n");
    expect(await chordCall(t, "apply_patch", patch("*** Add File: n.txt", "+x", "*** Delete File: n.txt"))).toEqual({ ok: true, text: "Applied patch:\nNo net file changes" });
    expect(await exists("n.txt")).toBe(false);
  });
});

describe("chord apply_patch: lines that differ only at their ends", () => {
  it("match without the tolerant-matching note; the added line is written as sent", async () => {
    await t.put({ "demo.txt": "alpha   \nquote one\n" });
    const r = await chordCall(t, "apply_patch", patch("*** Update File: demo.txt", "@@", " alpha", "-quote one", "+quote two"));
    expect(r).toEqual({ ok: true, text: "Applied patch:\nM demo.txt" });
    expect(await read("demo.txt")).toBe("alpha   \nquote two\n");
  });

  it("a removed line without the file's indentation is replaced by the line as sent, silently", async () => {
    await t.put({ "a.go": "func f() {\n\treturn nil\n}\n" });
    const r = await chordCall(t, "apply_patch", patch("*** Update File: a.go", "@@", " func f() {", "-return nil", "+\treturn x", " }"));
    expect(r).toEqual({ ok: true, text: "Applied patch:\nM a.go" });
    expect(await read("a.go")).toBe("func f() {\n\treturn x\n}\n");
  });

  it("a re-spaced run inside a line is still the tolerant match, with its note, keeping the file's spacing", async () => {
    await t.put({ "a.go": "var (\n\tcount   = 1\n\tenabled = true\n)\n" });
    const r = await chordCall(t, "apply_patch", patch("*** Update File: a.go", "@@", " var (", "-\tcount = 1", "+\tcount = 2", " \tenabled = true"));
    expect(r).toEqual({
      ok: true,
      text: "Applied patch:\nM a.go\nNote: used punctuation/whitespace-tolerant matching for 1 hunk(s); unchanged text was preserved from the current file",
    });
    expect(await read("a.go")).toBe("var (\n\tcount   = 2\n\tenabled = true\n)\n");
  });
});

describe("chord apply_patch: the tolerant-matching note", () => {
  it("counts hunks the reference's way, N hunk(s)", async () => {
    await t.put({ "p.md": "说明：旧值。\n中间\n结论：旧的。\n" });
    const r = await chordCall(t, "apply_patch", patch("*** Update File: p.md", "@@", "-说明: 旧值.", "+说明: 新值.", "@@", "-结论: 旧的.", "+结论: 新的."));
    expect(r).toEqual({ ok: true, text: "Applied patch:\nM p.md\nNote: used punctuation/whitespace-tolerant matching for 2 hunk(s); unchanged text was preserved from the current file" });
    expect(await read("p.md")).toBe("说明：新值。\n中间\n结论：新的。\n");
  });
});

describe("chord apply_patch: an End of File hunk that does not match", () => {
  it("lists no span above the file's tail, which such a hunk can never match", async () => {
    await t.put({ "tail.md": "similar signature\n\n\n\ntail marker line\n" });
    const r = await chordCall(t, "apply_patch", patch("*** Update File: tail.md", "@@", "-similr signature", "+replacement", "*** End of File"));
    expect(r).toEqual({
      ok: false,
      text:
        "Not applied:\n" +
        '- tail.md: hunk not found (1/1) at patch line 3; first expected complete line: "similr signature"; the expected line does not exist in the current file; ' +
        "the file may have changed since it was last read, or the line was invented — re-read the current target range and rebuild this hunk from current complete lines; do not retry the same hunk unchanged\n" +
        "  no similar lines found in tail.md; read the file and copy the lines exactly\n\n" +
        "apply_patch failed: 1 file group not applied and no file changed; resolve each cause above and resubmit the failed file groups rebuilt from current file contents.",
    });
    expect(await read("tail.md")).toBe("similar signature\n\n\n\ntail marker line\n");
  });

  it("still lists the tail span when it is close", async () => {
    await t.put({ "tail.md": "top\nmiddle\nlast line here\n" });
    const r = await chordCall(t, "apply_patch", patch("*** Update File: tail.md", "@@", "-last lime here", "+replacement", "*** End of File"));
    expect(r.ok).toBe(false);
    expect(r.text).toContain("  closest spans in tail.md (read them and copy the lines exactly):\n    lines 3-3");
    expect(r.text).not.toContain("lines 1-1");
    expect(await read("tail.md")).toBe("top\nmiddle\nlast line here\n");
  });
});

describe("chord edit: a match off only by whitespace at the line ends", () => {
  it("a trailing-space difference asks for the file's line ends, not its indentation", async () => {
    await t.put({ "demo.md": "x)\n" });
    const r = await chordCall(t, "edit", { path: "demo.md", old_string: "x) \n", new_string: "y) \n" });
    expect(r).toEqual({
      ok: false,
      text:
        "old_string not found in file, even after punctuation/whitespace tolerance. Trailing whitespace mismatch: the text matches at line 1 once leading/trailing whitespace is ignored; " +
        "copy the file's exact line ends (its trailing spaces, or none) from there:\n  1| x)",
    });
    expect(await read("demo.md")).toBe("x)\n");
  });

  it("an indentation difference still names the indentation", async () => {
    await t.put({ "demo.md": "line one\n  line two\n" });
    const r = await chordCall(t, "edit", { path: "demo.md", old_string: "line one\nline two\n", new_string: "line one\nline three\n" });
    expect(r).toEqual({
      ok: false,
      text:
        "old_string not found in file, even after punctuation/whitespace tolerance. Indentation mismatch: the text matches at line 1 once leading/trailing whitespace is ignored; " +
        "copy the file's exact indentation (tabs vs spaces) from there:\n  1| line one\n  2|   line two",
    });
    expect(await read("demo.md")).toBe("line one\n  line two\n");
  });
});

describe("chord edit: the closest span is shorter than old_string", () => {
  it("says the span ends there, not the file, and compares no character with a missing line", async () => {
    let file = "";
    for (let i = 0; i < 40; i++) file += `func f${i}(x int) int {\n\treturn x + ${i}\n}\n\n`;
    let old = "";
    for (let i = 20; i < 32; i++) old += `func f${i}(x int) int {\n\treturn x + ${i}\n}\n\n`;
    old = old.replace(/\n\n$/, "") + "\n\treturn x + 31x\n}\n";
    await t.put({ "b.go": file });
    const r = await chordCall(t, "edit", { path: "b.go", old_string: old, new_string: "X" });
    expect(r).toEqual({
      ok: false,
      text: [
        "old_string not found in file, even after punctuation/whitespace tolerance. Closest match is at line 81 (96% similar, 18 character difference):",
        "  file line 128: (past the end of the closest span)",
        '  your line 48: "\\treturn x + 31x"',
        "  line-count difference: your old_string has 2 extra line(s), the file has 0 extra line(s)",
        '  differing line 49 (file 129): expected "}"',
        "    actual (past the end of the closest span)",
        "Rebuild old_string from the file lines above (copy them exactly), then retry",
      ].join("\n"),
    });
    expect(await read("b.go")).toBe(file);
  });
});
