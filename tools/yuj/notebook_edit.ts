// `notebook_edit` (Yuj): replace the whole source of one code or
// markdown cell of a Jupyter notebook, selected by cell_index or cell_id.
// old_source must be the cell's complete current source, so an edit made from
// an old read fails instead of clobbering the cell. Only the bytes of that one
// source value change: cell order, ids, metadata, outputs, attachments, the
// file's indentation, escaping, BOM and line endings all stay as they were.

import { z } from "zod";
import { fail, MUTATES, ok, type ToolHandler } from "../../core/tool-types.js";
import { cellDiff, cellLabel, findCell, renderSource, type CellSelector } from "../lib/notebook.js";
import { tooLargeToChange } from "../lib/file-limits.js";
import { echoPath, readExistingFile } from "../lib/paths.js";
import { yujPaths } from "../lib/file-access.js";
import { atomicWriteChecked } from "../lib/pinned-fs.js";
import { replacePreview } from "../lib/previews.js";
import { str } from "../lib/view.js";
import { pathSpellingError } from "../lib/path-spelling.js";

export const notebookEditSchema = z.object({
  path: z.string(),
  old_source: z.string(),
  new_source: z.string(),
  // No minimum here: a negative index reaches the handler, which names the valid range
  // ("outside the notebook cell range", as the reference words it) instead of a bare bound.
  cell_index: z.number().int().optional(),
  cell_id: z.string().optional(),
});

/** Up to this many characters of a cell's current source are quoted back on a stale old_source. */
const QUOTE_LIMIT = 2000;

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * Exactly one selector. An empty cell_id counts as absent: nbformat ids are
 * never empty, and some models send "" for an optional string they do not use.
 */
function selectorOf(args: { cell_index?: number | undefined; cell_id?: string | undefined }): CellSelector | string {
  const hasId = args.cell_id !== undefined && args.cell_id !== "";
  if (args.cell_index !== undefined && hasId) {
    return "ERROR: pass exactly one of cell_index or cell_id, not both. Use cell_id when the notebook has cell ids, else cell_index.";
  }
  if (args.cell_index !== undefined) return { index: args.cell_index };
  if (hasId) return { id: args.cell_id! };
  return "ERROR: notebook_edit needs exactly one cell selector: pass cell_index (0-based) or cell_id of the cell to change.";
}

export const notebookEditTool: ToolHandler<typeof notebookEditSchema> = {
  id: "notebook_edit",
  schema: notebookEditSchema,
  effects: MUTATES,
  touchKinds: new Set(["updates"]),
  touches: (args) => [{ path: args.path, as: "updates" }],
  // A notebook cell edit is an edit: rules for edit (and its family) govern it.
  permissions: { family: "edit" },
  view: {
    card: "expanded",
    preview: (args, facts) => replacePreview(str(args, "path"), str(args, "old_source"), str(args, "new_source"), facts.cwd),
  },
  async run(args, ctx) {
    const spelling = await pathSpellingError(ctx.services.fs, ctx.cwd, args.path);
    if (spelling) return fail(spelling);
    const selector = selectorOf(args);
    if (typeof selector === "string") return fail(selector);
    const { fs } = ctx.services;
    // An absolute path inside the project is named as the model reads it everywhere else: relative.
    const shown = echoPath(ctx.cwd, args.path);
    const file = await readExistingFile(fs, ctx.cwd, args.path, {
      verb: "edit",
      directory: `ERROR: cannot edit ${shown}: it is a directory`,
      forbidNewline: true,
      write: { ownDirs: ctx.services.ownDirs },
      access: yujPaths(ctx, "write"),
      tooLarge: tooLargeToChange("edit", shown),
    });
    if (!file.ok) return fail(file.error);
    // Only a Jupyter notebook: a JSON file of another kind would be rewritten as if it were one.
    if (!/\.ipynb$/i.test(file.abs)) {
      return fail(`ERROR: notebook_edit needs a .ipynb path: ${shown} is not a Jupyter notebook. Use edit to change other files.`);
    }

    let text: string;
    try {
      // The BOM stays in the text, so the splice below writes it back unchanged.
      text = utf8.decode(file.bytes);
    } catch {
      return fail(`ERROR: ${shown} is not a valid notebook: it is not UTF-8 text. notebook_edit edits Jupyter notebooks (.ipynb).`);
    }
    const found = findCell(text, selector, shown);
    if (!found.ok) return fail(found.error);
    const { cell } = found;
    const label = cellLabel(cell);

    if (args.old_source !== cell.source) {
      const quote =
        cell.source.length <= QUOTE_LIMIT ? `\nCurrent source of ${label}:\n${cell.source}` : "";
      return fail(
        `ERROR: stale source: old_source does not match the current source of ${label} in ${shown}. ` +
          `Pass the cell's complete current source as old_source (read ${shown} again if it may have changed).${quote}`,
      );
    }

    const { offset, length } = cell.node;
    const after = text.slice(0, offset) + renderSource(text, cell.node, args.new_source) + text.slice(offset + length);
    if (after !== text) {
      try {
        await atomicWriteChecked(fs, file.abs, Buffer.from(after, "utf8"));
      } catch (err) {
        return fail(`ERROR: cannot edit ${shown}: ${(err as Error).message}`);
      }
    }
    // The reference's wording: `OK: updated code cell id='calc' in nb.ipynb`, and for a no-op
    // `OK: code cell id='calc' in nb.ipynb already has the requested source; no file change`.
    const ref = `${cell.cellType} cell ${cell.id === undefined ? `index=${cell.index}` : `id='${cell.id}'`} in ${shown}`;
    const status = after === text ? `OK: ${ref} already has the requested source; no file change` : `OK: updated ${ref}`;
    const hunks = cellDiff(cell.source, args.new_source);
    return ok(status, { kind: "diff", files: [{ path: `${file.display} ${label}`, op: "update", hunks }], note: status });
  },
};
