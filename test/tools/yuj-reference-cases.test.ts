// The Yuj surface against the behaviour the reference system's own tests pin:
// each case runs a handler on real files in a fresh project and checks the
// exact text the model reads and what is on disk afterwards.

import * as fsp from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Config } from "../../core/config/schema.js";
import { bashTool } from "../../tools/yuj/bash.js";
import { editTool } from "../../tools/yuj/edit.js";
import { globTool } from "../../tools/yuj/glob.js";
import { readTool } from "../../tools/yuj/read.js";
import { udiffTool } from "../../tools/yuj/udiff.js";
import { writeTool } from "../../tools/yuj/write.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
const fresh = async (adjust: (c: Config) => void = () => undefined) => {
  await t?.cleanup();
  t = await makeToolContext(adjust);
};
beforeEach(() => fresh());
afterEach(() => t.cleanup());

const bytes = (rel: string) => fsp.readFile(path.join(t.cwd, rel));
const text = async (rel: string) => (await bytes(rel)).toString("utf8");
const cascade = (c: Config) => {
  c.tools.edit_fuzzy_cascade_enabled = true;
};

describe("edit: one exact copy, or nothing changes", () => {
  it.each<[string, Buffer, string, boolean]>([
    ["overlapping copies", Buffer.from("aaa"), "aa", false],
    ["copies in a CRLF file", Buffer.from("a\r\nb\r\na\r\n"), "a", false],
    ["overlapping copies, cascade on", Buffer.from("aaa"), "aa", true],
    ["copies in a CRLF file, cascade on", Buffer.from("a\r\nb\r\na\r\n"), "a", true],
  ])("%s: refused, the bytes kept", async (_name, source, old, withCascade) => {
    await fresh(withCascade ? cascade : undefined);
    await t.put({ "f.py": source });
    const r = await editTool.run({ path: "f.py", old_str: old, new_str: "new" }, t.ctx);
    expect(r.ok).toBe(false);
    expect(r.modelText.split("\n")[0]).toBe(
      "ERROR: old_str matches more than once in f.py. No changes made. Include unique surrounding text in old_str.",
    );
    expect(r.modelText).toContain('cause_hint="multiple_matches"');
    expect((await bytes("f.py")).equals(source)).toBe(true);
  });

  it("a retry naming the function changes that copy only", async () => {
    const source = "def first():\n    return True\n\ndef second():\n    return True\n";
    await t.put({ "f.py": source });
    expect((await editTool.run({ path: "f.py", old_str: "return True", new_str: "return False" }, t.ctx)).ok).toBe(false);
    expect(await text("f.py")).toBe(source);
    const old = "def second():\n    return True";
    const r = await editTool.run({ path: "f.py", old_str: old, new_str: old.replace("True", "False") }, t.ctx);
    expect(r.modelText).toBe("OK");
    expect(await text("f.py")).toBe(source.replace(old, old.replace("True", "False")));
  });

  it("an exact hit answers OK", async () => {
    await t.put({ "f.py": "old\n" });
    expect((await editTool.run({ path: "f.py", old_str: "old", new_str: "new" }, t.ctx)).modelText).toBe("OK");
    expect(await text("f.py")).toBe("new\n");
  });
});

describe("edit: misses and the fuzzy cascade", () => {
  const tabbed = "def foo():\n\treturn 1\n";

  it("a strict miss changes nothing and names the drift in a candidates block", async () => {
    await t.put({ "f.py": tabbed });
    const r = await editTool.run({ path: "f.py", old_str: "def foo():\n    return 1", new_str: "new" }, t.ctx);
    expect(r.modelText).toBe(
      [
        "ERROR: old_str not found in f.py",
        '<candidates total="1" cause_hint="whitespace_drift" path="f.py">',
        '  <candidate rank="1" strategy="whitespace_normalized" similarity="0.83" line="1">',
        "def foo():\n\treturn 1",
        "  </candidate>",
        "</candidates>",
      ].join("\n"),
    );
    expect(await text("f.py")).toBe(tabbed);
  });

  it("a miss with nothing near has no candidates block", async () => {
    await t.put({ "f.py": "alpha\nbeta\n" });
    expect((await editTool.run({ path: "f.py", old_str: "gamma", new_str: "new" }, t.ctx)).modelText).toBe(
      "ERROR: old_str not found in f.py",
    );
  });

  it("spaces for the file's tab: applied as whitespace-normalized, new_str as written", async () => {
    await fresh(cascade);
    await t.put({ "f.py": tabbed });
    const r = await editTool.run({ path: "f.py", old_str: "def foo():\n    return 1", new_str: "def foo():\n    return 2" }, t.ctx);
    expect(r.modelText).toBe("OK (whitespace-normalized)");
    expect(await text("f.py")).toBe("def foo():\n    return 2\n");
  });

  it("an extra blank line in old_str still matches", async () => {
    await fresh(cascade);
    await t.put({ "x.py": "class X:\n    def m(self):\n        pass\n" });
    const r = await editTool.run({ path: "x.py", old_str: "def m(self):\n\n    pass", new_str: "def m(self):\n    return 42" }, t.ctx);
    expect(r.modelText).toBe("OK (whitespace-normalized)");
    expect(await text("x.py")).toContain("return 42");
  });

  it("a typo in a name is never matched", async () => {
    await fresh(cascade);
    await t.put({ "f.py": "def foo_bar():\n    return 1\n" });
    const r = await editTool.run({ path: "f.py", old_str: "def foo_baz():\n    return 1", new_str: "def foo_bar():\n    return 2" }, t.ctx);
    expect(r.modelText).toMatch(/^ERROR: old_str not found in f.py/);
    expect(await text("f.py")).toBe("def foo_bar():\n    return 1\n");
  });
});

describe("read", () => {
  it.each<[string, string | Buffer, { offset?: number; limit?: number }, string]>([
    ["numbered lines", "line1\nline2\nline3\n", {}, "1: line1\n2: line2\n3: line3"],
    ["CRLF lines", "first\r\n\r\nthird\r\n", {}, "1: first\n2: \n3: third"],
    ["lone CRs end lines", "a\rb\rc", {}, "1: a\n2: b\n3: c"],
    [
      "a limit that stops early: the reminder on the next line",
      "a\nb\nc\n",
      { offset: 1, limit: 1 },
      "2: b\n<system-reminder>Read returned the first 1 lines of f.txt. The file is longer — re-read with a higher limit or a specific offset to see more.</system-reminder>",
    ],
    [
      "an offset past the end",
      "a\nb\n",
      { offset: 5 },
      "<system-reminder>Read offset 5 is past EOF for f.txt (file has 2 lines). No content returned — call read with a smaller offset to inspect the file.</system-reminder>",
    ],
    ["an empty file", "", {}, "<system-reminder>File f.txt exists but is empty (0 bytes).</system-reminder>"],
    ["a negative offset", "a\n", { offset: -1 }, "ERROR: offset must be >= 0, got -1"],
    ["a negative limit", "a\n", { limit: -2 }, "ERROR: limit must be >= 0, got -2"],
    [
      "bytes that are not UTF-8",
      Buffer.from([0xff, 0xfe, 0x41]),
      {},
      "ERROR: file f.txt is not UTF-8 text (use bash with `file f.txt` or `xxd` to inspect bytes).",
    ],
  ])("%s", async (_name, content, range, expected) => {
    await t.put({ "f.txt": content });
    expect((await readTool.run({ path: "f.txt", ...range }, t.ctx)).modelText).toBe(expected);
  });

  it("a directory, a missing file and the did-you-mean hint", async () => {
    await t.put({ "pkg/m.py": "x\n" });
    expect((await readTool.run({ path: "pkg" }, t.ctx)).modelText).toBe("ERROR: pkg is a directory — use glob to list contents.");
    expect((await readTool.run({ path: "nope.txt" }, t.ctx)).modelText).toBe("ERROR: file not found: nope.txt");
    expect((await readTool.run({ path: "./.pkg/m.py" }, t.ctx)).modelText).toBe(
      "ERROR: file not found: ./.pkg/m.py (did you mean 'pkg/m.py'?)",
    );
  });

  it("a symlink to a file in the project reads as that file", async () => {
    await t.put({ "folder/code.py": "body" });
    await fsp.symlink("folder/code.py", path.join(t.cwd, "link.py"));
    expect((await readTool.run({ path: "link.py" }, t.ctx)).modelText).toBe("1: body");
  });
});

describe("write and glob", () => {
  it("write answers with the character count and refuses a directory", async () => {
    await t.put({ "d/x.txt": "x" });
    expect((await writeTool.run({ path: "new.txt", content: "hello world" }, t.ctx)).modelText).toBe("OK: wrote 11 bytes to new.txt");
    expect(await text("new.txt")).toBe("hello world");
    expect((await writeTool.run({ path: "d", content: "x" }, t.ctx)).modelText).toBe(
      "ERROR: d is a directory — choose a different name or remove the directory first.",
    );
  });

  it.each<[string, string]>([
    ["*.py", ".hidden.py\nlink.py\ntop.py"],
    ["**/*.py", ".hidden.py\nfolder/code.py\nlink.py\ntop.py"],
    ["**/*", ".hidden.py\nfolder/code.py\nfolder/text.txt\nlink.py\ntop.py"],
    ["*/", "No files found."],
    ["[a-", "No files found."],
  ])("glob %s lists files only, sorted", async (pattern, expected) => {
    await fresh((c) => {
      c.tools.search_pagination_enabled = false;
    });
    await t.put({ "top.py": "body", ".hidden.py": "body", "folder/code.py": "body", "folder/text.txt": "body" });
    await fsp.symlink("folder/code.py", path.join(t.cwd, "link.py"));
    expect((await globTool.run({ pattern }, t.ctx)).modelText).toBe(expected);
  });
});

describe("udiff", () => {
  const diff = (...lines: string[]) => ({ patch: lines.join("\n") + "\n" });
  beforeEach(() => t.put({ "a.py": "x = 1\ny = 2\nz = 3\n", "dup.py": "a\nb\na\nb\n", "ws.py": "def f():\n\treturn 1\n" }));

  it.each<[string, { patch: string }, string]>([
    ["an update", diff("--- a/a.py", "+++ b/a.py", "@@ -2,1 +2,1 @@", "-y = 2", "+y = 20"), "OK: applied unified diff (1 file(s))"],
    [
      "a hunk placed by whitespace tolerance",
      diff("--- a/ws.py", "+++ b/ws.py", "@@ -1,2 +1,2 @@", " def f():", "-    return 1", "+    return 2"),
      "OK: applied unified diff (1 file(s); fuzzy=whitespace_normalized)",
    ],
    ["a new file", diff("--- /dev/null", "+++ b/new.py", "@@ -0,0 +1,1 @@", "+hello"), "OK: applied unified diff (1 file(s))"],
    [
      "a new file that exists",
      diff("--- /dev/null", "+++ b/a.py", "@@ -0,0 +1,1 @@", "+hello"),
      "ERROR: udiff file_exists: cannot add a.py: file already exists; diff it against the file (--- a/a.py) to change it",
    ],
    [
      "an update of a missing file",
      diff("--- a/gone.py", "+++ b/gone.py", "@@ -1,1 +1,1 @@", "-a", "+b"),
      "ERROR: udiff file_not_found: cannot update gone.py: file does not exist; a new file's diff starts with --- /dev/null",
    ],
    ["a path outside the project", diff("--- a/../x.py", "+++ b/../x.py", "@@ -1 +1 @@", "-a", "+b"), "ERROR: udiff path_outside_cwd: path escapes cwd: ../x.py"],
    [
      "text that is not a diff",
      { patch: "not a diff" },
      "ERROR: udiff parse: line 1: no file headers found; a unified diff starts with '--- a/path' and '+++ b/path'",
    ],
    [
      "a hunk that matches nowhere",
      diff("--- a/a.py", "+++ b/a.py", "@@ -1,1 +1,1 @@", "-nope", "+yes"),
      "ERROR: udiff hunk_not_found: hunk for a.py was not found (hunk 1, patch line 3). No files were changed; read the file and copy the lines exactly.",
    ],
  ])("%s", async (_name, args, expected) => {
    expect((await udiffTool.run(args, t.ctx)).modelText).toBe(expected);
  });

  it("a hunk that matches twice changes nothing and lists both places as candidates", async () => {
    const r = await udiffTool.run(diff("--- a/dup.py", "+++ b/dup.py", "@@ -1,2 +1,2 @@", " a", "-b", "+B"), t.ctx);
    expect(r.modelText).toBe(
      [
        "ERROR: udiff hunk_ambiguous: hunk for dup.py matches more than one location (hunk 1, patch line 3: lines 1, 3); " +
          "add context lines so it matches once. No files were changed.",
        '<candidates total="2" cause_hint="multiple_matches" path="dup.py">',
        '  <candidate rank="1" strategy="exact" similarity="1.00" line="1">',
        "a\nb",
        "  </candidate>",
        '  <candidate rank="2" strategy="exact" similarity="1.00" line="3">',
        "a\nb",
        "  </candidate>",
        "</candidates>",
      ].join("\n"),
    );
    expect(await text("dup.py")).toBe("a\nb\na\nb\n");
  });
});

describe("bash routing", () => {
  beforeEach(async () => {
    await fresh((c) => {
      c.tools.bash_redirect_read_side = true;
    });
    t.ctx.activeTools = new Set(["bash", "read", "write", "edit", "grep", "glob", "done"]);
    await t.put({ "src.py": "needle\n", "src/app.py": "x\n" });
  });

  it.each<[string, string]>([
    ["echo value > out.txt", "use the write tool"],
    ["sed -i 's/a/b/' src.py", "use the edit tool"],
    ["cat src.py", "use the read tool"],
    ["rg needle src", "use the grep tool"],
    ["find src -name '*.py'", "use the glob tool"],
    ["echo ready; LC_ALL=C cat src/app.py", "use the read tool for `LC_ALL=C cat src/app.py`"],
    ["cat src.py | grep needle", "use the read tool for `cat src.py`"],
  ])("%s is stopped, naming the tool", async (cmd, named) => {
    const r = await bashTool.run({ cmd }, t.ctx);
    expect(r.ok).toBe(false);
    expect(r.modelText).toContain(named);
  });

  it.each<[string, string]>([
    ["printf 'needle' | grep needle", "needle"],
    ["grep -c needle src/app.py", "0\n[exit code: 1 — no matches]"],
    ["cat src.py | wc -l", "1"],
  ])("%s stays a shell command", async (cmd, expected) => {
    expect((await bashTool.run({ cmd }, t.ctx)).modelText).toBe(expected);
  });
});

describe("glob with `..` in its literal lead", () => {
  it("searches from that directory and keeps the lead in the paths, as written", async () => {
    await fresh((c) => {
      c.tools.search_pagination_enabled = false;
    });
    await t.put({ "top.py": "body", ".hidden.py": "body", "folder/code.py": "body" });
    expect((await globTool.run({ pattern: "folder/../*.py" }, t.ctx)).modelText).toBe("folder/../.hidden.py\nfolder/../top.py");
    expect((await globTool.run({ pattern: "../*.py" }, t.ctx)).modelText).toBe("ERROR: path escapes cwd: ../*.py");
  });
});
