// Chord apply_patch on real files: which file groups apply when others fail,
// overlapping targets, moves onto existing files, file modes, punctuation
// tolerance, and the warning and backup when a file changed since it was read.

import * as fsp from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chordApplyPatchTool } from "../../tools/chord/apply_patch.js";
import { chordReadTool } from "../../tools/chord/read.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
});
afterEach(() => t.cleanup());

const abs = (rel: string) => path.join(t.cwd, rel);
const read = (rel: string) => fsp.readFile(abs(rel), "utf8");
const mode = async (rel: string) => (await fsp.stat(abs(rel))).mode & 0o777;
const absent = (rel: string) => expect(fsp.stat(abs(rel))).rejects.toThrow();
const run = (...lines: string[]) => chordApplyPatchTool.run({ patch: ["*** Begin Patch", ...lines, "*** End Patch"].join("\n") }, t.ctx);
const NONE = "apply_patch failed: 1 file group not applied and no file changed; resolve each cause above and resubmit the failed file groups rebuilt from current file contents.";
const NONE2 = NONE.replace("1 file group", "2 file groups");
const NO_SIMILAR = (p: string) => `  no similar lines found in ${p}; read the file and copy the lines exactly`;

describe("chord apply_patch: file groups", () => {
  it("a move, a re-add of its source and a failing update of the moved file: the move and the add apply", async () => {
    await t.put({ "plan.md": "old\n" });
    await fsp.chmod(abs("plan.md"), 0o600);
    const r = await run(
      "*** Update File: plan.md", "*** Move to: archive/plan.md", "@@", "-old", "+archived",
      "*** Add File: plan.md", "+new",
      "*** Update File: archive/plan.md", "@@", "-missing", "+never",
    );
    expect(r).toEqual({
      ok: false,
      modelText: [
        "Applied patch:",
        "A archive/plan.md",
        "M plan.md",
        "",
        "Not applied:",
        "- archive/plan.md: hunk not found (1/1) at patch line 10; first expected complete line: \"missing\"; the expected line does not exist in the current file; the file may have changed since it was last read, or the line was invented — re-read the current target range and rebuild this hunk from current complete lines; do not retry the same hunk unchanged",
        NO_SIMILAR("archive/plan.md"),
        "",
        'apply_patch partially applied: 1 file group not applied; the changes under "Applied patch" are on disk; resolve each cause above and resubmit only the failed file groups rebuilt from current file contents.',
      ].join("\n"),
    });
    expect(await read("plan.md")).toBe("new\n");
    expect(await read("archive/plan.md")).toBe("archived\n");
    // The moved file keeps its mode; the re-created source is a fresh file.
    expect(await mode("archive/plan.md")).toBe(0o600);
    expect(await mode("plan.md")).toBe(0o644);
  });

  it("two operations on one file apply together or not at all", async () => {
    await t.put({ "same.txt": "first\nlast\n" });
    const r = await run("*** Update File: same.txt", "@@", "-first", "+FIRST", "*** Update File: same.txt", "@@", "-missing", "+NEVER");
    expect(r).toEqual({
      ok: false,
      modelText: [
        "Not applied:",
        "- same.txt: hunk not found (1/1) at patch line 7; first expected complete line: \"missing\"; the expected line does not exist in the current file; the file may have changed since it was last read, or the line was invented — re-read the current target range and rebuild this hunk from current complete lines; do not retry the same hunk unchanged (this file group has 2 operations; " +
          "the others matched in memory but were not applied: keep it with the failed operation when revising the group)",
        NO_SIMILAR("same.txt"),
        "",
        NONE,
      ].join("\n"),
    });
    expect(await read("same.txt")).toBe("first\nlast\n");
  });

  it("a failed move skips a later operation on its target", async () => {
    await t.put({ "old.txt": "source\n", "new.txt": "target\n" });
    const r = await run("*** Update File: old.txt", "*** Move to: new.txt", "@@", "-missing", "+moved", "*** Update File: new.txt", "@@", "-target", "+updated");
    expect(r).toEqual({
      ok: false,
      modelText: [
        "Not applied:",
        "- old.txt: hunk not found (1/1) at patch line 4; first expected complete line: \"missing\"; the expected line does not exist in the current file; the file may have changed since it was last read, or the line was invented — re-read the current target range and rebuild this hunk from current complete lines; do not retry the same hunk unchanged",
        NO_SIMILAR("old.txt"),
        "- new.txt: skipped: a prior operation touching new.txt failed, so this operation must remain with that dependency when revised",
        "",
        NONE2,
      ].join("\n"),
    });
    expect(await read("old.txt")).toBe("source\n");
    expect(await read("new.txt")).toBe("target\n");
  });

  it("a group that failed late rolls back the groups that built on it", async () => {
    await t.put({ "old.txt": "source\n" });
    const r = await run(
      "*** Update File: old.txt", "*** Move to: new.txt", "@@", "-source", "+moved",
      "*** Update File: new.txt", "*** Move to: final.txt", "@@", "-moved", "+updated",
      "*** Add File: new.txt", "+replacement",
      "*** Update File: new.txt", "*** Move to: old.txt",
      "*** Update File: old.txt", "@@", "-missing", "+never",
    );
    expect(r.ok).toBe(false);
    expect(r.modelText).toContain(
      "- new.txt: rolled back: an earlier operation group for old.txt that this one depends on (through new.txt) was not applied; keep both groups together when revising",
    );
    expect(r.modelText.endsWith(NONE2)).toBe(true);
    expect(await read("old.txt")).toBe("source\n");
    await absent("new.txt");
    await absent("final.txt");
  });

  it("independent files apply around a failing one", async () => {
    await t.put({ "one.txt": "one\n", "two.txt": "two\n", "four.txt": "four\n" });
    const r = await run(
      "*** Update File: one.txt", "@@", "-one", "+ONE",
      "*** Update File: three.txt", "@@", "-three", "+THREE",
      "*** Update File: two.txt", "@@", "-two", "+TWO",
      "*** Delete File: four.txt",
    );
    expect(r).toEqual({
      ok: false,
      modelText: [
        "Applied patch:",
        "D four.txt",
        "M one.txt",
        "M two.txt",
        "",
        "Not applied:",
        "- three.txt: file not found: three.txt",
        "",
        'apply_patch partially applied: 1 file group not applied; the changes under "Applied patch" are on disk; resolve each cause above and resubmit only the failed file groups rebuilt from current file contents.',
      ].join("\n"),
    });
    expect(await read("one.txt")).toBe("ONE\n");
    expect(await read("two.txt")).toBe("TWO\n");
    await absent("three.txt");
    await absent("four.txt");
  });

  it("names a missing file given by its absolute path relative to the project", async () => {
    await fsp.mkdir(abs("internal/agent"), { recursive: true });
    const r = await run(`*** Update File: ${abs("internal/agent/missing.go")}`, "@@", "-old", "+new");
    expect(r).toEqual({
      ok: false,
      modelText: ["Not applied:", "- internal/agent/missing.go: file not found: internal/agent/missing.go", "", NONE].join("\n"),
    });
  });

  it("refuses an Add over an existing file, naming it", async () => {
    await t.put({ "file.txt": "original\n" });
    expect(await run("*** Add File: file.txt", "+middle")).toEqual({
      ok: false,
      modelText: ["Not applied:", "- file.txt: cannot add file that already exists: file.txt; use Update File to change it", "", NONE].join("\n"),
    });
    expect(await read("file.txt")).toBe("original\n");
  });
});

describe("chord apply_patch: overlapping targets are refused before anything is written", () => {
  it("a target inside another target", async () => {
    await t.put({ "keep.txt": "k\n" });
    const r = await run("*** Update File: keep.txt", "@@", "-k", "+K", "*** Add File: generated", "+parent", "*** Add File: generated/child.txt", "+child");
    expect(r).toEqual({
      ok: false,
      modelText:
        "apply_patch failed (overlap): overlapping operations: generated/child.txt is inside generated, which the patch also changes; split them into two patches\n" +
        "No file changed: fix the failed operations and resend the patch.",
    });
    await absent("generated");
    expect(await read("keep.txt")).toBe("k\n");
  });

  it.each([
    ["two updates", ["*** Update File: source.txt", "@@", "-before", "+first", "*** Update File: alias.txt", "@@", "-before", "+second"]],
    ["a move onto the other name", ["*** Update File: source.txt", "*** Move to: alias.txt", "@@", "-before", "+after"]],
  ])("two names of one hard-linked file: %s", async (_name, lines) => {
    await t.put({ "source.txt": "before\n" });
    await fsp.link(abs("source.txt"), abs("alias.txt"));
    expect(await run(...lines)).toEqual({
      ok: false,
      modelText:
        "apply_patch failed (overlap): overlapping operations: source.txt and alias.txt are the same file (hard links); change it under one name only\n" +
        "No file changed: fix the failed operations and resend the patch.",
    });
    expect(await read("source.txt")).toBe("before\n");
    expect(await read("alias.txt")).toBe("before\n");
  });
});

describe("chord apply_patch: moves and modes", () => {
  it("Move to onto an existing file replaces it and keeps the moved file's mode", async () => {
    await t.put({ "old.txt": "old\n", "target.txt": "target\n" });
    await fsp.chmod(abs("old.txt"), 0o700);
    await fsp.chmod(abs("target.txt"), 0o600);
    expect(await run("*** Update File: old.txt", "*** Move to: target.txt", "@@", "-old", "+new")).toEqual({
      ok: true,
      modelText: "Applied patch:\nR old.txt -> target.txt",
    });
    expect(await read("target.txt")).toBe("new\n");
    expect(await mode("target.txt")).toBe(0o700);
    await absent("old.txt");
  });

  it("a moved executable stays 0755, and a chain of moves folds into one rename", async () => {
    await t.put({ "run.sh": "#!/bin/sh\necho old\n" });
    await fsp.chmod(abs("run.sh"), 0o755);
    const r = await run(
      "*** Update File: run.sh", "*** Move to: bin/mid.sh", "@@", "-echo old", "+echo mid",
      "*** Update File: bin/mid.sh", "*** Move to: bin/run.sh", "@@", "-echo mid", "+echo new",
    );
    expect(r).toEqual({ ok: true, modelText: "Applied patch:\nR run.sh -> bin/run.sh" });
    expect(await read("bin/run.sh")).toBe("#!/bin/sh\necho new\n");
    expect(await mode("bin/run.sh")).toBe(0o755);
    await absent("bin/mid.sh");
  });

  it("a deleted and re-added file gets a fresh 0644, reported as a change", async () => {
    await t.put({ "run.sh": "#!/bin/sh\necho ok\n" });
    await fsp.chmod(abs("run.sh"), 0o755);
    expect(await run("*** Delete File: run.sh", "*** Add File: run.sh", "+#!/bin/sh", "+echo ok")).toEqual({ ok: true, modelText: "Applied patch:\nM run.sh" });
    expect(await mode("run.sh")).toBe(0o644);
  });

  it("an updated file keeps its mode", async () => {
    await t.put({ "script.sh": "before\n" });
    await fsp.chmod(abs("script.sh"), 0o750);
    expect((await run("*** Update File: script.sh", "@@", "-before", "+after")).ok).toBe(true);
    expect(await mode("script.sh")).toBe(0o750);
  });
});

describe("chord apply_patch: a file changed since it was read", () => {
  it("is patched when the hunks still match, with a warning and a backup of what was on disk", async () => {
    await t.put({ "a.txt": "one\ntwo\n" });
    expect((await chordReadTool.run({ path: "a.txt" }, t.ctx)).ok).toBe(true);
    await fsp.writeFile(abs("a.txt"), "one\ntwo\nthree\n");
    const r = await run("*** Update File: a.txt", "@@", "-two", "+TWO");
    expect(r.ok).toBe(true);
    const lines = r.modelText.split("\n");
    expect(lines.slice(0, 2)).toEqual(["Applied patch:", "M a.txt"]);
    const warning = /^warning: a\.txt changed on disk since it was last read; the patch was applied to the current content \(previous content backed up to (.+)\)$/.exec(lines[2]!);
    expect(warning).not.toBeNull();
    expect(await fsp.readFile(warning![1]!, "utf8")).toBe("one\ntwo\nthree\n");
    expect(await read("a.txt")).toBe("one\nTWO\nthree\n");
    // The session's own change is not drift the next time.
    expect(await run("*** Update File: a.txt", "@@", "-TWO", "+2")).toEqual({ ok: true, modelText: "Applied patch:\nM a.txt" });
  });
});

describe("chord apply_patch: punctuation and spacing tolerance", () => {
  const NOTE = "Note: used punctuation/whitespace-tolerant matching for 1 hunk(s); unchanged text was preserved from the current file";
  it.each([
    ["keeps the file's full-width punctuation", "注册表保持配置数组顺序；旧字段，结尾。\n", "-注册表保持配置数组顺序;旧字段,结尾.", "+注册表保持配置数组顺序;新字段,结尾.", "注册表保持配置数组顺序；新字段，结尾。\n"],
    ["folds a separator and its space", "说明：旧值。\n", "-说明: 旧值.", "+说明: 新值.", "说明：新值。\n"],
    ["curly quotes in the file, straight in the hunk", "say “hello” to it’s owner\n", '-say "hello" to it\'s owner', '+say "goodbye" to it\'s owner', "say “goodbye” to it’s owner\n"],
    ["a dropped space between words", "diff and count\n", "-diffand count", "+diffand total", "diff and total\n"],
    ["re-spaced alignment keeps the file's", "var (\n\tcount   = 1\n)\n", "-\tcount = 1", "+\tcount = 2", "var (\n\tcount   = 2\n)\n"],
    ["a line replaced entirely", "旧值；结尾。\n", "-旧值;结尾.", "+完全不同", "完全不同\n"],
  ])("%s", async (_name, file, minus, plus, want) => {
    await t.put({ "p.md": file });
    expect(await run("*** Update File: p.md", "@@", minus, plus)).toEqual({ ok: true, modelText: `Applied patch:\nM p.md\n${NOTE}` });
    expect(await read("p.md")).toBe(want);
  });

  it("takes the model's punctuation where it changed it on purpose", async () => {
    await t.put({ "p.md": "说明：旧值。\n" });
    expect(await run("*** Update File: p.md", "@@", "-说明：旧值。", "+说明: 新值.")).toEqual({ ok: true, modelText: "Applied patch:\nM p.md" });
    expect(await read("p.md")).toBe("说明: 新值.\n");
  });

  it("refuses an ambiguous tolerant match, naming the lines", async () => {
    const content = "相同；文本。\n中间\n相同；文本。\n";
    await t.put({ "p.md": content });
    const r = await run("*** Update File: p.md", "@@", "-相同;文本.", "+不同;文本.");
    expect(r.modelText).toContain("- p.md: hunk ambiguous (1/1) at patch line 3; punctuation/whitespace-tolerant matching is ambiguous at lines 1, 3;");
    expect(await read("p.md")).toBe(content);
  });

  it("does not hide shifted indentation", async () => {
    await t.put({ "p.md": " 相同；文本。\n" });
    const r = await run("*** Update File: p.md", "@@", "-相同;文本. ", "+不同;文本. ");
    expect(r.modelText).toContain("- p.md: hunk not found (1/1) at patch line 3; first expected complete line: \"相同;文本. \"; the first line of the hunk matches no file line; the closest file line is 1 (");
    expect(await read("p.md")).toBe(" 相同；文本。\n");
  });

  it("says when hunks are out of file order, and points at the closest line", async () => {
    await t.put({ "p.md": "first line\nmiddle line\nlast line\n" });
    const order = await run("*** Update File: p.md", "@@", "-last line", "+LAST", "@@", "-first line", "+FIRST");
    expect(order.modelText).toContain(
      "- p.md: hunk not found (2/2) at patch line 6; first expected complete line: \"first line\"; matching context exists earlier at line 1, but hunks must follow file order; " +
        "do not retry the same hunk unchanged; note: hunks 1..1 matched successfully in memory but were not applied because this hunk failed, so keep all hunks 1..2 together when rebuilding this operation",
    );
    const close = await run("*** Update File: p.md", "@@", "-muddle line", "+replacement");
    expect(close.modelText).toContain(
      '- p.md: hunk not found (1/1) at patch line 3; first expected complete line: "muddle line"; the first line of the hunk matches no file line; the closest file line is 2 (91% similar): found "middle line", expected "muddle line"; ' +
        "the file may have changed — re-read the current target range and rebuild this hunk from current complete lines; do not retry the same hunk unchanged\n",
    );
    expect(await read("p.md")).toBe("first line\nmiddle line\nlast line\n");
  });
});
