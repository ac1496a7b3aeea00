// Chord read of files that are not plain UTF-8 (UTF-8 and BOM-marked
// Unicode; GB18030, Big5 and Shift-JIS in part; an ambiguous encoding fails
// at once rather than showing the model garbled text), with real bytes on disk.

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chordReadTool } from "../../tools/chord/read.js";
import { chordWriteTool } from "../../tools/chord/write.js";
import { decodeForChord } from "../../tools/lib/chord/decode.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
});
afterEach(() => t.cleanup());

const read = (args: { path: string; offset?: number; limit?: number }) => chordReadTool.run(args, t.ctx);
const hex = (h: string) => Buffer.from(h, "hex");

const utf16le = (s: string) => Buffer.concat([hex("fffe"), Buffer.from(s, "utf16le")]);
const utf16be = (s: string) => {
  const body = Buffer.from(s, "utf16le");
  body.swap16();
  return Buffer.concat([hex("feff"), body]);
};
const utf32 = (s: string, little: boolean) => {
  const cps = [0xfeff, ...[...s].map((c) => c.codePointAt(0)!)];
  const out = Buffer.alloc(cps.length * 4);
  cps.forEach((cp, i) => (little ? out.writeUInt32LE(cp, i * 4) : out.writeUInt32BE(cp, i * 4)));
  return out;
};

// Encoded with Python's codecs, kept as bytes so the test needs no encoder.
const GB18030 = hex(
  "d5e2cac7d2bbb8f6b2e2cad4cec4bcfea1a3ced2c3c7d4dad5e2c0efd0b4d2bbd0a9d6d0cec4a3acbfb4bfb4b6c1c8a1b9a4bedfc4dcb2bbc4dcd5fdc8b7cab6b1f0b1e0c2eba1a30ab5dab6fed0d0a3bac4e3bac3a3accac0bde7a3a10a",
);
const GB_TEXT = "这是一个测试文件。我们在这里写一些中文，看看读取工具能不能正确识别编码。\n第二行：你好，世界！";
const BIG5 = hex(
  "b36fac4fa440add3b4fab8d5c0c9aed7a143a7daadcca662b36fb8ccbc67a440a8c7a4a4a4e5a141acddacddc5aaa8faa475a8e3afe0a4a3afe0a5bfbd54c3d1a74fbd73bd58a1430ab2c4a447a6e6a147a741a66ea141a540acc9a1490a",
);
const BIG5_TEXT = "這是一個測試檔案。我們在這裡寫一些中文，看看讀取工具能不能正確識別編碼。\n第二行：你好，世界！";
const SHIFT_JIS = hex(
  "82b182ea82cd836583588367837483408343838b82c582b7814293fa967b8cea82cc8365834c8358836782f08f9182a282c4814193c782dd8ee682e88363815b838b82aa90b382b582ad95b68e9a8352815b836882f094468eaf82c582ab82e982a98a6d944682b582dc82b781420a93f18d7396da814682b182f182c982bf82cd814190a28a4581490a",
);
const SJIS_TEXT =
  "これはテストファイルです。日本語のテキストを書いて、読み取りツールが正しく文字コードを認識できるか確認します。\n二行目：こんにちは、世界！";

describe("chord read: UTF-8", () => {
  it("shows UTF-8, with or without a BOM, with no encoding field", async () => {
    await t.put({ "plain.txt": "héllo\nwörld\n", "bom.txt": Buffer.concat([hex("efbbbf"), Buffer.from("héllo\r\nwörld\r\n")]) });
    expect(await read({ path: "plain.txt" })).toMatchObject({ ok: true, modelText: "READ_RESULT lines=1-2 total=2\nhéllo\nwörld\n" });
    expect(await read({ path: "bom.txt" })).toMatchObject({ ok: true, modelText: "READ_RESULT lines=1-2 total=2\nhéllo\nwörld\n" });
  });
});

describe("chord read: Unicode with a BOM", () => {
  const text = "first ✓\r\nsecond 😀\nthird\n";
  it.each([
    ["utf-16le", utf16le(text)],
    ["utf-16be", utf16be(text)],
    ["utf-32le", utf32(text, true)],
    ["utf-32be", utf32(text, false)],
  ])("decodes %s, LF-normalised, and names the encoding", async (name, bytes) => {
    await t.put({ "u.txt": bytes });
    expect(await read({ path: "u.txt" })).toMatchObject({
      ok: true,
      modelText: `READ_RESULT lines=1-3 total=3 encoding="${name}"\nfirst ✓\nsecond 😀\nthird\n`,
    });
    expect(await read({ path: "u.txt", offset: 2, limit: 1 })).toMatchObject({
      ok: true,
      modelText: `READ_RESULT lines=2-2 total=3 encoding="${name}"\nsecond 😀\n`,
    });
  });

  it("names the encoding of an empty UTF-16 file too", async () => {
    await t.put({ "empty16.txt": hex("fffe") });
    expect(await read({ path: "empty16.txt" })).toMatchObject({ ok: true, modelText: 'READ_RESULT lines=none total=0 encoding="utf-16le"\n' });
  });

  it("refuses UTF-16 without a BOM, a broken surrogate or an odd length as binary", async () => {
    await t.put({
      "nobom.txt": Buffer.from("abc\n", "utf16le"),
      "lone.txt": Buffer.concat([hex("fffe"), hex("00d8"), Buffer.from("a", "utf16le")]),
      "odd.txt": Buffer.concat([utf16le("ab"), hex("41")]),
    });
    for (const p of ["nobom.txt", "lone.txt", "odd.txt"]) {
      expect(await read({ path: p })).toMatchObject({ ok: false, modelText: `cannot read binary file: ${p}` });
    }
  });

  it("counts a complete read of a UTF-16 file for write gating", async () => {
    await t.put({ "w.txt": utf16le("old\n") });
    const blocked = await chordWriteTool.run({ path: "w.txt", content: "new\n" }, t.ctx);
    expect(blocked.ok).toBe(false);
    expect((await read({ path: "w.txt" })).ok).toBe(true);
    expect((await chordWriteTool.run({ path: "w.txt", content: "new\n" }, t.ctx)).ok).toBe(true);
  });
});

describe("chord read: legacy CJK encodings", () => {
  it.each([
    ["gb18030", GB18030, GB_TEXT],
    ["big5", BIG5, BIG5_TEXT],
    ["shift-jis", SHIFT_JIS, SJIS_TEXT],
  ])("recognises %s", async (name, bytes, text) => {
    await t.put({ "cjk.txt": bytes });
    expect(await read({ path: "cjk.txt" })).toMatchObject({ ok: true, modelText: `READ_RESULT lines=1-2 total=2 encoding="${name}"\n${text}\n` });
  });

  it("normalises CRLF in a legacy file", async () => {
    await t.put({ "crlf.txt": hex("b5dad2bbd0d00d0ab5dab6fed0d00d0a") }); // 第一行\r\n第二行\r\n in GB18030
    expect(await read({ path: "crlf.txt" })).toMatchObject({ ok: true, modelText: 'READ_RESULT lines=1-2 total=2 encoding="gb18030"\n第一行\n第二行\n' });
  });

  it("fails fast when the bytes do not settle on one encoding", async () => {
    // Two bytes that are a valid character in GB18030, Big5 and Shift-JIS
    // alike, and common in none of them.
    await t.put({ "amb.txt": hex("e9e9e9e90a") });
    const out = await read({ path: "amb.txt" });
    expect(out.ok).toBe(false);
    expect(out.modelText).toMatch(/^cannot read amb\.txt: not UTF-8, and its text encoding cannot be told apart \(candidates: .*gb18030.*\)/);
  });

  it("refuses Latin-1 text as an unsupported encoding, not as binary", async () => {
    await t.put({ "latin1.txt": Buffer.from("Café au lait, déjà vu, naïve résumé.\n", "latin1") });
    expect(await read({ path: "latin1.txt" })).toMatchObject({
      ok: false,
      modelText: "cannot read latin1.txt: unsupported text encoding (supported: UTF-8, UTF-16/UTF-32 with a BOM, GB18030, Big5, Shift-JIS)",
    });
  });

  it("still refuses binary data", async () => {
    // No NUL at all, but control bytes no text has.
    const noise = Buffer.from(Array.from({ length: 256 }, (_, i) => (i * 37 + 11) % 256).filter((b) => b !== 0));
    await t.put({ "nul.bin": hex("89504e470d0a1a0a0000000d"), "noise.bin": noise });
    expect(await read({ path: "nul.bin" })).toMatchObject({ ok: false, modelText: "cannot read binary file: nul.bin" });
    expect(await read({ path: "noise.bin" })).toMatchObject({ ok: false, modelText: "cannot read binary file: noise.bin" });
  });
});

describe("decodeForChord", () => {
  it("keeps ASCII-only text UTF-8 and prefers UTF-32 over UTF-16 for FF FE 00 00", () => {
    expect(decodeForChord(Buffer.from("abc"))).toMatchObject({ ok: true, text: "abc" });
    expect(decodeForChord(utf32("a", true))).toMatchObject({ ok: true, text: "a", encoding: "utf-32le" });
  });
});
