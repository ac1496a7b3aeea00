// Chord's apply_patch and file tools as the reference's own tests and
// sources pin them, on real files (third set): how an operation on a file
// that is not there (never was, or an earlier operation of the same patch
// moved or deleted it) is reported in the list of file groups not applied,
// and the existing paths a file-not-found error offers instead, listed under
// `Did you mean:` one per line; and a device path, refused in the words of
// the tool that would have opened it.

import * as fsp from "node:fs/promises";
import * as os from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chordApplyPatchTool } from "../../tools/chord/apply_patch.js";
import { chordDeleteTool } from "../../tools/chord/delete.js";
import { chordEditTool } from "../../tools/chord/edit.js";
import { chordReadTool } from "../../tools/chord/read.js";
import { chordWriteTool } from "../../tools/chord/write.js";
import { saveArtifactTool } from "../../tools/chord/save_artifact.js";
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
    expect(r.modelText).toMatch(/^Not applied:\n- src\/confg\.ts: file not found: src\/confg\.ts\n  Did you mean:\n  - src\/config\.ts\n/);
  });
});

describe("chord file tools: what a missing path suggests", () => {
  const readErr = async (p: string) => {
    const r = await chordReadTool.run({ path: p }, t.ctx);
    expect(r.ok).toBe(false);
    return r.modelText;
  };

  it("a sibling one letter away, listed under Did you mean", async () => {
    await t.put({ "responses.go": "package test\n" });
    expect(await readErr("response.go")).toBe("file not found: response.go\nDid you mean:\n- responses.go");
  });

  it("an absolute path inside the project is shown relative, and so are the suggestions", async () => {
    await t.put({ "go.mod": "module example.test\n", "internal/tools/ignore.go": "package tools\n" });
    const missing = join(t.cwd, "internal", "tools", "gitignore.go");
    const text = await readErr(missing);
    expect(text).toBe("file not found: internal/tools/gitignore.go\nDid you mean:\n- internal/tools/ignore.go");
    expect(text).not.toContain(t.cwd);
  });

  it("a mistyped folder, deep or at the top, is corrected", async () => {
    await t.put({ "go.mod": "module example.test\n", "internal/llm/responses.go": "package llm\n" });
    expect(await readErr("internal/lmm/responses.go")).toBe("file not found: internal/lmm/responses.go\nDid you mean:\n- internal/llm/responses.go");
    expect(await readErr("internl/llm/responses.go")).toBe("file not found: internl/llm/responses.go\nDid you mean:\n- internal/llm/responses.go");
  });

  it("never suggests a file under node_modules, nor a name that is not close", async () => {
    await t.put({ "node_modules/responses.go": "ignored\n", "README.md": "hello\n" });
    expect(await readErr("internal/llm/responses.go")).toBe("file not found: internal/llm/responses.go");
    expect(await readErr("responses.go")).toBe("file not found: responses.go");
  });

  it("edit says the same", async () => {
    await t.put({ "responses.go": "package test\n" });
    const r = await chordEditTool.run({ path: "response.go", old_string: "a", new_string: "b" }, t.ctx);
    expect(r.modelText).toBe("file not found: response.go\nDid you mean:\n- responses.go");
  });
});

describe("chord file tools: a device path", () => {
  it("write, edit and read each say what they would not do to it", async () => {
    expect(await chordWriteTool.run({ path: "/dev/stdout", content: "must not be written" }, t.ctx)).toEqual({
      ok: false,
      modelText: "cannot write blocked device path: /dev/stdout (file tools read and write regular files only)",
    });
    expect(await chordEditTool.run({ path: "/dev/stdin", old_string: "a", new_string: "b" }, t.ctx)).toEqual({
      ok: false,
      modelText: "cannot edit blocked device path: /dev/stdin (file tools read and write regular files only)",
    });
    expect(await chordReadTool.run({ path: "/proc/self/fd/0" }, t.ctx)).toMatchObject({
      ok: false,
      modelText: expect.stringMatching(/^cannot read blocked device path: \/proc\/self\/fd\/0 /),
    });
  });
});

describe("chord file tools: ~ and links", () => {
  let home: string;
  beforeEach(async () => {
    home = await fsp.mkdtemp(join(os.tmpdir(), "yuj-home-"));
    // The home directory `~` stands for, in this test.
    t.ctx.services = { ...t.ctx.services, env: { ...t.ctx.services.env, HOME: home } };
  });
  afterEach(() => fsp.rm(home, { recursive: true, force: true }));

  it("write, read, edit and delete take ~ paths", async () => {
    expect(await chordWriteTool.run({ path: "~/nested/tilde.txt", content: "hello\nworld\n" }, t.ctx)).toEqual({ ok: true, modelText: "Successfully wrote 3 lines, 12 bytes" });
    expect(await fsp.readFile(join(home, "nested", "tilde.txt"), "utf8")).toBe("hello\nworld\n");
    expect(await chordReadTool.run({ path: "~/nested/tilde.txt" }, t.ctx)).toMatchObject({ ok: true, modelText: "READ_RESULT lines=1-2 total=2\nhello\nworld\n" });
    await fsp.writeFile(join(home, "edit.txt"), "before\n");
    expect((await chordEditTool.run({ path: "~/edit.txt", old_string: "before", new_string: "after" }, t.ctx)).modelText).toContain("Replaced 1 occurrence");
    expect(await fsp.readFile(join(home, "edit.txt"), "utf8")).toBe("after\n");
    await fsp.writeFile(join(home, "remove.txt"), "delete me");
    expect((await chordDeleteTool.run({ paths: ["~/remove.txt"], reason: "test tilde delete" }, t.ctx)).modelText).toContain("Deleted (1):");
    await expect(fsp.stat(join(home, "remove.txt"))).rejects.toThrow();
  });

  it("write refuses a link and leaves its target alone; so does save_artifact", async () => {
    await t.put({ "target.txt": "before" });
    await fsp.symlink(join(t.cwd, "target.txt"), join(t.cwd, "link.txt"));
    expect(await chordWriteTool.run({ path: "link.txt", content: "after" }, t.ctx)).toEqual({ ok: false, modelText: "refusing to write through symlink: link.txt; write the target path instead" });
    await fsp.mkdir(join(t.ctx.sessionDir, "artifacts"), { recursive: true });
    await fsp.symlink(join(t.cwd, "target.txt"), join(t.ctx.sessionDir, "artifacts", "report.md"));
    expect((await saveArtifactTool.run({ filename: "report.md", content: "after", mode: "overwrite" }, t.ctx)).ok).toBe(false);
    expect(await fsp.readFile(join(t.cwd, "target.txt"), "utf8")).toBe("before");
  });
});

describe("chord file tools: Go source is UTF-8 only", () => {
  // "这是一个测试文件。" and more in GB18030 (bytes from Python's codecs): read
  // decodes it in a text file, and refuses it in Go source instead of guessing.
  const GB18030 = Buffer.from(
    "d5e2cac7d2bbb8f6b2e2cad4cec4bcfea1a3ced2c3c7d4dad5e2c0efd0b4d2bbd0a9d6d0cec4a3acbfb4bfb4b6c1c8a1b9a4bedfc4dcb2bbc4dcd5fdc8b7cab6b1f0b1e0c2eba1a30ab5dab6fed0d0a3bac4e3bac3a3accac0bde7a3a10a",
    "hex",
  );
  const refusal = "not UTF-8, and Go source must be UTF-8, so it skipped regional encoding detection; convert it to UTF-8 first (e.g. iconv in the shell)";

  it("read decodes GB18030 notes but not a .go file or go.mod with the same bytes", async () => {
    for (const name of ["notes.txt", "x.go", "X.GO", "pkg/go.mod"]) {
      await fsp.mkdir(join(t.cwd, "pkg"), { recursive: true });
      await fsp.writeFile(join(t.cwd, name), GB18030);
    }
    expect((await chordReadTool.run({ path: "notes.txt" }, t.ctx)).modelText).toMatch(/^READ_RESULT lines=1-2 total=2 encoding="gb18030"\n这是一个测试文件。/);
    for (const name of ["x.go", "X.GO", "pkg/go.mod"]) {
      expect(await chordReadTool.run({ path: name }, t.ctx)).toMatchObject({ ok: false, modelText: `cannot read ${name}: ${refusal}` });
    }
  });

  it("edit and apply_patch refuse it too, and leave the file as it was", async () => {
    await fsp.writeFile(join(t.cwd, "x.go"), GB18030);
    expect(await chordEditTool.run({ path: "x.go", old_string: "第二行", new_string: "x" }, t.ctx)).toEqual({ ok: false, modelText: `cannot edit x.go: ${refusal}` });
    const r = await patch("*** Update File: x.go", "@@", "-第二行：你好，世界！", "+x");
    expect(r.ok).toBe(false);
    expect(r.modelText).toContain(`- x.go: cannot update x.go: ${refusal}`);
    expect(Buffer.compare(await fsp.readFile(join(t.cwd, "x.go")), GB18030)).toBe(0);
  });
});
