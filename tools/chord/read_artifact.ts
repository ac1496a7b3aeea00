// Chord `read_artifact` (digest 2.5): one page of a session artifact by its
// session-relative path (`path`, or its alias `rel_path`), e.g.
// artifacts/report.md or a ResultRef's rel_path. offset is a 0-based count of
// lines to skip and limit is 1..2000 lines (default 2000). The header names
// the lines shown, the total and the sha256 of the whole artifact;
// expected_sha256 refuses an artifact that changed since its ref was made.

import { z } from "zod";
import { fail, ok, type ToolHandler } from "../../core/tool-types.js";
import { splitLines } from "../lib/text-file.js";
import { ArtifactError, resolveArtifactPath, sha256Hex } from "../lib/chord/artifact-store.js";
import { READ_BUDGET_BYTES } from "./read.js";

export const ARTIFACT_READ_MAX_LINES = 2000;

export const readArtifactSchema = z.object({
  path: z.string().optional(),
  rel_path: z.string().optional(),
  id: z.string().optional(),
  offset: z.number().int().min(0).optional(),
  limit: z.number().int().min(1).max(ARTIFACT_READ_MAX_LINES).optional(),
  expected_sha256: z.string().optional(),
});

export const readArtifactTool: ToolHandler<typeof readArtifactSchema> = {
  id: "read_artifact",
  schema: readArtifactSchema,
  readOnly: true,
  async run(args, ctx) {
    const byPath = args.path?.trim() ?? "";
    const byAlias = args.rel_path?.trim() ?? "";
    if (byPath && byAlias && byPath !== byAlias) return fail("path and rel_path name different artifacts; give one of them");
    const expected = args.expected_sha256?.trim().toLowerCase();
    if (expected !== undefined && expected !== "" && !/^[0-9a-f]{64}$/.test(expected)) {
      return fail("expected_sha256 must be a 64-character hexadecimal SHA-256 digest");
    }
    let bytes: Buffer;
    try {
      const abs = await resolveArtifactPath(ctx.services.fs, ctx.sessionDir, byPath || byAlias);
      bytes = await ctx.services.fs.readFile(abs);
    } catch (err) {
      if (err instanceof ArtifactError) return fail(err.message);
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "EISDIR") return fail(`${byPath || byAlias} is a directory, not an artifact`);
      return fail(`cannot read the artifact: ${(err as Error).message}`);
    }
    const digest = sha256Hex(bytes);
    if (expected && expected !== digest) return fail(`artifact digest mismatch: expected ${expected}, got ${digest}`);

    const lines = splitLines(bytes.toString("utf8").replace(/\r\n?/g, "\n"));
    const total = lines.length;
    const offset = args.offset ?? 0;
    const limit = args.limit ?? ARTIFACT_READ_MAX_LINES;
    if (offset > total) return fail(`offset ${offset} is past the end of the artifact (${total} lines)`);
    const picked: string[] = [];
    let used = 0;
    let cut = false;
    for (let n = offset; n < Math.min(offset + limit, total); n++) {
      const cost = Buffer.byteLength(lines[n]!) + 1;
      if (used + cost > READ_BUDGET_BYTES) {
        cut = true;
        break;
      }
      picked.push(lines[n]!);
      used += cost;
    }
    const range = picked.length ? `${offset + 1}-${offset + picked.length}` : "none";
    const header = `ARTIFACT_RESULT lines=${range} total=${total} sha256=${digest}${cut ? " truncated=budget" : ""}`;
    return ok(picked.length ? `${header}\n${picked.join("\n")}` : header);
  },
};
