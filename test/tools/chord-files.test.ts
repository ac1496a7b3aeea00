import * as fsp from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chordDeleteTool } from "../../tools/chord/delete.js";
import { chordEditTool } from "../../tools/chord/edit.js";
import { chordReadTool } from "../../tools/chord/read.js";
import { chordWriteTool } from "../../tools/chord/write.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
});
afterEach(() => t.cleanup());

const read = (args: { path: string; offset?: number; limit?: number }) => chordReadTool.run(args, t.ctx);
const write = (p: string, content: string) => chordWriteTool.run({ path: p, content }, t.ctx);
const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join("\n") + "\n";

describe("chord read", () => {
  it("prints the header and raw LF text without a gutter", async () => {
    await t.put({ "a.txt": "one\r\ntwo\r\nthree\r\n" });
    expect(await read({ path: "a.txt" })).toMatchObject({ ok: true, modelText: "READ_RESULT lines=1-3 total=3\none\ntwo\nthree\n" });
  });

  it("pages with 1-based offset/limit and defaults limit to 2000", async () => {
    await t.put({ "a.txt": lines(2500) });
    expect((await read({ path: "a.txt", offset: 2, limit: 2 })).modelText).toBe("READ_RESULT lines=2-3 total=2500\nline 2\nline 3\n");
    const all = (await read({ path: "a.txt" })).modelText;
    expect(all.split("\n")[0]).toBe("READ_RESULT lines=1-2000 total=2500");
    expect(all.split("\n").at(-2)).toBe("line 2000");
    expect(all.endsWith("line 2000\n")).toBe(true);
  });

  it("reports lines=none for an empty file and at EOF", async () => {
    await t.put({ "e.txt": "", "a.txt": lines(3) });
    expect((await read({ path: "e.txt" })).modelText).toBe("READ_RESULT lines=none total=0\n");
    expect((await read({ path: "a.txt", offset: 4 })).modelText).toBe("READ_RESULT lines=none total=3\n");
  });

  it("rejects an offset past the end with suggested_offset", async () => {
    await t.put({ "e.txt": "", "a.txt": lines(10) });
    expect(await read({ path: "a.txt", offset: 50, limit: 4 })).toMatchObject({
      ok: false,
      modelText:
        "offset 50 exceeds this file length (10 lines); suggested_offset=7 reads the last 4 lines with limit=4; eof_offset=11 is valid but returns no lines",
    });
    expect((await read({ path: "e.txt", offset: 3 })).modelText).toBe(
      "offset 3 exceeds this file length (0 lines); the file is empty, so read from offset 1 (or omit it) to get an empty result",
    );
  });

  it("cuts to the byte budget and says so", async () => {
    const big = Array.from({ length: 1000 }, (_, i) => `${i}`.padEnd(99, "x")).join("\n");
    await t.put({ "big.txt": big });
    const res = await read({ path: "big.txt" });
    const [header, ...body] = res.modelText.split("\n");
    expect(header).toBe("READ_RESULT lines=1-512 total=1000 truncated=budget requested_lines=1-1000");
    // The shown lines fit the budget; the last line names the saved full text.
    expect(Buffer.byteLength(body.slice(0, -1).join("\n"))).toBeLessThanOrEqual(51200);
    expect(body.at(-1)).toMatch(/^Full output saved to .*read-result-.*\.log\. Read it with offset\/limit or grep it for the rest\.$/);
  });

  it("reports missing, binary, too-large files and a missing path", async () => {
    await t.put({ "bin.dat": Buffer.from([0x89, 0x50, 0, 1, 2]) });
    expect(await read({ path: "nope.txt" })).toMatchObject({ ok: false, modelText: "file not found: nope.txt" });
    expect(await read({ path: "bin.dat" })).toMatchObject({ ok: false, modelText: "cannot read binary file: bin.dat" });
    expect(await read({ path: "" })).toMatchObject({ ok: false, modelText: "path is required" });
    const huge = path.join(t.cwd, "huge.log");
    await fsp.writeFile(huge, "");
    await fsp.truncate(huge, 52428801);
    expect((await read({ path: "huge.log" })).modelText).toBe(
      "file too large (52428801 bytes, max 52428800); use offset/limit to read a portion or grep to search",
    );
  });
});

describe("chord write gating", () => {
  it("creates new files without a read", async () => {
    const res = await write("sub/new.txt", "héllo\n");
    expect(res).toMatchObject({ ok: true, modelText: "Successfully wrote 2 lines, 7 bytes" });
    expect(await fsp.readFile(path.join(t.cwd, "sub/new.txt"), "utf8")).toBe("héllo\n");
  });

  it("refuses to replace an unread file and allows it after a complete read", async () => {
    await t.put({ "a.txt": "old\n" });
    const refused = await write("a.txt", "new\n");
    expect(refused.ok).toBe(false);
    expect(refused.modelText).toMatch(/^write refused: a\.txt exists and has not been read in full/);
    expect(await fsp.readFile(path.join(t.cwd, "a.txt"), "utf8")).toBe("old\n");
    await read({ path: "a.txt" });
    expect(await write("a.txt", "new\n")).toMatchObject({ ok: true, modelText: "Successfully wrote 2 lines, 4 bytes" });
  });

  it("does not count a paged or budget-truncated read", async () => {
    await t.put({ "a.txt": lines(10), "big.txt": "x".repeat(60000) + "\nend\n" });
    await read({ path: "a.txt", offset: 2 });
    await read({ path: "a.txt", limit: 5 });
    expect((await write("a.txt", "new")).ok).toBe(false);
    expect((await read({ path: "big.txt" })).modelText).toMatch(/truncated=budget/);
    expect((await write("big.txt", "new")).ok).toBe(false);
  });

  it("lets the session replace its own whole-file write, but not after someone changed it", async () => {
    expect((await write("own.txt", "v1")).ok).toBe(true);
    expect((await write("own.txt", "v2")).ok).toBe(true);
    await fsp.writeFile(path.join(t.cwd, "own.txt"), "changed elsewhere");
    expect((await write("own.txt", "v3")).ok).toBe(false);
  });

  it("warns and backs up when a read file changed on disk", async () => {
    await t.put({ "a.txt": "v1\n" });
    await read({ path: "a.txt" });
    await fsp.writeFile(path.join(t.cwd, "a.txt"), "external\n");
    const res = await write("a.txt", "mine\n");
    expect(res.ok).toBe(true);
    const m = /backed up to (.+)\)$/.exec(res.modelText);
    expect(res.modelText).toContain("warning: a.txt changed on disk since it was last read");
    expect(m![1]!.startsWith(t.ctx.sessionDir)).toBe(true);
    expect(await fsp.readFile(m![1]!, "utf8")).toBe("external\n");
  });

  it("refuses to follow a symlink", async () => {
    await t.put({ "target.txt": "t\n" });
    await fsp.symlink("target.txt", path.join(t.cwd, "link.txt"));
    await read({ path: "link.txt" });
    const res = await write("link.txt", "x");
    expect(res.ok).toBe(false);
    expect(res.modelText).toMatch(/^refusing to write through symlink: link\.txt/);
    expect(await fsp.readFile(path.join(t.cwd, "target.txt"), "utf8")).toBe("t\n");
  });
});

describe("chord edit", () => {
  const edit = (a: { path: string; old_string: string; new_string: string; replace_all?: boolean }) =>
    chordEditTool.run(a, t.ctx);

  it("replaces a unique match, keeping CRLF", async () => {
    await t.put({ "a.txt": "alpha\r\nbeta\r\n" });
    expect(await edit({ path: "a.txt", old_string: "beta", new_string: "gamma\ndelta" })).toMatchObject({
      ok: true,
      modelText: "Replaced 1 occurrence (13 bytes -> 21 bytes)",
    });
    expect(await fsp.readFile(path.join(t.cwd, "a.txt"), "utf8")).toBe("alpha\r\ngamma\r\ndelta\r\n");
  });

  it("needs replace_all for several matches and reports misses", async () => {
    await t.put({ "a.txt": "x x x\n" });
    const many = await edit({ path: "a.txt", old_string: "x", new_string: "y" });
    expect(many.ok).toBe(false);
    expect(many.modelText).toMatch(/^old_string found 3 times, provide more context or set replace_all to true$/);
    expect((await edit({ path: "a.txt", old_string: "x", new_string: "y", replace_all: true })).modelText).toBe(
      "Replaced 3 occurrences (6 bytes -> 6 bytes)",
    );
    expect((await edit({ path: "a.txt", old_string: "zzz", new_string: "q" })).modelText).toMatch(
      /^old_string not found in file, even after punctuation\/whitespace tolerance\./,
    );
    expect((await edit({ path: "missing.txt", old_string: "a", new_string: "b" })).modelText).toBe(
      "file not found: missing.txt",
    );
  });

  it("keeps a complete read valid for a later write", async () => {
    await t.put({ "a.txt": "one\n" });
    await read({ path: "a.txt" });
    await edit({ path: "a.txt", old_string: "one", new_string: "two" });
    const res = await write("a.txt", "three\n");
    expect(res).toMatchObject({ ok: true, modelText: "Successfully wrote 2 lines, 6 bytes" });
  });
});

describe("chord delete", () => {
  const del = (paths: string[] | string, reason = "cleanup") => chordDeleteTool.run({ paths, reason }, t.ctx);

  it("backs up the exact bytes under the session dir before removing", async () => {
    const bytes = Buffer.from([0xff, 0x00, 0x41, 0x0d, 0x0a]);
    await t.put({ "d/a.bin": bytes, "b.txt": "bee\n" });
    const res = await del(["d/a.bin", "b.txt"]);
    expect(res.ok).toBe(true);
    expect(res.modelText).toMatch(/^Delete completed\.\n\nDeleted \(2\):\n- b\.txt\n- d\/a\.bin\n\nBackups \(2\):\n/);
    const backups = [...res.modelText.matchAll(/^- (?:d\/a\.bin|b\.txt) — (.+)$/gm)].map((m) => m[1]!).reverse();
    expect(backups).toHaveLength(2);
    for (const b of backups) expect(b.startsWith(path.join(t.ctx.sessionDir, "backups", "delete"))).toBe(true);
    expect(await fsp.readFile(backups[0]!)).toEqual(bytes);
    expect(backups[0]!.endsWith(path.join("d", "a.bin"))).toBe(true);
    expect(await fsp.readFile(backups[1]!, "utf8")).toBe("bee\n");
    await expect(fsp.lstat(path.join(t.cwd, "d/a.bin"))).rejects.toThrow();
    await expect(fsp.lstat(path.join(t.cwd, "b.txt"))).rejects.toThrow();
  });

  it("removes a symlink and leaves its target untouched", async () => {
    await t.put({ "target.txt": "keep\n" });
    await fsp.symlink("target.txt", path.join(t.cwd, "link.txt"));
    const res = await del("link.txt");
    expect(res.ok).toBe(true);
    expect(res.modelText).toContain("Deleted (1):\n- link.txt (symlink; its target is untouched)");
    await expect(fsp.lstat(path.join(t.cwd, "link.txt"))).rejects.toThrow();
    expect(await fsp.readFile(path.join(t.cwd, "target.txt"), "utf8")).toBe("keep\n");
    const backup = /^- link\.txt — (.+)$/m.exec(res.modelText)![1]!;
    expect(await fsp.readFile(backup, "utf8")).toBe("target.txt");
  });

  it("refuses directories without deleting anything; a missing file is already absent", async () => {
    await t.put({ "dir/x.txt": "x", "a.txt": "a" });
    expect(await del(["a.txt", "dir"])).toMatchObject({
      ok: false,
      modelText:
        "Delete failed before execution; no files were removed.\n\nBlocked (1):\n- dir — path is a directory, not a file; delete removes files and symlinks only",
    });
    expect(await fsp.readFile(path.join(t.cwd, "a.txt"), "utf8")).toBe("a");
    const res = await del(["nope", "a.txt"]);
    expect(res.ok).toBe(true);
    expect(res.modelText).toMatch(/^Delete completed\.\n\nDeleted \(1\):\n- a\.txt\n\nAlready absent \(1\):\n- nope\n\nBackups \(1\):\n- a\.txt — /);
    expect((await del(["a.txt"], " ")).modelText).toBe("reason is required");
  });

  it("drops write grants for a deleted file", async () => {
    await t.put({ "a.txt": "a" });
    await read({ path: "a.txt" });
    await del("a.txt");
    await t.put({ "a.txt": "recreated" });
    expect((await write("a.txt", "x")).ok).toBe(false);
  });
});
