// A response body's bytes to text, in the charset it declares: the
// Content-Type header first, then a byte-order mark, then an HTML
// <meta charset> near the start; UTF-8 when nothing says otherwise.

import iconv from "iconv-lite";

export function declaredCharset(contentType: string, body: Buffer): string {
  const header = /charset\s*=\s*"?([A-Za-z0-9._:-]+)/i.exec(contentType)?.[1];
  if (header && iconv.encodingExists(header)) return header.toLowerCase();
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return "utf-8";
  if (body[0] === 0xff && body[1] === 0xfe) return "utf-16le";
  if (body[0] === 0xfe && body[1] === 0xff) return "utf-16be";
  const head = body.subarray(0, 2048).toString("latin1");
  const meta = /<meta[^>]+charset\s*=\s*["']?([A-Za-z0-9._:-]+)/i.exec(head)?.[1];
  if (meta && iconv.encodingExists(meta)) return meta.toLowerCase();
  return "utf-8";
}

export function decodeBody(body: Buffer, charset: string): string {
  return iconv.decode(body, charset).replace(/^\uFEFF/, "");
}

/** True for bytes that are no text (NUL bytes, or mostly control bytes, early on). */
export function looksBinary(body: Buffer): boolean {
  const sample = body.subarray(0, 4096);
  if (sample.includes(0)) return true;
  let control = 0;
  for (const b of sample) if (b < 9 || (b > 13 && b < 32)) control++;
  return sample.length > 0 && control / sample.length > 0.1;
}
