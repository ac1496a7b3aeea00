// Files far larger than memory should hold, through the handlers of both
// surfaces: a paged read streams (the right lines, without meeting the rest
// of the file; test/e2e/large-files-memory.test.ts measures the memory), and
// whatever must load the whole file is refused before it reads a byte,
// naming the limit and what to do instead.
//
// "huge.txt" is 600 MB: 2 MiB of real numbered lines, then a hole (sparse,
// so it costs no disk). A read that touches only the start never meets the
// hole; one that loads the file meets 600 MB. "big.txt" is a real 60 MB text
// file (past the 50 MiB limit) for the reads that must scan to the end.

import * as fsp from "node:fs/promises";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyPatchTool } from "../../tools/yuj/apply_patch.js";
import { chordEditTool } from "../../tools/chord/edit.js";
import { chordReadTool } from "../../tools/chord/read.js";
import { chordWriteTool } from "../../tools/chord/write.js";
import { editTool } from "../../tools/yuj/edit.js";
import { readTool } from "../../tools/yuj/read.js";
import { numberedLine, writeNumberedFile, writeSparseText } from "../support/big-files.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

const HUGE_BYTES = 600 * 1024 * 1024;
const LIMIT = 52428800;
const numbered = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => numberedLine(from + i));

let t: TestToolContext;
let bigLines: number;
beforeAll(async () => {
  t = await makeToolContext();
  await writeSparseText(path.join(t.cwd, "huge.txt"), 80_000, HUGE_BYTES);
  bigLines = await writeNumberedFile(path.join(t.cwd, "big.txt"), 60 * 1024 * 1024);
}, 60_000);
afterAll(() => t.cleanup());

describe("reading a file past the size limit", () => {
  it("Yuj read returns ten lines of a 600 MB file, touching only its start", async () => {
    const res = await readTool.run({ path: "huge.txt", offset: 1000, limit: 10 }, t.ctx);
    expect(res.ok).toBe(true);
    const [body, reminder] = res.modelText.split("\n<system-reminder>");
    expect(body).toBe(numbered(1001, 1010).map((l, i) => `${1001 + i}: ${l}`).join("\n"));
    expect(reminder).toContain("The file is longer");
  });

  it("Yuj read pages in the middle of a 60 MB file", async () => {
    const res = await readTool.run({ path: "big.txt", offset: 500_000, limit: 3 }, t.ctx);
    expect(res.modelText.split("\n<system-reminder>")[0]).toBe("500001: line 500001 of the file\n500002: line 500002 of the file\n500003: line 500003 of the file");
    const past = await readTool.run({ path: "big.txt", offset: bigLines + 5, limit: 3 }, t.ctx);
    expect(past.modelText).toContain(`(file has ${bigLines} lines)`);
  });

  it("Yuj read refuses the whole 600 MB file unread, and says how to read it", async () => {
    expect(await readTool.run({ path: "huge.txt" }, t.ctx)).toMatchObject({
      ok: false,
      modelText:
        `ERROR: huge.txt is too large to read whole (${HUGE_BYTES} bytes, max ${LIMIT}); ` +
        "pass offset and limit to read part of it (limit=2000 reads 2000 lines), or search it with grep.",
    });
  });

  it("Chord read pages through a 60 MB file with offset/limit, counting every line", async () => {
    const res = await chordReadTool.run({ path: "big.txt", offset: 123_456, limit: 2 }, t.ctx);
    expect(res).toMatchObject({
      ok: true,
      modelText: `READ_RESULT lines=123456-123457 total=${bigLines}\nline 123456 of the file\nline 123457 of the file\n`,
    });
  });

  it("Chord read refuses a whole read past the limit, and a hole in a huge file is binary", async () => {
    const whole = await chordReadTool.run({ path: "big.txt" }, t.ctx);
    const size = (await fsp.stat(path.join(t.cwd, "big.txt"))).size;
    expect(whole).toMatchObject({
      ok: false,
      modelText: `file too large (${size} bytes, max ${LIMIT}); use offset/limit to read a portion or grep to search`,
    });
    expect(await chordReadTool.run({ path: "huge.txt", limit: 10 }, t.ctx)).toMatchObject({ ok: false, modelText: "cannot read binary file: huge.txt" });
  });

  it("Chord read says why a large file in another encoding cannot be read in portions", async () => {
    const file = path.join(t.cwd, "utf16.txt");
    await fsp.writeFile(file, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("line 1\nline 2\n", "utf16le")]));
    await fsp.truncate(file, HUGE_BYTES);
    expect(await chordReadTool.run({ path: "utf16.txt", limit: 2 }, t.ctx)).toMatchObject({
      ok: false,
      modelText:
        "cannot read utf16.txt: it is not UTF-8, and text in another encoding is only decoded whole, which this file " +
        `is too large for (${HUGE_BYTES} bytes, max ${LIMIT}); convert it to UTF-8 first (e.g. iconv in the shell), or grep to search`,
    });
  });
});

describe("changing a file past the size limit", () => {
  it("every edit tool refuses before loading it, and the file is unchanged", async () => {
    const size = HUGE_BYTES;
    const yujEdit = await editTool.run({ path: "huge.txt", old_str: "line 1 of", new_str: "LINE 1 of" }, t.ctx);
    expect(yujEdit).toMatchObject({
      ok: false,
      modelText:
        `ERROR: cannot edit huge.txt: the file is too large (${size} bytes, max ${LIMIT}) to load for a change; ` +
        "change it with bash (sed, or a script that streams it) instead",
    });
    const chordEdit = await chordEditTool.run({ path: "huge.txt", old_string: "line 1 of", new_string: "LINE 1 of" }, t.ctx);
    expect(chordEdit).toMatchObject({
      ok: false,
      modelText: `cannot edit huge.txt: file too large (${size} bytes, max ${LIMIT}); change it with shell (sed, or a script that streams it) instead`,
    });
    const patch = await applyPatchTool.run(
      { patch: "*** Begin Patch\n*** Update File: huge.txt\n@@\n-line 1 of the file\n+LINE 1 of the file\n*** End Patch" },
      t.ctx,
    );
    expect(patch.ok).toBe(false);
    expect(patch.modelText).toContain(`huge.txt is too large to patch (${size} bytes, max ${LIMIT}); change it with a shell command`);
    const write = await chordWriteTool.run({ path: "huge.txt", content: "small\n" }, t.ctx);
    expect(write).toMatchObject({
      ok: false,
      modelText:
        `write refused: huge.txt exists and is too large (${size} bytes, max ${LIMIT}) to check against what was read; ` +
        "delete it first, then write the new content, or change it with shell",
    });
    expect((await fsp.stat(path.join(t.cwd, "huge.txt"))).size).toBe(size);
  });
});
