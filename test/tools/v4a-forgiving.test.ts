// Both V4A parsers read patches as models write them: spaces around the
// markers and operation lines, blank lines that only separate, a `@@` header
// repeated as the first context line, the two-line `@@` anchor form, and a
// unified-diff range in a `@@` header. A hunk that changes nothing is refused.

import * as fsp from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { applyPatchTool } from "../../tools/yuj/apply_patch.js";
import { chordApplyPatchTool } from "../../tools/chord/apply_patch.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
});
afterEach(() => t.cleanup());

const read = (rel: string) => fsp.readFile(path.join(t.cwd, rel), "utf8");
const both = [
  ["Yuj", (patch: string) => applyPatchTool.run({ patch }, t.ctx)],
  ["Chord", (patch: string) => chordApplyPatchTool.run({ patch }, t.ctx)],
] as const;

describe.each(both)("%s apply_patch reads patches as models write them", (_surface, run) => {
  it("accepts spaces around Begin/End Patch and the operation lines", async () => {
    await t.put({ "a.txt": "one\n", "b.txt": "two\n" });
    const r = await run(" *** Begin Patch \n  *** Update File: a.txt  \n@@\n-one\n+ONE\n\t*** Add File: c.txt\n+c\n *** Delete File: b.txt\n *** End Patch \n");
    expect(r.ok, r.modelText).toBe(true);
    expect(await read("a.txt")).toBe("ONE\n");
    expect(await read("c.txt")).toBe("c\n");
    await expect(fsp.stat(path.join(t.cwd, "b.txt"))).rejects.toThrow();
  });

  it("takes blank lines between operations, before a @@, after the header and after End of File as separators", async () => {
    await t.put({ "a.txt": "one\nmid\ntwo\n", "b.txt": "x\n", "c.txt": "old\n" });
    const patch = [
      "*** Begin Patch",
      "*** Update File: a.txt",
      "@@",
      "-one",
      "+ONE",
      "",
      "@@",
      "-two",
      "+TWO",
      "",
      "*** Update File: b.txt",
      "",
      "@@",
      "-x",
      "+y",
      "*** End of File",
      "",
      "*** Update File: c.txt",
      "@@",
      "-old",
      "+new",
      "",
      "",
      "*** Add File: fresh.txt",
      "+hello",
      "",
      "*** End Patch",
    ].join("\n");
    const r = await run(patch);
    expect(r.ok, r.modelText).toBe(true);
    expect(await read("a.txt")).toBe("ONE\nmid\nTWO\n");
    expect(await read("b.txt")).toBe("y\n");
    expect(await read("c.txt")).toBe("new\n");
    expect(await read("fresh.txt")).toBe("hello\n");
  });

  it("keeps a blank line inside a hunk as an empty context line", async () => {
    await t.put({ "d.txt": "one\n\ntwo\n" });
    const r = await run("*** Begin Patch\n*** Update File: d.txt\n@@\n one\n\n-two\n+TWO\n*** End Patch");
    expect(r.ok, r.modelText).toBe(true);
    expect(await read("d.txt")).toBe("one\n\nTWO\n");
  });

  it("anchors a hunk at its @@ header when the header is repeated as its first context line", async () => {
    await t.put({ "code.go": "func alpha() {\n\ta := 1\n}\n\nfunc target() {\n\told := 1\n\t_ = old\n}\n" });
    const r = await run(
      "*** Begin Patch\n*** Update File: code.go\n@@ func target() {\n func target() {\n-\told := 1\n+\tnew := 2\n-\t_ = old\n+\t_ = new\n*** End Patch",
    );
    expect(r.ok, r.modelText).toBe(true);
    expect(await read("code.go")).toBe("func alpha() {\n\ta := 1\n}\n\nfunc target() {\n\tnew := 2\n\t_ = new\n}\n");
  });

  it("takes a lone context line followed by another @@ as that hunk's anchor", async () => {
    await t.put({ "a.go": "package x\n\nfunc TestDegraded(t *testing.T) {\n\tif true {\n\t}\n}\n" });
    const r = await run(
      "*** Begin Patch\n*** Update File: a.go\n@@\n func TestDegraded(t *testing.T) {\n@@\n \t}\n }\n+\n+func TestAdded(t *testing.T) {}\n*** End Patch",
    );
    expect(r.ok, r.modelText).toBe(true);
    expect(await read("a.go")).toBe("package x\n\nfunc TestDegraded(t *testing.T) {\n\tif true {\n\t}\n}\n\nfunc TestAdded(t *testing.T) {}\n");
  });

  it("drops a unified-diff range from a @@ header and keeps the text after it as the anchor", async () => {
    await t.put({ "g.py": "def f():\n    return 1\n\ndef g():\n    return 1\n" });
    const r = await run("*** Begin Patch\n*** Update File: g.py\n@@ -4,2 +4,2 @@ def g():\n-    return 1\n+    return 2\n*** End Patch");
    expect(r.ok, r.modelText).toBe(true);
    expect(await read("g.py")).toBe("def f():\n    return 1\n\ndef g():\n    return 2\n");
  });

  it("appends a hunk of only added lines at the end, without moving later hunks' search", async () => {
    await t.put({ "file.txt": "line1\nline2\nline3\n" });
    const r = await run("*** Begin Patch\n*** Update File: file.txt\n@@\n+tail-one\n+tail-two\n@@\n line1\n-line2\n-line3\n+replacement\n*** End Patch");
    expect(r.ok, r.modelText).toBe(true);
    expect(await read("file.txt")).toBe("line1\nreplacement\ntail-one\ntail-two\n");
  });

  it("ends an updated file with a newline", async () => {
    await t.put({ "file.txt": "old" });
    expect((await run("*** Begin Patch\n*** Update File: file.txt\n@@\n-old\n+new\n*** End Patch")).ok).toBe(true);
    expect(await read("file.txt")).toBe("new\n");
  });

  it("refuses a hunk with only context lines and changes nothing", async () => {
    await t.put({ "unchanged.md": "## 5. Related docs\n" });
    const r = await run("*** Begin Patch\n*** Update File: unchanged.md\n@@\n ## 5. Related docs\n*** End Patch");
    expect(r.ok).toBe(false);
    expect(r.modelText).toContain(
      "line 3: the hunk at line 3 has only context lines: at least one added or removed line is required; whitespace-only lines are not omission placeholders",
    );
    expect(await read("unchanged.md")).toBe("## 5. Related docs\n");
  });

  it("keeps '***' lines inside hunks and added files as text", async () => {
    await t.put({ "notes.md": "intro\n*** heading\nold\n", "m.txt": "alpha\n*** End of File\nomega\n" });
    const r = await run(
      "*** Begin Patch\n*** Update File: notes.md\n@@\n intro\n *** heading\n-old\n+new\n*** Update File: m.txt\n@@\n alpha\n *** End of File\n-omega\n+OMEGA\n*** Add File: s.txt\n+*** generated\n+content\n*** End Patch",
    );
    expect(r.ok, r.modelText).toBe(true);
    expect(await read("notes.md")).toBe("intro\n*** heading\nnew\n");
    expect(await read("m.txt")).toBe("alpha\n*** End of File\nOMEGA\n");
    expect(await read("s.txt")).toBe("*** generated\ncontent\n");
  });

  it("moves a file without hunks, bytes unchanged, and keeps its mode", async () => {
    await t.put({ "old.txt": Buffer.from("a\r\nb\nc\r\n\u0000", "latin1") });
    await fsp.chmod(path.join(t.cwd, "old.txt"), 0o755);
    const r = await run("*** Begin Patch\n*** Update File: old.txt\n*** Move to: new.txt\n*** End Patch");
    expect(r.ok, r.modelText).toBe(true);
    expect(await fsp.readFile(path.join(t.cwd, "new.txt"), "latin1")).toBe("a\r\nb\nc\r\n\u0000");
    expect((await fsp.stat(path.join(t.cwd, "new.txt"))).mode & 0o777).toBe(0o755);
    await expect(fsp.stat(path.join(t.cwd, "old.txt"))).rejects.toThrow();
  });
});

describe("the two surfaces differ where their pages do", () => {
  it("Chord applies repeated hunks at the first match after the previous one; Yuj refuses the ambiguity", async () => {
    await t.put({ "r.txt": "x\nfoo\nx\nfoo\n" });
    const patch = "*** Begin Patch\n*** Update File: r.txt\n@@ x\n-foo\n+FIRST\n@@ x\n-foo\n+SECOND\n*** End Patch";
    const yuj = await applyPatchTool.run({ patch }, t.ctx);
    expect(yuj.modelText).toContain("ERROR: r.txt: hunk 1 of 2 (patch line 3): old lines match 2 positions within @@ scope (lines 2, 4)");
    expect(await read("r.txt")).toBe("x\nfoo\nx\nfoo\n");
    expect(await chordApplyPatchTool.run({ patch }, t.ctx)).toMatchObject({ ok: true, modelText: "Applied patch:\nM r.txt" });
    expect(await read("r.txt")).toBe("x\nFIRST\nx\nSECOND\n");
  });


  it("Chord reads a patch missing its Begin or End marker; Yuj names the missing marker", async () => {
    await t.put({ "f.txt": "old\n" });
    const noBegin = "*** Update File: f.txt\n@@\n-old\n+new\n*** End Patch";
    expect(await applyPatchTool.run({ patch: noBegin }, t.ctx)).toMatchObject({
      ok: false,
      modelText: `<apply_patch ok="false" error_kind="parse" v="1">\nERROR: line 1: expected '*** Begin Patch', found '*** Update File: f.txt'\n</apply_patch>`,
    });
    expect(await chordApplyPatchTool.run({ patch: noBegin }, t.ctx)).toMatchObject({ ok: true, modelText: "Applied patch:\nM f.txt" });
    expect(await chordApplyPatchTool.run({ patch: "*** Begin Patch\n*** Update File: f.txt\n@@\n-new\n+newer" }, t.ctx)).toEqual({
      ok: true,
      modelText: "Applied patch:\nM f.txt",
    });
    expect(await read("f.txt")).toBe("newer\n");
    const prose = await chordApplyPatchTool.run({ patch: "Applying patch now\n*** Update File: f.txt\n@@\n-newer\n+x\n*** End Patch" }, t.ctx);
    expect(prose.modelText).toContain("expected '*** Begin Patch'");
  });

  it("Chord refuses a blank line between two added lines; Yuj keeps it as an empty line", async () => {
    const patch = "*** Begin Patch\n*** Add File: bad.txt\n+hello\n\n+world\n*** End Patch";
    const chord = await chordApplyPatchTool.run({ patch }, t.ctx);
    expect(chord).toEqual({
      ok: false,
      modelText:
        "apply_patch failed (parse): line 4: every line of an added file must start with +; found a blank line (write an empty line as a lone +)\n" +
        "No file changed: fix the failed operations and resend the patch.",
    });
    await expect(fsp.stat(path.join(t.cwd, "bad.txt"))).rejects.toThrow();
    expect((await applyPatchTool.run({ patch }, t.ctx)).ok).toBe(true);
    expect(await read("bad.txt")).toBe("hello\n\nworld\n");
  });
});
