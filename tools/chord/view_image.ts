// Chord `view_image`: load a local image into the conversation.
// The file is found the way `read` finds one (same cwd containment and
// errors; the permission gate matches its `path` like read's), recognised by
// its bytes, and normalised by tools/lib/image.ts. The image travels in the
// result's `images`; the text says what was loaded and what was sent.

import * as path from "node:path";
import { z } from "zod";
import { fail, INSPECTS, type ToolHandler } from "../../core/tool-types.js";
import { FORMAT_NAMES, MAX_EDGE, normaliseImage, sniffImage, unsupportedMessage } from "../lib/image.js";
import { locateFile } from "../lib/chord/locate-file.js";
import { readChecked } from "../lib/pinned-fs.js";

export const viewImageSchema = z.object({
  path: z.string(),
  label: z.string().optional(),
});

/** Larger files are refused before decoding: no sensible screenshot or photo is this big. */
export const VIEW_IMAGE_MAX_FILE_BYTES = 50 * 1024 * 1024;

const SUPPORTED = "PNG, JPEG, WebP, GIF, BMP or TIFF";

export const viewImageTool: ToolHandler<typeof viewImageSchema> = {
  id: "view_image",
  schema: viewImageSchema,
  effects: INSPECTS,
  touches: (args) => [{ path: args.path, as: "reads" }],
  view: { card: "foldable" },
  async run(args, ctx) {
    if (args.path.trim() === "") return fail("path is required");
    const { fs } = ctx.services;
    const shown = args.path;
    const where = await locateFile(ctx, args.path, `${shown} is a directory; view_image takes one image file`);
    if (!where.ok) return fail(where.error);
    const { size } = where;
    if (size > VIEW_IMAGE_MAX_FILE_BYTES) {
      return fail(`image file too large (${size} bytes, max ${VIEW_IMAGE_MAX_FILE_BYTES}): ${shown}`);
    }

    let bytes: Buffer;
    try {
      // Read as checked: a link swapped in since the path was resolved is refused, not followed.
      bytes = await readChecked(fs, where.abs);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "EACCES") return fail(`permission denied: ${shown}`);
      return fail(`cannot read ${shown}: ${(err as Error).message}`);
    }

    const sniffed = sniffImage(bytes, where.abs);
    if (sniffed.kind === "unsupported") return fail(unsupportedMessage(sniffed.format, shown));
    if (sniffed.kind === "unknown") {
      return fail(`not a supported image: ${shown} (expected ${SUPPORTED}; use read for text files)`);
    }

    let image;
    try {
      image = await normaliseImage(bytes, sniffed.format);
    } catch (err) {
      const why = (err as Error).message.split("\n")[0];
      return fail(`cannot decode ${FORMAT_NAMES[sniffed.format]} image ${shown}: ${why}`);
    }

    const label = args.label?.trim() || path.basename(where.abs);
    const sent = image.mediaType === "image/png" ? "PNG" : "JPEG";
    const notes: string[] = [];
    if (image.frames > 1) notes.push(`first of ${image.frames} frames`);
    if (image.width !== image.sourceWidth || image.height !== image.sourceHeight) {
      notes.push(`scaled down to fit ${MAX_EDGE} px`);
    }
    const text =
      // Chord's own confirmation first, then what yuj adds: where from, and what was sent.
      `Loaded image ${JSON.stringify(label)} into context.\n` +
      `path: ${shown}\n` +
      `source: ${FORMAT_NAMES[sniffed.format]} ${image.sourceWidth}x${image.sourceHeight}, ${size} bytes\n` +
      `sent: ${sent} ${image.width}x${image.height}, ${image.data.length} bytes` +
      (notes.length ? ` (${notes.join("; ")})` : "");
    return {
      ok: true,
      modelText: text,
      images: [{ mediaType: image.mediaType, data: image.data.toString("base64"), label }],
    };
  },
};
