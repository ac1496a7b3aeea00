import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readTool } from "../../tools/yuj/read.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
});
afterEach(() => t.cleanup());

const read = (args: { path: string; offset?: number; limit?: number }) => readTool.run(args, t.ctx);

describe("read", () => {
  it("numbers lines from 1 as `N: text`", async () => {
    await t.put({ "a.txt": "alpha\nbeta\ngamma\n" });
    const r = await read({ path: "a.txt" });
    expect(r.ok).toBe(true);
    expect(r.modelText).toBe("1: alpha\n2: beta\n3: gamma");
  });

  it("starts numbering at offset + 1 and keeps a last line without newline", async () => {
    await t.put({ "a.txt": "l1\nl2\nl3\nl4" });
    expect((await read({ path: "a.txt", offset: 2 })).modelText).toBe("3: l3\n4: l4");
  });

  it("limit=0 means no limit", async () => {
    await t.put({ "a.txt": "a\nb\nc\n" });
    expect((await read({ path: "a.txt", limit: 0 })).modelText).toBe("1: a\n2: b\n3: c");
  });

  it("appends the limit-cut reminder when the file is longer", async () => {
    await t.put({ "a.txt": "a\nb\nc\nd\n" });
    const r = await read({ path: "a.txt", offset: 1, limit: 2 });
    expect(r.ok).toBe(true);
    expect(r.modelText).toBe(
      "2: b\n3: c\n<system-reminder>Read returned the first 2 lines of a.txt. The file is longer — " +
        "re-read with a higher limit or a specific offset to see more.</system-reminder>",
    );
  });

  it("does not remind when the limit reaches the end exactly", async () => {
    await t.put({ "a.txt": "a\nb\n" });
    expect((await read({ path: "a.txt", limit: 2 })).modelText).toBe("1: a\n2: b");
  });

  it("rejects negative offset and limit", async () => {
    await t.put({ "a.txt": "a\n" });
    const o = await read({ path: "a.txt", offset: -1 });
    expect(o).toEqual({ ok: false, modelText: "ERROR: offset must be >= 0, got -1" });
    const l = await read({ path: "a.txt", limit: -5 });
    expect(l).toEqual({ ok: false, modelText: "ERROR: limit must be >= 0, got -5" });
  });

  it("returns only the past-EOF reminder when offset >= total", async () => {
    await t.put({ "a.txt": "a\nb\n" });
    const r = await read({ path: "a.txt", offset: 2 });
    expect(r.modelText).toBe(
      "<system-reminder>Read offset 2 is past EOF for a.txt (file has 2 lines). No content returned — " +
        "call read with a smaller offset to inspect the file.</system-reminder>",
    );
  });

  it("reminds that an empty file is empty", async () => {
    await t.put({ "empty.txt": "" });
    const r = await read({ path: "empty.txt" });
    expect(r.ok).toBe(true);
    expect(r.modelText).toBe("<system-reminder>File empty.txt exists but is empty (0 bytes).</system-reminder>");
  });

  it("refuses a directory", async () => {
    await t.put({ "src/x.ts": "" });
    const r = await read({ path: "src" });
    expect(r).toEqual({ ok: false, modelText: "ERROR: src is a directory — use glob to list contents." });
  });

  it("reports a missing file, with a did-you-mean when stripping ./ or . finds one", async () => {
    expect((await read({ path: "nope.txt" })).modelText).toBe("ERROR: file not found: nope.txt");
    await t.put({ "src/main.py": "x\n" });
    const r = await read({ path: ".src/main.py" });
    expect(r.ok).toBe(false);
    expect(r.modelText).toBe("ERROR: file not found: .src/main.py (did you mean 'src/main.py'?)");
  });

  it("refuses non-UTF-8 and binary content", async () => {
    await t.put({ "latin1.txt": Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]), "bin.dat": Buffer.from([1, 0, 2]) });
    expect((await read({ path: "latin1.txt" })).modelText).toBe(
      "ERROR: file latin1.txt is not UTF-8 text (use bash with `file latin1.txt` or `xxd` to inspect bytes).",
    );
    expect((await read({ path: "bin.dat" })).ok).toBe(false);
  });

  it("shows CRLF files without carriage returns and hides a BOM", async () => {
    await t.put({ "w.txt": "\ufeffone\r\ntwo\r\n" });
    expect((await read({ path: "w.txt" })).modelText).toBe("1: one\n2: two");
  });

  it("keeps paths inside cwd", async () => {
    await t.put({ "etc/passwd": "inside\n" });
    // An absolute path outside cwd is re-rooted under cwd.
    expect((await read({ path: "/etc/passwd" })).modelText).toBe("1: inside");
    expect((await read({ path: `${t.cwd}/etc/passwd` })).modelText).toBe("1: inside");
    expect((await read({ path: "../x" })).modelText).toBe("ERROR: path escapes cwd: ../x");
  });
});
