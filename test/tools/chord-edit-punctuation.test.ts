// Chord edit matches old_string once across punctuation forms (curly vs
// straight quotes, full-width vs ASCII CJK punctuation), keeps the file's
// characters where the change does not touch them, and says so.

import * as fsp from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chordEditTool } from "../../tools/chord/edit.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
});
afterEach(() => t.cleanup());

const read = (rel: string) => fsp.readFile(path.join(t.cwd, rel), "utf8");
const edit = (old_string: string, new_string: string, replace_all?: boolean) =>
  chordEditTool.run(replace_all === undefined ? { path: "doc.md", old_string, new_string } : { path: "doc.md", old_string, new_string, replace_all }, t.ctx);
const NOTE = "via punctuation/whitespace-tolerant match at line";

describe("chord edit punctuation tolerance", () => {
  it("straight quotes in old_string match the file's curly ones, which stay", async () => {
    await t.put({ "doc.md": "intro\nShe said “hello” and it’s fine.\n" });
    expect(await edit(`She said "hello" and it's fine.`, `She said "goodbye" and it's fine.`)).toEqual({
      ok: true,
      modelText: `Replaced 1 occurrence ${NOTE} 2 (44 bytes -> 46 bytes)`,
    });
    expect(await read("doc.md")).toBe("intro\nShe said “goodbye” and it’s fine.\n");
  });

  it("ASCII punctuation matches full-width CJK punctuation, separator spaces included", async () => {
    await t.put({ "doc.md": "说明：旧值。注意，保留。\n" });
    expect((await edit("说明: 旧值. 注意, 保留.", "说明: 新值. 注意, 保留.")).modelText).toBe(
      `Replaced 1 occurrence ${NOTE} 1 (37 bytes -> 37 bytes)`,
    );
    expect(await read("doc.md")).toBe("说明：新值。注意，保留。\n");
  });

  it("curly quotes in old_string match straight ones in the file", async () => {
    await t.put({ "doc.md": `const s = "it's";\n` });
    expect((await edit("const s = “it’s”;", "const s = “its”;")).ok).toBe(true);
    expect(await read("doc.md")).toBe(`const s = "its";\n`);
  });

  it("refuses a tolerant match found in two places, and changes nothing", async () => {
    const content = "相同；文本。\n中间\n相同；文本。\n";
    await t.put({ "doc.md": content });
    expect(await edit("相同;文本.", "不同;文本.")).toEqual({
      ok: false,
      modelText:
        "old_string found 2 times under punctuation/whitespace-tolerant matching, provide more context or set replace_all to true",
    });
    expect(await read("doc.md")).toBe(content);
    expect((await edit("相同;文本.", "不同;文本.", true)).modelText).toBe(
      `Replaced 2 occurrences ${NOTE}s 1, 3 (45 bytes -> 45 bytes)`,
    );
    expect(await read("doc.md")).toBe("不同；文本。\n中间\n不同；文本。\n");
  });

  it("an exact match is used as it is, with no note", async () => {
    await t.put({ "doc.md": "a “b”\n" });
    expect(await edit("a “b”", 'a "c"')).toEqual({ ok: true, modelText: "Replaced 1 occurrence (10 bytes -> 6 bytes)" });
    expect(await read("doc.md")).toBe('a "c"\n');
  });

  it("a single space between words is optional; indentation and runs of spaces stay significant", async () => {
    await t.put({ "doc.md": "  diff and count\n" });
    expect((await edit("diffand count", "diffand total")).modelText).toBe(`Replaced 1 occurrence ${NOTE} 1 (17 bytes -> 17 bytes)`);
    expect(await read("doc.md")).toBe("  diff and total\n");
    await t.put({ "doc.md": "a\n  b  c\n" });
    expect((await edit("a\n b  c", "x")).modelText).toMatch(/^old_string not found in file, even after punctuation\/whitespace tolerance\./);
    expect((await edit("a\n  b c", "x")).modelText).toMatch(/^old_string not found in file, even after punctuation\/whitespace tolerance\./);
    expect(await read("doc.md")).toBe("a\n  b  c\n");
  });
});
