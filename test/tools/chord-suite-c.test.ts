// Chord's apply_patch and file tools as the reference's own tests and
// sources pin them, on real files (third set): how an operation on a file
// that is not there (never was, or an earlier operation of the same patch
// moved or deleted it) is reported in the list of file groups not applied.

import * as fsp from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chordApplyPatchTool } from "../../tools/chord/apply_patch.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
});
afterEach(() => t.cleanup());

const patch = (...lines: string[]) => chordApplyPatchTool.run({ patch: ["*** Begin Patch", ...lines, "*** End Patch"].join("\n") }, t.ctx);
const read = (rel: string) => fsp.readFile(join(t.cwd, rel), "utf8");

describe("chord apply_patch: an operation whose file is not there", () => {
  it("an update of a file an earlier operation moved away says only that the file is not found", async () => {
    await t.put({ "old.txt": "before\n" });
    const r = await patch("*** Update File: old.txt", "*** Move to: new.txt", "@@", "-before", "+after", "*** Update File: old.txt", "@@", "-before", "+again");
    expect(r.ok).toBe(false);
    expect(r.modelText).toContain("Not applied:\n- old.txt: file not found: old.txt (this file group has 2 operations;");
    expect(r.modelText).not.toContain("Update File:");
    expect(await read("old.txt")).toBe("before\n");
    await expect(fsp.stat(join(t.cwd, "new.txt"))).rejects.toThrow();
  });

  it("a delete of a file an earlier operation deleted says the same", async () => {
    await t.put({ "gone.txt": "x\n", "keep.txt": "k\n" });
    const r = await patch("*** Delete File: gone.txt", "*** Delete File: gone.txt", "*** Update File: keep.txt", "@@", "-k", "+K");
    expect(r.modelText).toContain("Applied patch:\nM keep.txt");
    expect(r.modelText).toContain("Not applied:\n- gone.txt: file not found: gone.txt (this file group has 2 operations;");
    expect(await read("gone.txt")).toBe("x\n");
    expect(await read("keep.txt")).toBe("K\n");
  });

  it("a file that never existed is named once, with the nearest existing path", async () => {
    await t.put({ "src/config.ts": "a\n" });
    const r = await patch("*** Update File: src/confg.ts", "@@", "-a", "+b");
    expect(r.modelText).toMatch(/^Not applied:\n- src\/confg\.ts: file not found: src\/confg\.ts[^\n]*src\/config\.ts/);
  });
});
