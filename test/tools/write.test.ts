import * as fsp from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeTool } from "../../tools/yuj/write.js";
import { atomicWrite } from "../../core/atomic-write.js";
import type { FileSystem } from "../../core/services.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
});
afterEach(() => t.cleanup());

const write = (p: string, content: string) => writeTool.run({ path: p, content }, t.ctx);
const readBack = (p: string) => fsp.readFile(path.join(t.cwd, p), "utf8");

describe("write", () => {
  it("creates a file and reports the length in characters", async () => {
    const r = await write("hello.txt", "héllo\n");
    expect(r).toEqual({ ok: true, modelText: "OK: wrote 6 bytes to hello.txt" });
    expect(await readBack("hello.txt")).toBe("héllo\n");
  });

  it("creates missing parent directories", async () => {
    const r = await write("a/b/c/d.txt", "x");
    expect(r.ok).toBe(true);
    expect(await readBack("a/b/c/d.txt")).toBe("x");
  });

  it("replaces an existing file and keeps its mode", async () => {
    await t.put({ "run.sh": "old" });
    await fsp.chmod(path.join(t.cwd, "run.sh"), 0o751);
    expect((await write("run.sh", "#!/bin/sh\necho new\n")).ok).toBe(true);
    expect(await readBack("run.sh")).toBe("#!/bin/sh\necho new\n");
    expect((await fsp.stat(path.join(t.cwd, "run.sh"))).mode & 0o777).toBe(0o751);
  });

  it("leaves no temp files behind", async () => {
    await write("f.txt", "1");
    await write("f.txt", "2");
    expect(await fsp.readdir(t.cwd)).toEqual(["f.txt"]);
  });

  it("refuses a directory target", async () => {
    await fsp.mkdir(path.join(t.cwd, "dir"));
    expect(await write("dir", "x")).toEqual({
      ok: false,
      modelText: "ERROR: dir is a directory — choose a different name or remove the directory first.",
    });
  });

  it("refuses newline and NUL in the path", async () => {
    const msg = "ERROR: path contains forbidden character (newline or NUL)";
    expect((await write("a\nb", "x")).modelText).toBe(msg);
    expect((await write("a\0b", "x")).modelText).toBe(msg);
  });

  it("re-roots absolute paths into the repository and refuses escapes", async () => {
    await t.put({ "tmp/keep": "" });
    expect((await write("/tmp/zz/out.txt", "x")).ok).toBe(true);
    expect(await readBack("tmp/zz/out.txt")).toBe("x");
    expect(await write("/etc/yuj-evil.txt", "x")).toEqual({ ok: false, modelText: "ERROR: path escapes cwd: /etc/yuj-evil.txt" });
    expect(await write("../evil.txt", "x")).toEqual({ ok: false, modelText: "ERROR: path escapes cwd: ../evil.txt" });
  });

  it("writes through a symlink inside cwd to its target", async () => {
    await t.put({ "real.txt": "old" });
    await fsp.symlink("real.txt", path.join(t.cwd, "link.txt"));
    await write("link.txt", "new");
    expect(await readBack("real.txt")).toBe("new");
    expect((await fsp.lstat(path.join(t.cwd, "link.txt"))).isSymbolicLink()).toBe(true);
  });

  it("fails cleanly when a parent is a file", async () => {
    await t.put({ "file": "x" });
    const r = await write("file/child.txt", "y");
    expect(r.ok).toBe(false);
    expect(r.modelText).toMatch(/^ERROR: cannot write file\/child\.txt: /);
  });
});

describe("atomicWrite", () => {
  it("keeps the old content and removes the temp file when the rename fails", async () => {
    await t.put({ "keep.txt": "original" });
    const failing: FileSystem = {
      ...t.ctx.services.fs,
      rename: async () => {
        throw new Error("disk on fire");
      },
    };
    await expect(atomicWrite(failing, path.join(t.cwd, "keep.txt"), "replacement")).rejects.toThrow("disk on fire");
    expect(await readBack("keep.txt")).toBe("original");
    expect(await fsp.readdir(t.cwd)).toEqual(["keep.txt"]);
  });

  it("removes the temp file when writing fails midway", async () => {
    const base = t.ctx.services.fs;
    const failing: FileSystem = {
      ...base,
      open: (async (...a: Parameters<FileSystem["open"]>) => {
        const h = await base.open(...a);
        h.sync = async () => {
          throw new Error("fsync failed");
        };
        return h;
      }) as FileSystem["open"],
    };
    await expect(atomicWrite(failing, path.join(t.cwd, "new.txt"), "data")).rejects.toThrow("fsync failed");
    expect(await fsp.readdir(t.cwd)).toEqual([]);
  });
});
