// Round-tripping a file through Chord's file tools in its own encoding (digest
// §2: "UTF-8 or BOM Unicode; limited GB18030, Big5, Shift-JIS"). `read` shows
// such files, so `edit`, `write` and `apply_patch` must change them without
// turning them into UTF-8 behind the user's back: the text is decoded with
// read's decoder and written back in the same encoding, BOM and line endings
// kept.
//
// UTF-16/UTF-32 are encoded here; the legacy CJK charsets need iconv-lite,
// imported only when such a file is written so start-up does not pay for its
// tables. Every legacy encode is checked by decoding it back with the same
// TextDecoder `read` uses: a character the charset lacks (iconv-lite would
// silently write "?") or maps differently (Shift-JIS "¥" comes back as "\")
// is refused by name, and nothing is written.

import { decodeForChord, type ChordDecoded } from "./decode.js";
import { decodeText, decodeTextKeepingEndings, encodeText } from "../text-file.js";

export interface ChordText {
  /** Content with the BOM removed and, when `crlf`, every CRLF turned into LF. */
  text: string;
  bom: boolean;
  crlf: boolean;
  /** Set only for a non-UTF-8 encoding (a name decodeForChord reports). */
  encoding?: string;
}

export type ChordTextResult = ({ ok: true } & ChordText) | Exclude<ChordDecoded, { ok: true }>;

/** Decodes a file for editing: as `read` would, plus what is needed to write it back. */
export function decodeForChordEdit(bytes: Uint8Array, options: { keepEndings?: boolean; file?: string } = {}): ChordTextResult {
  // UTF-8 first: none of the BOMs decodeForChord honours is valid UTF-8, so
  // this gives the same verdict, and decodeText also reports BOM and CRLF.
  const utf8 = options.keepEndings ? decodeTextKeepingEndings(bytes) : decodeText(bytes);
  if (utf8) return { ok: true, ...utf8 };
  const d = decodeForChord(bytes, options.file);
  if (!d.ok) return d;
  const crlf = !options.keepEndings && d.text.includes("\r\n");
  const bom = d.encoding !== undefined && d.encoding.startsWith("utf-");
  return { ok: true, text: crlf ? d.text.replace(/\r\n/g, "\n") : d.text, bom, crlf, encoding: d.encoding };
}

/** The text cannot be written in the file's encoding; the message names the character. */
export class UnencodableError extends Error {}

/** Why a Go file that is not UTF-8 is not decoded. */
export const GO_SOURCE_NOT_UTF8 = "not UTF-8, and Go source must be UTF-8, so it skipped regional encoding detection; convert it to UTF-8 first (e.g. iconv in the shell)";

/** A short description of what decoding failed on, for a tool's error message. */
export function undecodableReason(d: Exclude<ChordDecoded, { ok: true }>): string {
  if (d.reason === "binary") return "binary file";
  if (d.reason === "ambiguous") return `not UTF-8, and its text encoding cannot be told apart (candidates: ${d.candidates.join(", ")})`;
  if (d.reason === "go_source") return GO_SOURCE_NOT_UTF8;
  return "unsupported text encoding (supported: UTF-8, UTF-16/UTF-32 with a BOM, GB18030, Big5, Shift-JIS)";
}

/** The bytes to write for LF text in the encoding, BOM and line endings of `like`. */
export async function encodeForChord(text: string, like: Omit<ChordText, "text">): Promise<Uint8Array> {
  if (like.encoding === undefined) return encodeText(text, like);
  const body = like.crlf ? text.replace(/\r?\n/g, "\r\n") : text;
  switch (like.encoding) {
    case "utf-16le":
    case "utf-16be": {
      const lone = loneSurrogate(body);
      if (lone !== undefined) throw unencodable(lone, like.encoding);
      const out = Buffer.from(like.bom ? "\ufeff" + body : body, "utf16le");
      return like.encoding === "utf-16be" ? out.swap16() : out;
    }
    case "utf-32le":
    case "utf-32be":
      return utf32(like.bom ? "\ufeff" + body : body, like.encoding);
    default:
      return legacy(body, like.encoding);
  }
}

function utf32(text: string, encoding: string): Uint8Array {
  const cps = Array.from(text, (ch) => ch.codePointAt(0)!);
  const out = Buffer.alloc(cps.length * 4);
  for (const [i, cp] of cps.entries()) {
    if (cp >= 0xd800 && cp <= 0xdfff) throw unencodable(String.fromCharCode(cp), encoding);
    if (encoding === "utf-32le") out.writeUInt32LE(cp, i * 4);
    else out.writeUInt32BE(cp, i * 4);
  }
  return out;
}

async function legacy(text: string, encoding: string): Promise<Uint8Array> {
  const iconv = (await import("iconv-lite")).default;
  if (!iconv.encodingExists(encoding)) throw new UnencodableError(`cannot write text in ${encoding}: no encoder for it`);
  const out = iconv.encode(text, encoding);
  if (readsBackAs(out, encoding) === text) return out;
  // Rare path: find the first character that does not survive on its own.
  for (const ch of text) {
    if (readsBackAs(iconv.encode(ch, encoding), encoding) !== ch) throw unencodable(ch, encoding);
  }
  throw new UnencodableError(`cannot write text in ${encoding}: it does not read back unchanged`);
}

function readsBackAs(bytes: Uint8Array, encoding: string): string | undefined {
  try {
    return new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

function loneSurrogate(text: string): string | undefined {
  // With the u flag a surrogate pair is one code point, so only lone halves match.
  return /[\ud800-\udfff]/u.exec(text)?.[0];
}

function unencodable(ch: string, encoding: string): UnencodableError {
  const cp = ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0");
  const shown = /\p{L}|\p{N}|\p{P}|\p{S}/u.test(ch) ? `"${ch}" ` : "";
  return new UnencodableError(
    `character ${shown}(U+${cp}) cannot be written in ${encoding}, the file's encoding; nothing was written. ` +
      "Use a character the encoding has, or convert the file to UTF-8 first (e.g. iconv in the shell)",
  );
}
