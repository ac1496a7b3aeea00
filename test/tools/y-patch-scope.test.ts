// Yuj apply_patch's @@ scope headers and udiff's acceptance cases, as the
// Yuj reference's own tests pin them, on real files: a header narrows the
// search to the lines after its first (substring) match, nested headers
// narrow again, a header that is not there (or not after the previous one)
// is scope_not_found, an ambiguity is counted in the file or in the scope,
// and nothing is written on any refusal. udiff takes a whitespace-drifted
// hunk whose line number is wrong, shares edit's candidate block, and
// refuses a link that leads out of the project.

import * as fsp from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { applyPatchTool } from "../../tools/yuj/apply_patch.js";
import { editTool } from "../../tools/yuj/edit.js";
import { udiffTool } from "../../tools/yuj/udiff.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
});
afterEach(() => t.cleanup());

const read = (rel: string) => fsp.readFile(path.join(t.cwd, rel), "utf8");
const v4a = (...lines: string[]) => applyPatchTool.run({ patch: ["*** Begin Patch", ...lines, "*** End Patch", ""].join("\n") }, t.ctx);
const udiff = (...lines: string[]) => udiffTool.run({ patch: lines.join("\n") + "\n" }, t.ctx);
const updated = (file: string) => `<apply_patch ok="true" ops="1" v="1">\n  updated: ${file} (1 hunk, ~1/+1)\n</apply_patch>`;

/** Two classes with a method of the same name: one line that is in the file twice. */
const TWO_CLASSES = "class Left:\n    def size(self):\n        return 1\nclass Right:\n    def size(self):\n        return 2\n";

describe("apply_patch @@ scope headers", () => {
  beforeEach(() => t.put({ "shapes.py": TWO_CLASSES }));

  it("without a header, a line in the file twice is ambiguous: both places listed, nothing written", async () => {
    const r = await v4a("*** Update File: shapes.py", "-    def size(self):", "+    def area(self):");
    expect(r.modelText).toBe(
      [
        '<apply_patch ok="false" error_kind="hunk_ambiguous" v="1">',
        "ERROR: shapes.py: hunk 1 (patch line 3): old lines match 2 positions in file (lines 2, 5); add context lines or an '@@' scope so they match once",
        "matching spans in shapes.py:",
        "  lines 2-2:",
        "    2|     def size(self):",
        "  lines 5-5:",
        "    5|     def size(self):",
        "</apply_patch>",
      ].join("\n"),
    );
    expect(await read("shapes.py")).toBe(TWO_CLASSES);
  });

  it("a header picks the place after its first match, for a removed line and for a context line", async () => {
    expect((await v4a("*** Update File: shapes.py", "@@ class Right:", "-    def size(self):", "+    def area(self):")).modelText).toBe(updated("shapes.py"));
    expect(await read("shapes.py")).toBe(TWO_CLASSES.replace("Right:\n    def size", "Right:\n    def area"));
    await t.put({ "shapes.py": TWO_CLASSES });
    const r = await v4a("*** Update File: shapes.py", "@@ class Right:", "     def size(self):", "-        return 2", "+        return 20");
    expect(r.modelText).toBe(updated("shapes.py"));
    expect(await read("shapes.py")).toBe(TWO_CLASSES.replace("return 2\n", "return 20\n"));
  });

  it("a header matches as a substring of a line (its indentation need not be written)", async () => {
    const r = await v4a("*** Update File: shapes.py", "@@ def size", "-        return 1", "+        return 10");
    expect(r.modelText).toBe(updated("shapes.py"));
    expect(await read("shapes.py")).toBe(TWO_CLASSES.replace("return 1\n", "return 10\n"));
  });

  it("two headers on one hunk narrow one after the other", async () => {
    const r = await v4a("*** Update File: shapes.py", "@@ class Right:", "@@ def size(self):", "-        return 2", "+        return 99");
    expect(r.modelText).toBe(updated("shapes.py"));
    expect(await read("shapes.py")).toBe(TWO_CLASSES.replace("return 2\n", "return 99\n"));
  });

  it("a header that is not in the file, or not after the previous header, is scope_not_found", async () => {
    expect((await v4a("*** Update File: shapes.py", "@@ class Middle:", "-        return 2", "+        return 3")).modelText).toBe(
      '<apply_patch ok="false" error_kind="scope_not_found" v="1">\n' +
        "ERROR: shapes.py: hunk 1 (patch line 3): @@ scope header not found: '@@ class Middle:' (@@ header anchor \"Middle\" was not found)\n" +
        "</apply_patch>",
    );
    expect((await v4a("*** Update File: shapes.py", "@@ class Right:", "@@ class Left:", "-        return 2", "+        return 3")).modelText).toBe(
      '<apply_patch ok="false" error_kind="scope_not_found" v="1">\n' +
        "ERROR: shapes.py: hunk 1 (patch line 3): @@ scope header not found within prior @@ scope: '@@ class Left:' (@@ header anchor \"Left\" was not found)\n" +
        "</apply_patch>",
    );
    expect(await read("shapes.py")).toBe(TWO_CLASSES);
  });

  it("lines twice after the header are ambiguous within the scope", async () => {
    await t.put({ "list.txt": "head\nitem\nmiddle\nitem\ntail\n" });
    const r = await v4a("*** Update File: list.txt", "@@ head", "-item", "+ITEM");
    expect(r.modelText).toMatch(
      /^<apply_patch ok="false" error_kind="hunk_ambiguous" v="1">\nERROR: list\.txt: hunk 1 \(patch line 3\): old lines match 2 positions within @@ scope \(lines 2, 4\); /,
    );
    expect(await read("list.txt")).toBe("head\nitem\nmiddle\nitem\ntail\n");
  });

  it("a hunk without a header, or under a bare @@, searches the whole file", async () => {
    await t.put({ "v.py": "a = 1\nb = 2\nc = 3\n" });
    expect((await v4a("*** Update File: v.py", "-b = 2", "+b = 20")).modelText).toBe(updated("v.py"));
    expect((await v4a("*** Update File: v.py", "@@", "-b = 20", "+b = 200")).modelText).toBe(updated("v.py"));
    expect(await read("v.py")).toBe("a = 1\nb = 200\nc = 3\n");
  });
});

describe("udiff acceptance cases", () => {
  it("a hunk whose indentation drifted and whose line number is wrong is placed by whitespace tolerance", async () => {
    await t.put({ "calc.py": "def answer():\n\treturn 41\n" });
    const r = await udiff("--- a/calc.py", "+++ b/calc.py", "@@ -30,2 +30,2 @@", " def answer():", "-  return 41", "+\treturn 42");
    expect(r.modelText).toBe("OK: applied unified diff (1 file(s); fuzzy=whitespace_normalized)");
    expect(await read("calc.py")).toBe("def answer():\n\treturn 42\n");
  });

  it("an ambiguous udiff hunk and a missed edit list candidates in one protocol (same element and attribute names)", async () => {
    const original = "if busy:\n    wait()\nif busy:\n    wait()\n";
    await t.put({ "loop.py": original });
    const viaEdit = await editTool.run({ path: "loop.py", old_str: "if busy:\n  wait()", new_str: "if busy:\n    stop()" } as never, t.ctx);
    const viaUdiff = await udiff("--- a/loop.py", "+++ b/loop.py", "@@ -9,2 +9,2 @@", " if busy:", "-  wait()", "+    stop()");
    expect(viaUdiff.modelText).toMatch(/^ERROR: udiff hunk_ambiguous: /);
    const shape = (text: string) => ({
      block: [...text.matchAll(/<candidates((?: \w+="[^"]*")*)>/g)].map((m) => names(m[1]!)),
      each: [...text.matchAll(/<candidate((?: \w+="[^"]*")*)>/g)].map((m) => names(m[1]!)),
    });
    expect(shape(viaEdit.modelText)).toEqual({ block: [["total", "cause_hint", "path"]], each: [["rank", "strategy", "similarity", "line"], ["rank", "strategy", "similarity", "line"]] });
    expect(shape(viaUdiff.modelText)).toEqual(shape(viaEdit.modelText));
    expect(viaUdiff.modelText).toContain('<candidates total="2" cause_hint="whitespace_drift" path="loop.py">\n  <candidate rank="1" strategy="whitespace_normalized"');
    expect(await read("loop.py")).toBe(original);
  });

  it("adds and deletes in one diff, listing each operation in order", async () => {
    await t.put({ "old.txt": "remove me\n" });
    const r = await udiff("--- /dev/null", "+++ b/new.txt", "@@ -0,0 +1,2 @@", "+line one", "+line two", "--- a/old.txt", "+++ /dev/null", "@@ -1 +0,0 @@", "-remove me");
    expect(r).toMatchObject({ ok: true, modelText: "OK: applied unified diff (2 file(s))", display: { kind: "text", text: "added: new.txt (2 lines)\ndeleted: old.txt" } });
    expect(await read("new.txt")).toBe("line one\nline two\n");
    await expect(fsp.stat(path.join(t.cwd, "old.txt"))).rejects.toThrow();
  });
});

describe("a file that is a link out of the project", () => {
  let outside: string;
  beforeEach(async () => {
    outside = await fsp.mkdtemp(path.join(os.tmpdir(), "yuj-outside-"));
    await fsp.writeFile(path.join(outside, "file.txt"), "outside must remain intact\n");
    await fsp.symlink(path.join(outside, "file.txt"), path.join(t.cwd, "link.txt"));
  });
  afterEach(() => fsp.rm(outside, { recursive: true, force: true }));

  it("is refused by apply_patch and udiff as path_outside_cwd, the file it leads to unchanged", async () => {
    const patched = await v4a("*** Update File: link.txt", "@@", "-outside must remain intact", "+changed");
    expect(patched.modelText).toBe('<apply_patch ok="false" error_kind="path_outside_cwd" v="1">\nERROR: path escapes cwd: link.txt\n</apply_patch>');
    const diffed = await udiff("--- a/link.txt", "+++ b/link.txt", "@@ -1 +1 @@", "-outside must remain intact", "+changed");
    expect(diffed.modelText).toBe("ERROR: udiff path_outside_cwd: path escapes cwd: link.txt");
    expect(await fsp.readFile(path.join(outside, "file.txt"), "utf8")).toBe("outside must remain intact\n");
  });
});

/** The attribute names of an element's attribute text, in order. */
function names(attrs: string): string[] {
  return [...attrs.matchAll(/ (\w+)="/g)].map((m) => m[1]!);
}
