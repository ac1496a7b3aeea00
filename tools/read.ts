// `read`: a text file with `N: text` line numbers (digest 1.4). offset is a
// 0-based count of lines to skip, display numbering is 1-based, limit=0 means
// the whole rest of the file (the core bounds the size centrally).

import { z } from "zod";
import { fail, ok, type ToolHandler } from "../core/tool-types.js";
import { readExistingFile } from "./lib/paths.js";
import { decodeText, splitLines } from "./lib/text-file.js";

export const readSchema = z.object({
  path: z.string(),
  offset: z.number().int().optional(),
  limit: z.number().int().optional(),
});

const reminder = (text: string) => `<system-reminder>${text}</system-reminder>`;

export const readTool: ToolHandler<typeof readSchema> = {
  id: "read",
  schema: readSchema,
  readOnly: true,
  async run(args, ctx) {
    const offset = args.offset ?? 0;
    const limit = args.limit ?? 0;
    if (offset < 0) return fail(`ERROR: offset must be >= 0, got ${offset}`);
    if (limit < 0) return fail(`ERROR: limit must be >= 0, got ${limit}`);

    const shown = args.path;
    const file = await readExistingFile(ctx.services.fs, ctx.cwd, args.path, {
      verb: "read",
      directory: `ERROR: ${shown} is a directory — use glob to list contents.`,
    });
    if (!file.ok) return fail(file.error);
    const { bytes } = file;
    if (bytes.length === 0) return ok(reminder(`File ${shown} exists but is empty (0 bytes).`));

    const decoded = decodeText(bytes);
    if (!decoded) {
      return fail(
        `ERROR: file ${shown} is not UTF-8 text (use bash with \`file ${shown}\` or \`xxd\` to inspect bytes).`,
      );
    }

    const lines = splitLines(decoded.text);
    const total = lines.length;
    if (offset > 0 && offset >= total) {
      return ok(
        reminder(
          `Read offset ${offset} is past EOF for ${shown} (file has ${total} lines). ` +
            "No content returned — call read with a smaller offset to inspect the file.",
        ),
      );
    }

    const slice = limit > 0 ? lines.slice(offset, offset + limit) : lines.slice(offset);
    let text = slice.map((line, i) => `${offset + i + 1}: ${line}`).join("\n");
    if (limit > 0 && offset + limit < total) {
      text +=
        "\n\n" +
        reminder(
          `Read returned the first ${slice.length} lines of ${shown}. ` +
            "The file is longer — re-read with a higher limit or a specific offset to see more.",
        );
    }
    return ok(text);
  },
};
