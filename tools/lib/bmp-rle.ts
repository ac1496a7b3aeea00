// Run-length-compressed BMP (BI_RLE8, BI_RLE4) decoded to RGBA, top row
// first. The pixel data is a stream of byte pairs: a count and a palette
// index (RLE4: two indexes in one byte, alternating) repeat; a zero count is
// an escape: 0 ends a row, 1 ends the picture, 2 moves the pen by the next
// two bytes (right, up), and n >= 3 is n literal indexes padded to an even
// byte count. Rows are stored bottom-up. A pixel the stream never sets
// (skipped by a move or an early row end) stays transparent, as browsers
// show it.

export const BI_RLE8 = 1;
export const BI_RLE4 = 2;

export interface Rgba {
  width: number;
  height: number;
  data: Buffer;
}

export function decodeRleBmp(bytes: Buffer): Rgba {
  if (bytes.length < 54) throw new Error("the BMP file is truncated: its headers are incomplete");
  const pixelOffset = bytes.readUInt32LE(10);
  const dibSize = bytes.readUInt32LE(14);
  const width = bytes.readInt32LE(18);
  const rawHeight = bytes.readInt32LE(22);
  const bitCount = bytes.readUInt16LE(28);
  const compression = bytes.readUInt32LE(30);
  const rle4 = compression === BI_RLE4;
  if ((rle4 && bitCount !== 4) || (!rle4 && bitCount !== 8)) {
    throw new Error(`the BMP file is invalid: ${rle4 ? "RLE4" : "RLE8"} compression needs ${rle4 ? 4 : 8}-bit pixels, not ${bitCount}`);
  }
  const height = Math.abs(rawHeight);
  if (width <= 0 || height === 0 || width * height > 100_000_000) throw new Error(`the BMP file is invalid: a ${width}x${rawHeight} picture`);
  const palette = readPalette(bytes, 14 + dibSize, Math.min(pixelOffset, bytes.length), bytes.readUInt32LE(46) || 1 << bitCount);

  const out = Buffer.alloc(width * height * 4); // all transparent
  // Stored bottom-up unless the height is negative.
  const rowAt = (y: number) => (rawHeight > 0 ? height - 1 - y : y);
  const put = (x: number, y: number, index: number) => {
    if (x >= width || y >= height) return;
    const colour = palette[index] ?? [0, 0, 0];
    const at = (rowAt(y) * width + x) * 4;
    out[at] = colour[0]!;
    out[at + 1] = colour[1]!;
    out[at + 2] = colour[2]!;
    out[at + 3] = 255;
  };

  let x = 0;
  let y = 0;
  let i = pixelOffset;
  while (i + 1 < bytes.length && y < height) {
    const count = bytes[i]!;
    const value = bytes[i + 1]!;
    i += 2;
    if (count > 0) {
      for (let k = 0; k < count; k++) put(x++, y, rle4 ? (k % 2 === 0 ? value >> 4 : value & 0x0f) : value);
    } else if (value === 0) {
      x = 0;
      y++;
    } else if (value === 1) {
      break;
    } else if (value === 2) {
      if (i + 1 >= bytes.length) break;
      x += bytes[i]!;
      y += bytes[i + 1]!;
      i += 2;
    } else {
      const literalBytes = rle4 ? Math.ceil(value / 2) : value;
      for (let k = 0; k < value && i + (rle4 ? k >> 1 : k) < bytes.length; k++) {
        const b = bytes[i + (rle4 ? k >> 1 : k)]!;
        put(x++, y, rle4 ? (k % 2 === 0 ? b >> 4 : b & 0x0f) : b);
      }
      i += literalBytes + (literalBytes % 2);
    }
  }
  return { width, height, data: out };
}

/** The colour table: B, G, R, reserved per entry, as RGB triples. */
function readPalette(bytes: Buffer, from: number, to: number, colours: number): number[][] {
  const palette: number[][] = [];
  for (let at = from; at + 4 <= Math.min(to, bytes.length) && palette.length < colours; at += 4) {
    palette.push([bytes[at + 2]!, bytes[at + 1]!, bytes[at]!]);
  }
  return palette;
}
