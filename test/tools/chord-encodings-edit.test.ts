// Chord's changing tools on files that are not UTF-8 (Chord reads UTF-8 and
// BOM-marked Unicode, and GB18030, Big5 and Shift-JIS in part): the file is decoded as
// `read` decodes it and written back in its own encoding, BOM and CRLF kept.
// Expected bytes are built here (Buffer for UTF-16/32, iconv-lite for the
// legacy charsets) and checked against TextDecoder, so the test does not just
// trust the encoder it exercises.

import * as fsp from "node:fs/promises";
import * as path from "node:path";
import iconv from "iconv-lite";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chordApplyPatchTool } from "../../tools/chord/apply_patch.js";
import { chordEditTool } from "../../tools/chord/edit.js";
import { chordReadTool } from "../../tools/chord/read.js";
import { chordWriteTool } from "../../tools/chord/write.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
});
afterEach(() => t.cleanup());

const bytesOf = (rel: string) => fsp.readFile(path.join(t.cwd, rel));
const edit = (p: string, old_string: string, new_string: string) => chordEditTool.run({ path: p, old_string, new_string }, t.ctx);
const write = (p: string, content: string) => chordWriteTool.run({ path: p, content }, t.ctx);
const read = (p: string) => chordReadTool.run({ path: p }, t.ctx);
const patch = (...lines: string[]) => chordApplyPatchTool.run({ patch: ["*** Begin Patch", ...lines, "*** End Patch"].join("\n") }, t.ctx);

const crlf = (s: string) => s.replace(/\n/g, "\r\n");

type Enc = "utf-16le" | "utf-16be" | "utf-32le" | "gb18030" | "big5" | "shift-jis";

/** The bytes of `text` in `enc`, a BOM first for the Unicode ones; verified by decoding back. */
function encode(text: string, enc: Enc): Buffer {
  let out: Buffer;
  if (enc === "utf-16le" || enc === "utf-16be") {
    out = Buffer.from("\ufeff" + text, "utf16le");
    if (enc === "utf-16be") out.swap16();
  } else if (enc === "utf-32le") {
    const cps = Array.from("\ufeff" + text, (c) => c.codePointAt(0)!);
    out = Buffer.alloc(cps.length * 4);
    cps.forEach((cp, i) => out.writeUInt32LE(cp, i * 4));
  } else {
    out = iconv.encode(text, enc);
  }
  if (enc !== "utf-32le") {
    const back = new TextDecoder(enc, { fatal: true, ignoreBOM: true }).decode(out);
    expect(back).toBe(enc.startsWith("utf-") ? "\ufeff" + text : text);
  }
  return out;
}

const ZH_HANS = "这是一个测试文件。我们在这里写一些中文，看看读取工具能不能正确识别编码。\n第二行：你好，世界！\n";
const ZH_HANT = "這是一個測試檔案。我們在這裡寫一些中文，看看讀取工具能不能正確識別編碼。\n第二行：你好，世界！\n";
const JA =
  "これはテストファイルです。日本語のテキストを書いて、読み取りツールが正しく文字コードを認識できるか確認します。\n二行目：こんにちは、世界！\n";

describe("chord edit keeps the file's encoding", () => {
  it.each<[Enc, string, string, string]>([
    ["utf-16le", "first ✓\nsecond 😀\n", "second 😀", "二番目 🎉"],
    ["utf-16be", "first ✓\nsecond 😀\n", "second 😀", "二番目 🎉"],
    ["utf-32le", "first ✓\nsecond 😀\n", "second 😀", "二番目 🎉"],
    ["gb18030", ZH_HANS, "你好，世界！", "再见，朋友！"],
    ["big5", ZH_HANT, "你好，世界！", "再見，朋友！"],
    ["shift-jis", JA, "こんにちは、世界！", "さようなら、友達！"],
  ])("%s with CRLF", async (enc, text, from, to) => {
    await t.put({ "f.txt": encode(crlf(text), enc) });
    const r = await edit("f.txt", from, to);
    expect(r.ok).toBe(true);
    expect(r.modelText).toMatch(new RegExp(`^Replaced 1 occurrence \\(\\d+ bytes -> \\d+ bytes\\), encoding=${enc.replace("_", "[-_]")}$`, "i"));
    expect(await bytesOf("f.txt")).toEqual(encode(crlf(text.replace(from, to)), enc));
  });

  it("leaves the file as read shows it: same encoding named, new text", async () => {
    await t.put({ "f.txt": encode(crlf(ZH_HANS), "gb18030") });
    await edit("f.txt", "你好", "您好");
    const r = await read("f.txt");
    expect(r.ok).toBe(true);
    expect(r.modelText.split("\n")[0]).toContain('encoding="gb18030"');
    expect(r.modelText).toContain("第二行：您好，世界！");
  });

  it.each<[Enc, string, string, string, string]>([
    ["shift-jis", JA, "世界", "세계", '"세" (U+C138) cannot be written in shift-jis'],
    ["big5", ZH_HANT, "世界", "世界😀", '"😀" (U+1F600) cannot be written in big5'],
    // Shift-JIS maps "¥" to 0x5C, which reads back as "\": refused, not silently changed.
    ["shift-jis", JA, "世界", "¥100", '"¥" (U+00A5) cannot be written in shift-jis'],
  ])("refuses a character %s lacks and writes nothing", async (enc, text, from, to, message) => {
    const before = encode(crlf(text), enc);
    await t.put({ "f.txt": before });
    const r = await edit("f.txt", from, to);
    expect(r.ok).toBe(false);
    expect(r.modelText).toContain(message);
    expect(r.modelText).toContain("nothing was written");
    expect(await bytesOf("f.txt")).toEqual(before);
    expect((await fsp.readdir(t.cwd)).sort()).toEqual(["f.txt"]);
  });

  it("still refuses a file whose legacy encoding cannot be told apart", async () => {
    // Bytes that are valid GB18030, Big5 and Shift-JIS with nothing typical of any.
    const before = Buffer.from("b0a1b0a2b0a30a", "hex");
    await t.put({ "f.txt": before });
    const r = await edit("f.txt", "x", "y");
    expect(r.ok).toBe(false);
    expect(r.modelText).toMatch(/cannot edit f\.txt: (not UTF-8|unsupported)/);
    expect(await bytesOf("f.txt")).toEqual(before);
  });
});

describe("chord apply_patch keeps the file's encoding", () => {
  it("updates a Shift-JIS CRLF file in Shift-JIS", async () => {
    await t.put({ "ja.txt": encode(crlf(JA), "shift-jis") });
    const r = await patch("*** Update File: ja.txt", "@@", "-二行目：こんにちは、世界！", "+二行目：さようなら、世界！", "+三行目：追加しました。");
    expect(r).toEqual({ ok: true, modelText: "Applied patch:\nM ja.txt" });
    const want = JA.replace("二行目：こんにちは、世界！\n", "二行目：さようなら、世界！\n三行目：追加しました。\n");
    expect(await bytesOf("ja.txt")).toEqual(encode(crlf(want), "shift-jis"));
  });

  it("refuses text the encoding lacks and leaves the bytes", async () => {
    const before = encode(crlf(JA), "shift-jis");
    await t.put({ "ja.txt": before });
    const r = await patch("*** Update File: ja.txt", "@@", "-二行目：こんにちは、世界！", "+二行目：안녕하세요");
    expect(r.ok).toBe(false);
    expect(r.modelText).toContain('"안" (U+C548) cannot be written in shift-jis');
    expect(await bytesOf("ja.txt")).toEqual(before);
  });
});

describe("chord write keeps an existing file's encoding", () => {
  it("replaces a UTF-16LE file (after a full read) in UTF-16LE with its BOM, and may write again", async () => {
    await t.put({ "u.txt": encode("old ✓\n", "utf-16le") });
    expect((await read("u.txt")).ok).toBe(true);
    const r = await write("u.txt", "新しい内容 ✓\n");
    expect(r).toEqual({ ok: true, modelText: "Successfully wrote 2 lines, 18 bytes, encoding=utf-16le" });
    expect(await bytesOf("u.txt")).toEqual(encode("新しい内容 ✓\n", "utf-16le"));
    // The own-write grant is recorded against the bytes on disk, not the UTF-8 text.
    expect((await write("u.txt", "again\n")).ok).toBe(true);
    expect(await bytesOf("u.txt")).toEqual(encode("again\n", "utf-16le"));
  });

  it("refuses an unencodable character with nothing written", async () => {
    const before = encode(crlf(JA), "shift-jis");
    await t.put({ "ja.txt": before });
    expect((await read("ja.txt")).ok).toBe(true);
    const r = await write("ja.txt", "한국어\n");
    expect(r.ok).toBe(false);
    expect(r.modelText).toContain('"한" (U+D55C) cannot be written in shift-jis');
    expect(await bytesOf("ja.txt")).toEqual(before);
  });

  it("creates a new file as UTF-8", async () => {
    expect((await write("new.txt", "新しい\n")).ok).toBe(true);
    expect(await bytesOf("new.txt")).toEqual(Buffer.from("新しい\n", "utf8"));
  });
});
