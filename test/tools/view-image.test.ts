// view_image on real files: images are made with sharp (and BMPs written by
// hand, byte by byte) in a temporary task directory, loaded through the
// handler, and the attached image is decoded again to check size, format and
// pixels.

import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { matchTarget } from "../../core/permissions/engine.js";
import { catalogOf } from "../permissions/support.js";
import type { ToolResult } from "../../core/tool-types.js";
import { viewImageTool } from "../../tools/chord/view_image.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
});
afterEach(() => t.cleanup());

const view = (path: string, label?: string) =>
  viewImageTool.run(label === undefined ? { path } : { path, label }, t.ctx);

/** The attached image, decoded: its format, size, channels and a pixel reader. */
async function attached(res: ToolResult) {
  expect(res.ok, res.modelText).toBe(true);
  expect(res.images).toHaveLength(1);
  const img = res.images![0]!;
  const bytes = Buffer.from(img.data, "base64");
  const meta = await sharp(bytes).metadata();
  const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
  const pixel = (x: number, y: number) => [...data.subarray((y * info.width + x) * info.channels, (y * info.width + x + 1) * info.channels)];
  return { img, meta, info, pixel };
}

const solid = (width: number, height: number, background: { r: number; g: number; b: number; alpha?: number }) =>
  sharp({ create: { width, height, channels: background.alpha === undefined ? 3 : 4, background } });

/** A photo-like picture: smooth gradients plus a little noise. */
function photoRaw(width: number, height: number): Buffer {
  const buf = Buffer.alloc(width * height * 3);
  let seed = 7;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      const n = (seed >> 16) % 24;
      const i = (y * width + x) * 3;
      buf[i] = Math.min(255, Math.floor((x / width) * 230) + n);
      buf[i + 1] = Math.min(255, Math.floor((y / height) * 230) + n);
      buf[i + 2] = Math.min(255, 120 + n);
    }
  }
  return buf;
}

/** Two frames, red then blue, as an animated image (or multi-page TIFF). */
async function twoFrames(format: "gif" | "webp" | "tiff"): Promise<Buffer> {
  const red = await solid(40, 30, { r: 255, g: 0, b: 0 }).png().toBuffer();
  const blue = await solid(40, 30, { r: 0, g: 0, b: 255 }).png().toBuffer();
  return sharp([red, blue], { join: { animated: true } })[format]().toBuffer();
}

// --- BMPs written by hand -------------------------------------------------

function fileHeader(fileSize: number, pixelOffset: number): Buffer {
  const h = Buffer.alloc(14);
  h.write("BM", 0, "latin1");
  h.writeUInt32LE(fileSize, 2);
  h.writeUInt32LE(pixelOffset, 10);
  return h;
}

function infoHeader(size: number, width: number, height: number, bitPP: number, compression: number, colors = 0): Buffer {
  const h = Buffer.alloc(size);
  h.writeUInt32LE(size, 0);
  h.writeInt32LE(width, 4);
  h.writeInt32LE(height, 8);
  h.writeUInt16LE(1, 12);
  h.writeUInt16LE(bitPP, 14);
  h.writeUInt32LE(compression, 16);
  h.writeUInt32LE(colors, 32);
  return h;
}

/** 2x2, 24-bit BGR, bottom-up rows padded to 4 bytes: top red, green; bottom blue, white. */
function bmp24(): Buffer {
  const rows = Buffer.from([
    // bottom row: blue, white, 2 bytes padding
    0xff, 0x00, 0x00, 0xff, 0xff, 0xff, 0, 0,
    // top row: red, green
    0x00, 0x00, 0xff, 0x00, 0xff, 0x00, 0, 0,
  ]);
  return Buffer.concat([fileHeader(54 + rows.length, 54), infoHeader(40, 2, 2, 24, 0), rows]);
}

/** 2x1, 32-bit with a V4 header and an alpha mask: opaque orange, half-transparent teal. */
function bmp32alpha(): Buffer {
  const info = infoHeader(108, 2, 1, 32, 3);
  info.writeUInt32LE(0x00ff0000, 40); // red mask
  info.writeUInt32LE(0x0000ff00, 44); // green
  info.writeUInt32LE(0x000000ff, 48); // blue
  info.writeUInt32LE(0xff000000, 52); // alpha
  const px = Buffer.alloc(8);
  px.writeUInt32LE(0xffff8000, 0); // A=ff R=ff G=80 B=00
  px.writeUInt32LE(0x80008080, 4); // A=80 R=00 G=80 B=80
  return Buffer.concat([fileHeader(14 + 108 + 8, 14 + 108), info, px]);
}

/** 2x1, 32-bit BI_RGB: the fourth byte is unused (0), so the image is opaque. */
function bmp32plain(): Buffer {
  const px = Buffer.from([0x10, 0x20, 0x30, 0x00, 0xf0, 0xe0, 0xd0, 0x00]);
  return Buffer.concat([fileHeader(54 + 8, 54), infoHeader(40, 2, 1, 32, 0), px]);
}

/** 2x1, 8-bit with a 2-colour palette (index 0 purple, 1 yellow). */
function bmp8(): Buffer {
  const palette = Buffer.from([0x80, 0x00, 0x80, 0, 0x00, 0xff, 0xff, 0]);
  const row = Buffer.from([1, 0, 0, 0]);
  return Buffer.concat([fileHeader(62 + 4, 62), infoHeader(40, 2, 1, 8, 0, 2), palette, row]);
}

/** The palette shared by the RLE pictures: 0 black, 1 red, 2 green, 3 blue. */
const RLE_PALETTE = Buffer.from([0, 0, 0, 0, 0, 0, 0xff, 0, 0, 0xff, 0, 0, 0xff, 0, 0, 0]);

/**
 * 5x2, 8-bit RLE. Bottom row: a run of two red, then three literal pixels
 * (green, blue, red; padded to an even byte count). Top row: a run of two
 * blue, then the row ends early, so its last three pixels are never set.
 */
function bmpRle8(): Buffer {
  const data = Buffer.from([2, 1, 0, 3, 2, 3, 1, 0, 0, 0, 2, 3, 0, 0, 0, 1]);
  const offset = 14 + 40 + RLE_PALETTE.length;
  return Buffer.concat([fileHeader(offset + data.length, offset), infoHeader(40, 5, 2, 8, 1, 4), RLE_PALETTE, data]);
}

/**
 * 4x2, 4-bit RLE. Bottom row: a run of four alternating red/green (0x12).
 * Top row: three literal pixels (blue, black, red: 0x30 0x10, two bytes, an
 * even count), then a run of one green.
 */
function bmpRle4(): Buffer {
  const data = Buffer.from([4, 0x12, 0, 0, 0, 3, 0x30, 0x10, 1, 0x22, 0, 0, 0, 1]);
  const offset = 14 + 40 + RLE_PALETTE.length;
  return Buffer.concat([fileHeader(offset + data.length, offset), infoHeader(40, 4, 2, 4, 2, 4), RLE_PALETTE, data]);
}

describe("view_image decodes run-length-compressed BMP", () => {
  const red = [255, 0, 0, 255];
  const green = [0, 255, 0, 255];
  const blue = [0, 0, 255, 255];
  const black = [0, 0, 0, 255];
  const unset = [0, 0, 0, 0];

  it("RLE8: runs, literal pixels, and pixels a short row leaves transparent", async () => {
    await t.put({ "rle8.bmp": bmpRle8() });
    const res = await view("rle8.bmp");
    const { meta, pixel } = await attached(res);
    expect([meta.format, meta.width, meta.height]).toEqual(["png", 5, 2]);
    expect([0, 1, 2, 3, 4].map((x) => pixel(x, 1))).toEqual([red, red, green, blue, red]);
    expect([0, 1, 2, 3, 4].map((x) => pixel(x, 0))).toEqual([blue, blue, unset, unset, unset]);
    expect(res.modelText).toContain("source: BMP 5x2");
  });

  it("RLE4: runs alternate the two indexes of their byte, literals are padded to even bytes", async () => {
    await t.put({ "rle4.bmp": bmpRle4() });
    const { info, pixel } = await attached(await view("rle4.bmp"));
    expect(info.channels).toBe(3);
    expect([0, 1, 2, 3].map((x) => pixel(x, 1))).toEqual([red, green, red, green].map((c) => c.slice(0, 3)));
    expect([0, 1, 2, 3].map((x) => pixel(x, 0))).toEqual([blue, black, red, green].map((c) => c.slice(0, 3)));
  });
});

describe("view_image loads and normalises", () => {
  it("scales a 3000x1500 PNG with alpha to 2000x1000 and keeps it PNG with alpha", async () => {
    await t.put({ "shot.png": await solid(3000, 1500, { r: 10, g: 200, b: 30, alpha: 0.5 }).png().toBuffer() });
    const res = await view("shot.png");
    const { img, meta, pixel } = await attached(res);
    expect(img.mediaType).toBe("image/png");
    expect(img.label).toBe("shot.png");
    expect([meta.format, meta.width, meta.height, meta.hasAlpha]).toEqual(["png", 2000, 1000, true]);
    expect(pixel(5, 5)[3]).toBeGreaterThan(120);
    expect(pixel(5, 5)[3]).toBeLessThan(135);
    expect(res.modelText).toMatch(
      /^Loaded image "shot\.png" into context\.\npath: shot\.png\nsource: PNG 3000x1500, \d+ bytes\nsent: PNG 2000x1000, \d+ bytes \(scaled down to fit 2000 px\)$/,
    );
  });

  it("keeps a JPEG photo JPEG, longest edge 2000, aspect kept", async () => {
    const jpeg = await sharp(photoRaw(2400, 1800), { raw: { width: 2400, height: 1800, channels: 3 } }).jpeg().toBuffer();
    await t.put({ "photo.jpg": jpeg });
    const { img, meta } = await attached(await view("photo.jpg", "holiday"));
    expect(img.mediaType).toBe("image/jpeg");
    expect(img.label).toBe("holiday");
    expect([meta.format, meta.width, meta.height]).toEqual(["jpeg", 2000, 1500]);
  });

  it("never upscales a small image", async () => {
    await t.put({ "tiny.png": await solid(10, 7, { r: 1, g: 2, b: 3 }).png().toBuffer() });
    const res = await view("tiny.png");
    const { meta } = await attached(res);
    expect([meta.width, meta.height]).toEqual([10, 7]);
    expect(res.modelText).not.toContain("scaled");
  });

  it("sends a photo-like lossless image as JPEG when its PNG would be large", async () => {
    const png = await sharp(photoRaw(1600, 1200), { raw: { width: 1600, height: 1200, channels: 3 } }).png().toBuffer();
    await t.put({ "render.png": png });
    const { img, meta } = await attached(await view("render.png"));
    expect(img.mediaType).toBe("image/jpeg");
    expect([meta.width, meta.height]).toEqual([1600, 1200]);
  });

  it.each(["gif", "webp"] as const)("shows the first frame of an animated %s", async (format) => {
    await t.put({ [`anim.${format}`]: await twoFrames(format) });
    const res = await view(`anim.${format}`);
    const { img, meta, pixel } = await attached(res);
    expect(img.mediaType).toBe("image/png");
    expect([meta.width, meta.height]).toEqual([40, 30]);
    const [r, g, b] = pixel(20, 15);
    expect(r).toBeGreaterThan(240);
    expect(g).toBeLessThan(15);
    expect(b).toBeLessThan(15);
    expect(res.modelText).toContain("(first of 2 frames)");
  });

  it("loads a TIFF, and the first page of a multi-page one", async () => {
    await t.put({ "one.tiff": await solid(300, 200, { r: 0, g: 255, b: 0 }).tiff({ compression: "lzw" }).toBuffer(), "two.tif": await twoFrames("tiff") });
    const one = await attached(await view("one.tiff"));
    expect([one.img.mediaType, one.meta.width, one.meta.height]).toEqual(["image/png", 300, 200]);
    expect(one.pixel(1, 1)).toEqual([0, 255, 0]);
    const two = await view("two.tif");
    const [r, g, b] = (await attached(two)).pixel(0, 0);
    expect([r! > 240, g! < 15, b! < 15]).toEqual([true, true, true]);
    expect(two.modelText).toContain("source: TIFF 40x30");
  });

  it("decodes a hand-written 24-bit BMP with the right colours and no alpha", async () => {
    await t.put({ "grid.bmp": bmp24() });
    const res = await view("grid.bmp");
    const { meta, info, pixel } = await attached(res);
    expect([meta.format, meta.width, meta.height, info.channels]).toEqual(["png", 2, 2, 3]);
    expect([pixel(0, 0), pixel(1, 0), pixel(0, 1), pixel(1, 1)]).toEqual([
      [255, 0, 0],
      [0, 255, 0],
      [0, 0, 255],
      [255, 255, 255],
    ]);
    expect(res.modelText).toContain("source: BMP 2x2");
  });

  it("keeps the alpha of a 32-bit BMP with an alpha mask", async () => {
    await t.put({ "a.bmp": bmp32alpha() });
    const { info, pixel } = await attached(await view("a.bmp"));
    expect(info.channels).toBe(4);
    expect(pixel(0, 0)).toEqual([255, 128, 0, 255]);
    expect(pixel(1, 0)).toEqual([0, 128, 128, 128]);
  });

  it("treats the unused fourth byte of a plain 32-bit BMP as opaque", async () => {
    await t.put({ "p.bmp": bmp32plain() });
    const { info, pixel } = await attached(await view("p.bmp"));
    expect(info.channels).toBe(3);
    expect([pixel(0, 0), pixel(1, 0)]).toEqual([
      [0x30, 0x20, 0x10],
      [0xd0, 0xe0, 0xf0],
    ]);
  });

  it("decodes a paletted 8-bit BMP", async () => {
    await t.put({ "pal.bmp": bmp8() });
    const { pixel } = await attached(await view("pal.bmp"));
    expect([pixel(0, 0), pixel(1, 0)]).toEqual([
      [255, 255, 0],
      [128, 0, 128],
    ]);
  });
});

describe("view_image refuses", () => {
  const ftyp = (major: string, ...compatible: string[]) => {
    const box = Buffer.alloc(16 + compatible.length * 4);
    box.writeUInt32BE(box.length, 0);
    box.write(`ftyp${major}`, 4, "latin1");
    compatible.forEach((b, i) => box.write(b, 16 + i * 4, "latin1"));
    return Buffer.concat([box, Buffer.alloc(64)]);
  };

  it("SVG, HEIC, HEIF and AVIF with the format and the way out", async () => {
    await t.put({
      "logo.svg": '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"></svg>\n',
      "drawing.txt": "<!-- a drawing -->\n<svg viewBox='0 0 1 1'/>",
      "img.heic": ftyp("heic", "mif1", "heic"),
      "img.heif": ftyp("mif1", "mif1"),
      "img.avif": ftyp("avif", "mif1", "avif"),
      "mif1avif.bin": ftyp("mif1", "mif1", "avif"),
    });
    expect(await view("logo.svg")).toEqual({
      ok: false,
      modelText:
        "SVG images are not supported: logo.svg is a vector drawing, not a bitmap. Read its markup as text with read, " +
        "or rasterise it to PNG first (e.g. rsvg-convert -o out.png logo.svg) and view that.",
    });
    expect((await view("drawing.txt")).modelText).toMatch(/^SVG images are not supported: drawing\.txt /);
    expect(await view("img.heic")).toEqual({
      ok: false,
      modelText:
        "HEIC images are not supported: img.heic. Convert it to PNG or JPEG first (e.g. magick img.heic out.png, or heif-convert) and view the converted file.",
    });
    expect((await view("img.heif")).modelText).toMatch(/^HEIF images are not supported: img\.heif\. Convert it to PNG or JPEG/);
    expect((await view("img.avif")).modelText).toMatch(/^AVIF images are not supported: img\.avif\./);
    expect((await view("mif1avif.bin")).modelText).toMatch(/^AVIF images are not supported/);
  });

  it("a missing file, a directory, a non-image, an empty path and a path outside cwd", async () => {
    await t.put({ "notes.txt": "hello\n", "pics/a.png": await solid(2, 2, { r: 0, g: 0, b: 0 }).png().toBuffer() });
    const missing = await view("nope.png");
    expect(missing.ok).toBe(false);
    expect(missing.modelText).toMatch(/^file not found: nope\.png/);
    expect(await view("pics")).toEqual({ ok: false, modelText: "pics is a directory; view_image takes one image file" });
    expect(await view("notes.txt")).toEqual({
      ok: false,
      modelText: "not a supported image: notes.txt (expected PNG, JPEG, WebP, GIF, BMP or TIFF; use read for text files)",
    });
    expect(await view(" ")).toEqual({ ok: false, modelText: "path is required" });
    // A path outside the project is resolved (the permission rules ask about it); a device never is.
    expect(await view("/etc/passwd")).toEqual({
      ok: false,
      modelText: "not a supported image: /etc/passwd (expected PNG, JPEG, WebP, GIF, BMP or TIFF; use read for text files)",
    });
    expect(await view("/dev/stdin")).toEqual({ ok: false, modelText: "cannot read blocked device path: /dev/stdin (file tools read and write regular files only)" });
  });

  it("a damaged image, naming its format", async () => {
    const png = await solid(50, 50, { r: 9, g: 9, b: 9 }).png().toBuffer();
    await t.put({ "cut.png": png.subarray(0, 40) });
    const res = await view("cut.png");
    expect(res.ok).toBe(false);
    expect(res.modelText).toMatch(/^cannot decode PNG image cut\.png: /);
  });
});

describe("view_image permissions", () => {
  it("is matched on its path like read", () => {
    const cwd = "/repo";
    const chord = catalogOf("chord");
    const target = (tool: string) => matchTarget({ tool, args: { path: "./img/../shot.png" }, cwd }, chord);
    expect(target("view_image")).toEqual(target("read"));
    expect(target("view_image")).toEqual({ kind: "path", values: ["shot.png"] });
  });
});
