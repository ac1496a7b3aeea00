// Text decoding for Chord `read`: UTF-8 or BOM-marked Unicode, a limited set
// of legacy encodings (GB18030, Big5, Shift-JIS), and a fast failure when the
// bytes are ambiguous. Chord shows the model
// files in the common CJK legacy encodings too, naming the encoding in the
// READ_RESULT header, but never guesses: when the bytes do not settle on one
// encoding the read fails instead of showing mojibake the model would then
// copy into an edit.
//
// Order: a BOM decides (UTF-32 before UTF-16: FF FE 00 00 starts with the
// UTF-16LE BOM); then UTF-8 (Yuj's decodeText, so BOM and CRLF handling are
// shared); then the three legacy encodings. Those overlap heavily — most
// Chinese GB bytes are also valid Big5 and valid Shift-JIS — so surviving a
// strict decode is not enough: each decode is scored by how much of it is
// text the language actually uses (kana for Japanese, the most frequent
// hanzi and full-width punctuation for Chinese), and only a clear winner is
// accepted. Latin-1/Windows-1252 is not among the encodings the digest names,
// so such a file is refused (with its own message, as it is not binary).
// Go source (`*.go`, go.mod, go.sum, go.work) must be UTF-8 to compile, so for
// it the legacy guess is skipped and the file refused, as Chord does.

import { decodeText } from "../text-file.js";

export type ChordDecoded =
  | { ok: true; text: string; /** Set only for a non-UTF-8 encoding. */ encoding?: string }
  | { ok: false; reason: "binary" }
  | { ok: false; reason: "ambiguous"; candidates: string[] }
  | { ok: false; reason: "unsupported" }
  | { ok: false; reason: "go_source" };

/** Files Go reads as UTF-8 only: a legacy encoding there is a broken file, not a guess to make. */
const goSource = (file: string): boolean => /\.go$/i.test(file) || /(^|[/\\])go\.(mod|sum|work)$/.test(file);

/** `file` (its path or name) only decides whether a legacy encoding may be guessed. */
export function decodeForChord(bytes: Uint8Array, file = ""): ChordDecoded {
  const bom = bomEncoding(bytes);
  if (bom) {
    const text = bom.decode(bytes.subarray(bom.skip));
    return text === undefined || text.includes("\0") ? { ok: false, reason: "binary" } : { ok: true, text, encoding: bom.name };
  }
  if (bytes.includes(0)) return { ok: false, reason: "binary" };
  const utf8 = decodeText(bytes);
  if (utf8) return { ok: true, text: utf8.text };
  if (!looksLikeText(bytes)) return { ok: false, reason: "binary" };
  if (goSource(file)) return { ok: false, reason: "go_source" };

  const scored: Array<{ name: string; text: string; score: number }> = [];
  for (const name of LEGACY) {
    const text = strict(name, bytes);
    if (text !== undefined) scored.push({ name, text, score: plausibility(name, text) });
  }
  if (scored.length === 0) return { ok: false, reason: "unsupported" };
  scored.sort((a, b) => b.score - a.score);
  const [best, second] = scored;
  const clear = best!.score >= MIN_SCORE && (second === undefined || best!.score >= second.score * MARGIN);
  if (!clear) return { ok: false, reason: "ambiguous", candidates: scored.map((s) => s.name) };
  return { ok: true, text: best!.text, encoding: best!.name };
}

/** Whether the bytes start with a UTF-16 or UTF-32 byte order mark. */
export const unicodeBom = (bytes: Uint8Array): boolean => bomEncoding(bytes) !== undefined;

const LEGACY = ["gb18030", "big5", "shift-jis"] as const;
/** Share of non-ASCII characters that must be typical of the language. */
const MIN_SCORE = 0.15;
/** How far ahead of the runner-up the winner must be. */
const MARGIN = 3;

interface Bom {
  name: string;
  skip: number;
  decode(body: Uint8Array): string | undefined;
}

function bomEncoding(b: Uint8Array): Bom | undefined {
  const at = (i: number) => b[i];
  if (at(0) === 0xff && at(1) === 0xfe && at(2) === 0 && at(3) === 0) return { name: "utf-32le", skip: 4, decode: (x) => utf32(x, true) };
  if (at(0) === 0 && at(1) === 0 && at(2) === 0xfe && at(3) === 0xff) return { name: "utf-32be", skip: 4, decode: (x) => utf32(x, false) };
  if (at(0) === 0xff && at(1) === 0xfe) return { name: "utf-16le", skip: 2, decode: (x) => strict("utf-16le", x) };
  if (at(0) === 0xfe && at(1) === 0xff) return { name: "utf-16be", skip: 2, decode: (x) => strict("utf-16be", x) };
  return undefined;
}

/** Decodes with a fatal decoder; undefined on any invalid sequence. */
function strict(encoding: string, bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** TextDecoder has no UTF-32; it is rare enough that a plain loop does. */
function utf32(bytes: Uint8Array, little: boolean): string | undefined {
  if (bytes.length % 4 !== 0) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let out = "";
  for (let i = 0; i < bytes.length; i += 4) {
    const cp = view.getUint32(i, little);
    if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return undefined;
    out += String.fromCodePoint(cp);
  }
  return out;
}

/**
 * No NUL (checked before) and almost no C0 control bytes besides tab,
 * newlines, form feed and escape: legacy-encoded text, not a binary format.
 */
function looksLikeText(bytes: Uint8Array): boolean {
  let controls = 0;
  for (const b of bytes) if (b < 0x20 && b !== 9 && b !== 10 && b !== 13 && b !== 12 && b !== 27) controls++;
  return controls <= bytes.length / 100;
}

// Full-width punctuation a real CJK text is full of, and a wrong decode of
// its bytes almost never produces.
const CJK_PUNCT = "，。、；：？！“”‘’「」『』（）《》【】…";
// The most frequent hanzi of written Chinese, simplified and traditional
// forms together: the bytes, not this list, tell GB from Big5.
const HANZI =
  "的一是不了在人有我他这這个個们們中来來上大为為和国國地到以说說时時要就出会會可也你对對生能而子那得于於着著下自之年过過发發后後作里裡用道行所然家种種事成方多经經么麼去法学學如都同现現当當没沒动動面起看定天分还還进進好小部其些主样樣理心她本前开開但因只从從想实實";
// Kana carries Japanese grammar, so nearly every Japanese text is full of it.
const KANA = /[\u3041-\u309f\u30a0-\u30ff]/u;
const COMMON_HANZI = new Set([...HANZI, ...CJK_PUNCT]);
const JAPANESE_PUNCT = new Set([..."、。「」『』（）・ー…"]);

function plausibility(encoding: (typeof LEGACY)[number], text: string): number {
  let wide = 0;
  let typical = 0;
  for (const ch of text) {
    if (ch.charCodeAt(0) < 0x80) continue;
    wide++;
    if (encoding === "shift-jis" ? KANA.test(ch) || JAPANESE_PUNCT.has(ch) : COMMON_HANZI.has(ch)) typical++;
  }
  return wide === 0 ? 0 : typical / wide;
}
