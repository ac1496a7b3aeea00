import * as fsp from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chordApplyPatchTool } from "../../tools/chord/apply_patch.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
});
afterEach(() => t.cleanup());

const patch = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch"].join("\n");
const read = (rel: string) => fsp.readFile(path.join(t.cwd, rel), "utf8");
const absent = (rel: string) => expect(fsp.stat(path.join(t.cwd, rel))).rejects.toThrow();

describe("chord apply_patch", () => {
  it("moves a file while updating it", async () => {
    await t.put({ "src/old.ts": "export const x = 1;\n" });
    const r = await chordApplyPatchTool.run(
      { patch: patch("*** Update File: src/old.ts", "*** Move to: lib/new.ts", "@@", "-export const x = 1;", "+export const x = 2;") },
      t.ctx,
    );
    expect(r).toEqual({ ok: true, modelText: "Applied patch:\nR src/old.ts -> lib/new.ts" });
    await absent("src/old.ts");
    expect(await read("lib/new.ts")).toBe("export const x = 2;\n");
  });

  it("replaces the file a move lands on", async () => {
    await t.put({ "a.txt": "a\n", "b.txt": "b\n" });
    const r = await chordApplyPatchTool.run({ patch: patch("*** Update File: a.txt", "*** Move to: b.txt", "@@", "-a", "+A") }, t.ctx);
    expect(r).toEqual({ ok: true, modelText: "Applied patch:\nR a.txt -> b.txt" });
    await absent("a.txt");
    expect(await read("b.txt")).toBe("A\n");
  });

  it("chains repeated Update sections of one path into one mutation", async () => {
    await t.put({ "c.txt": "one\ntwo\nthree\n" });
    const r = await chordApplyPatchTool.run(
      { patch: patch("*** Update File: c.txt", "@@", "-one", "+ONE", "*** Update File: c.txt", "@@", " ONE", "-two", "+TWO") },
      t.ctx,
    );
    expect(r).toEqual({ ok: true, modelText: "Applied patch:\nM c.txt" });
    expect(await read("c.txt")).toBe("ONE\nTWO\nthree\n");
  });

  it("applies independent groups and reports exactly which failed", async () => {
    await t.put({ "src/a.ts": "a1\na2\n", "src/b.ts": "b1\nb2\nb3\n", "src/c.ts": "c\n" });
    const r = await chordApplyPatchTool.run(
      {
        patch: patch(
          "*** Update File: src/a.ts",
          "@@",
          "-a1",
          "+A1",
          "*** Update File: src/b.ts",
          "@@",
          "-b1",
          "+B1",
          "@@",
          "-b9",
          "+B9",
          "*** Update File: src/c.ts",
          "*** Move to: src/d.ts",
          "*** Update File: src/d.ts",
          "@@",
          "-c",
          "+d",
          "*** Add File: src/e.ts",
          "+e",
        ),
      },
      t.ctx,
    );
    expect(r).toEqual({
      ok: false,
      modelText: [
        "Applied patch:",
        "A src/e.ts",
        "M src/a.ts",
        "R src/c.ts -> src/d.ts",
        "",
        "Not applied:",
        "- src/b.ts: hunk not found (2/2) at patch line 10; first expected complete line: \"b9\"; the expected line does not exist in the current file; the file may have changed since it was last read, or the line was invented — re-read the current target range and rebuild this hunk from current complete lines; do not retry the same hunk unchanged; " +
          "note: hunks 1..1 matched successfully in memory but were not applied because this hunk failed, so keep all hunks 1..2 together when rebuilding this operation",
        "  no similar lines found in src/b.ts; read the file and copy the lines exactly",
        "",
        'apply_patch partially applied: 1 file group not applied; the changes under "Applied patch" are on disk; ' +
          "resolve each cause above and resubmit only the failed file groups rebuilt from current file contents.",
      ].join("\n"),
    });
    expect(await read("src/a.ts")).toBe("A1\na2\n");
    expect(await read("src/b.ts")).toBe("b1\nb2\nb3\n");
    await absent("src/c.ts");
    expect(await read("src/d.ts")).toBe("d\n");
    expect(await read("src/e.ts")).toBe("e\n");
  });

  it("reports a parse error with its line and changes nothing", async () => {
    await t.put({ "a.txt": "a\n" });
    const r = await chordApplyPatchTool.run({ patch: patch("*** Update File: a.txt", "@@", "-a", "+b", "bad") }, t.ctx);
    expect(r).toEqual({
      ok: false,
      modelText:
        "apply_patch failed (parse): line 6: a hunk line must start with ' ', '-' or '+', found 'bad'\nNo file changed: fix the failed operations and resend the patch.",
    });
    expect(await read("a.txt")).toBe("a\n");
  });
});
