// Image loading for view_image: recognise the format from the file's bytes,
// refuse the formats we do not decode with a message that says what to do,
// and normalise the rest to one PNG or JPEG the model APIs all accept.
//
// sharp (native libvips) and bmp-ts are imported only here and only when an
// image is actually viewed, so start-up never loads a native module.

import { BI_RLE4, BI_RLE8, decodeRleBmp } from "./bmp-rle.js";

export type SourceFormat = "png" | "jpeg" | "webp" | "gif" | "bmp" | "tiff";

export type Sniffed =
  | { kind: "image"; format: SourceFormat }
  /** A known image format we deliberately do not load (HEIC, HEIF, AVIF, SVG). */
  | { kind: "unsupported"; format: "HEIC" | "HEIF" | "AVIF" | "SVG" }
  | { kind: "unknown" };

export const MAX_EDGE = 2000;
/** A lossless source whose PNG is bigger than this is photo-like: JPEG is tried. */
const PNG_BUDGET_BYTES = 1024 * 1024;
/** An image with transparency above this is colour-quantised (PNG palette) to fit API limits. */
const ALPHA_PNG_BUDGET_BYTES = 4 * 1024 * 1024;
const JPEG_QUALITY = 85;

export const FORMAT_NAMES: Record<SourceFormat, string> = {
  png: "PNG",
  jpeg: "JPEG",
  webp: "WebP",
  gif: "GIF",
  bmp: "BMP",
  tiff: "TIFF",
};

const ascii = (b: Uint8Array, from: number, to: number): string => Buffer.from(b.subarray(from, to)).toString("latin1");
const startsWith = (b: Uint8Array, sig: number[], at = 0): boolean => sig.every((v, i) => b[at + i] === v);

// ISO-BMFF `ftyp` brands. HEIC is HEVC-coded HEIF; mif1/msf1 alone is generic
// HEIF (its codec unknown); an avif/avis brand anywhere makes it AVIF.
const AVIF_BRANDS = new Set(["avif", "avis"]);
const HEIC_BRANDS = new Set(["heic", "heix", "hevc", "hevx", "heim", "heis", "hevm", "hevs"]);
const HEIF_BRANDS = new Set(["mif1", "msf1", "mif2"]);

/** What the bytes are. `name` (the file name) only settles SVGs that do not look like one. */
export function sniffImage(bytes: Uint8Array, name = ""): Sniffed {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { kind: "image", format: "png" };
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return { kind: "image", format: "jpeg" };
  if (ascii(bytes, 0, 6) === "GIF87a" || ascii(bytes, 0, 6) === "GIF89a") return { kind: "image", format: "gif" };
  if (ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 12) === "WEBP") return { kind: "image", format: "webp" };
  // Little- and big-endian TIFF, and BigTIFF (43).
  if (["II*\0", "MM\0*", "II+\0", "MM\0+"].includes(ascii(bytes, 0, 4))) return { kind: "image", format: "tiff" };
  if (ascii(bytes, 0, 2) === "BM" && bytes.length >= 26) return { kind: "image", format: "bmp" };
  const brandFormat = isoBrandFormat(bytes);
  if (brandFormat) return { kind: "unsupported", format: brandFormat };
  if (looksLikeSvg(bytes) || /\.svgz?$/i.test(name)) return { kind: "unsupported", format: "SVG" };
  return { kind: "unknown" };
}

function isoBrandFormat(bytes: Uint8Array): "HEIC" | "HEIF" | "AVIF" | undefined {
  if (bytes.length < 16 || ascii(bytes, 4, 8) !== "ftyp") return undefined;
  const boxSize = Buffer.from(bytes.subarray(0, 4)).readUInt32BE(0);
  const end = Math.min(bytes.length, Math.max(boxSize, 16));
  const brands = [ascii(bytes, 8, 12)];
  for (let at = 16; at + 4 <= end; at += 4) brands.push(ascii(bytes, at, at + 4));
  if (brands.some((b) => AVIF_BRANDS.has(b))) return "AVIF";
  if (brands.some((b) => HEIC_BRANDS.has(b))) return "HEIC";
  if (brands.some((b) => HEIF_BRANDS.has(b))) return "HEIF";
  return undefined; // an MP4/QuickTime file: simply not an image
}

/** Text whose first 4 KiB hold an `<svg` element (after an optional XML prolog, comments, doctype). */
function looksLikeSvg(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.subarray(0, 4096)).toString("utf8").replace(/^\uFEFF/, "").trimStart();
  return head.startsWith("<") && /<svg[\s>/]/i.test(head);
}

/** The error the model sees for a refused format, naming it and the way out. */
export function unsupportedMessage(format: "HEIC" | "HEIF" | "AVIF" | "SVG", shown: string): string {
  if (format === "SVG") {
    return (
      `SVG images are not supported: ${shown} is a vector drawing, not a bitmap. ` +
      `Read its markup as text with read, or rasterise it to PNG first (e.g. rsvg-convert -o out.png ${shown}) and view that.`
    );
  }
  return (
    `${format} images are not supported: ${shown}. ` +
    `Convert it to PNG or JPEG first (e.g. magick ${shown} out.png, or heif-convert) and view the converted file.`
  );
}

export interface NormalisedImage {
  mediaType: "image/png" | "image/jpeg";
  data: Buffer;
  width: number;
  height: number;
  /** Source size as displayed (EXIF orientation applied). */
  sourceWidth: number;
  sourceHeight: number;
  /** Frames or pages in the source; only the first is shown. */
  frames: number;
  /** Whether the result kept an alpha channel. */
  alpha: boolean;
}

/**
 * Decodes the first frame, applies EXIF orientation, scales the longest edge
 * down to MAX_EDGE (never up) and encodes the result.
 *
 * Output format rule:
 * 1. Transparency actually used (some alpha < 255) → PNG, since JPEG has no
 *    alpha; quantised to a palette PNG when it would exceed ALPHA_PNG_BUDGET_BYTES.
 * 2. A JPEG source → JPEG (q85): it is already lossy, and PNG would only inflate it.
 * 3. Anything else (PNG, GIF, BMP, TIFF, WebP) → PNG, which keeps text,
 *    screenshots and diagrams exact; but when that PNG exceeds PNG_BUDGET_BYTES
 *    the content is photo-like (noise does not compress losslessly), so JPEG
 *    q85 is used if it comes out smaller.
 */
export async function normaliseImage(bytes: Buffer, format: SourceFormat): Promise<NormalisedImage> {
  const { default: sharp } = await import("sharp");
  let input: import("sharp").Sharp;
  let frames = 1;
  let sourceWidth: number;
  let sourceHeight: number;
  if (format === "bmp") {
    const bmp = await decodeBmp(bytes);
    input = sharp(bmp.data, { raw: { width: bmp.width, height: bmp.height, channels: 4 } });
    sourceWidth = bmp.width;
    sourceHeight = bmp.height;
  } else {
    // Lenient like an image viewer: a slightly damaged file still shows.
    const animated = format === "gif" || format === "webp" || format === "tiff";
    const options = { failOn: "error" as const, ...(animated ? { pages: 1, page: 0 } : {}) };
    const meta = await sharp(bytes, options).metadata();
    frames = meta.pages ?? 1;
    sourceWidth = meta.autoOrient?.width ?? meta.width ?? 0;
    sourceHeight = meta.autoOrient?.height ?? meta.height ?? 0;
    input = sharp(bytes, options).rotate();
  }

  const { data: raw, info } = await input
    .resize({ width: MAX_EDGE, height: MAX_EDGE, fit: "inside", withoutEnlargement: true })
    .toColourspace("srgb")
    .raw({ depth: "uchar" })
    .toBuffer({ resolveWithObject: true });
  const alpha = info.channels === 4 && usesAlpha(raw);
  const base = () => {
    const img = sharp(raw, { raw: { width: info.width, height: info.height, channels: info.channels } });
    return info.channels === 4 && !alpha ? img.removeAlpha() : img;
  };
  const png = () => base().png().toBuffer();
  const jpeg = () => base().jpeg({ quality: JPEG_QUALITY }).toBuffer();

  let mediaType: NormalisedImage["mediaType"] = "image/png";
  let data: Buffer;
  if (alpha) {
    data = await png();
    if (data.length > ALPHA_PNG_BUDGET_BYTES) data = await base().png({ palette: true }).toBuffer();
  } else if (format === "jpeg") {
    mediaType = "image/jpeg";
    data = await jpeg();
  } else {
    data = await png();
    if (data.length > PNG_BUDGET_BYTES) {
      const smaller = await jpeg();
      if (smaller.length < data.length) {
        mediaType = "image/jpeg";
        data = smaller;
      }
    }
  }
  return { mediaType, data, width: info.width, height: info.height, sourceWidth, sourceHeight, frames, alpha };
}

/** Any pixel not fully opaque in 4-channel 8-bit data. */
function usesAlpha(rgba: Buffer): boolean {
  for (let i = 3; i < rgba.length; i += 4) if (rgba[i] !== 255) return true;
  return false;
}

/**
 * BMP through bmp-ts, to RGBA. bmp-ts's `toRGBA` option is ignored by its
 * palette (1/4/8-bit) decoders, so it is left off: every non-RLE depth then
 * comes out as A,B,G,R, which is reordered here. Its RLE decoders misplace
 * bytes in either mode, so RLE files are decoded by bmp-rle.ts. Alpha is real only for
 * 16/32-bit (bmp-ts gives 255 there when the file has no alpha mask); lower
 * depths get 0, and a 32-bit file whose alpha is 0 everywhere is an old
 * writer's "unused" byte, so both count as opaque.
 */
async function decodeBmp(bytes: Buffer): Promise<{ width: number; height: number; data: Buffer }> {
  const compression = bytes.length >= 34 ? bytes.readUInt32LE(30) : 0;
  if (compression === BI_RLE8 || compression === BI_RLE4) return decodeRleBmp(bytes);
  const bmp = await import("bmp-ts");
  const decoded = bmp.decode(bytes);
  const { width, height, data: abgr } = decoded;
  const bitPP = decoded.bitPP;
  const realAlpha = bitPP === 16 || bitPP === 32;
  const out = Buffer.alloc(width * height * 4);
  let anyAlpha = false;
  for (let i = 0; i < out.length; i += 4) {
    out[i] = abgr[i + 3]!;
    out[i + 1] = abgr[i + 2]!;
    out[i + 2] = abgr[i + 1]!;
    const a = realAlpha ? abgr[i]! : 255;
    out[i + 3] = a;
    if (a !== 0) anyAlpha = true;
  }
  if (!anyAlpha) for (let i = 3; i < out.length; i += 4) out[i] = 255;
  return { width, height, data: out };
}
