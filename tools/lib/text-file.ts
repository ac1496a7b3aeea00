// Decoding and re-encoding text files so that a tool round-trip changes only
// what the model asked for: a UTF-8 BOM is kept, CRLF files stay CRLF, and a
// file that is not UTF-8 text is reported rather than mangled.

import { isUtf8 } from "node:buffer";

const BOM = "\ufeff";

export interface DecodedText {
  /** Content with the BOM removed and, when `crlf`, every CRLF turned into LF. */
  text: string;
  bom: boolean;
  crlf: boolean;
}

/**
 * Decodes bytes as UTF-8 text; undefined when they are not valid UTF-8 or
 * contain NUL (valid UTF-8 in theory, but in practice a binary file that would
 * only put garbage in front of the model).
 */
export function decodeText(bytes: Uint8Array): DecodedText | undefined {
  if (bytes.includes(0)) return undefined;
  // Validated, then decoded without a replacement pass: the same answer as a
  // fatal TextDecoder (which keeps a BOM when told to ignore it, as toString
  // does), at a fraction of its time on a file of megabytes.
  if (!isUtf8(bytes)) return undefined;
  let raw = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
  const bom = raw.startsWith(BOM);
  if (bom) raw = raw.slice(1);
  // Any CRLF marks the file as CRLF: the model always works in LF, and the
  // file is written back with CRLF throughout.
  const crlf = raw.includes("\r\n");
  return { text: crlf ? raw.replace(/\r\n/g, "\n") : raw, bom, crlf };
}

/**
 * Like decodeText, but the line endings stay as they are (`crlf` is false):
 * for tools that change some lines and keep every other line's ending.
 */
export function decodeTextKeepingEndings(bytes: Uint8Array): DecodedText | undefined {
  if (bytes.includes(0) || !isUtf8(bytes)) return undefined;
  const raw = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
  const bom = raw.startsWith(BOM);
  return { text: bom ? raw.slice(1) : raw, bom, crlf: false };
}

/** The bytes to write back for LF text decoded with `decodeText`. */
export function encodeText(text: string, like: { bom: boolean; crlf: boolean }): Buffer {
  const body = like.crlf ? text.replace(/\r?\n/g, "\r\n") : text;
  return Buffer.from(like.bom ? BOM + body : body, "utf8");
}

/** Lines as a reader counts them: a final newline does not start another line. */
export function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}
