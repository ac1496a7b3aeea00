// Chord `save_artifact` has two shapes that exclude each other:
// * filename + content (+ type, description, mime_type, mode): a session
//   artifact at artifacts/<filename> (a delegated worker's at
//   artifacts/subagents/<task_id>/<filename>), created (default; fails if it exists),
//   appended to (a new block after a blank line) or overwritten. Returns its
//   ArtifactRef as JSON.
// * result_type + result (a JSON object): an immutable, content-addressed
//   result at artifacts/results/<id>.json, returned as a ResultRef
//   {id, result_type, rel_path, sha256, size_bytes}. Saving the same result
//   again returns the same ref; the file is never rewritten.

import { z } from "zod";
import * as path from "node:path";
import type { FileSystem } from "../../core/services.js";
import { resultRefId, type ResultRef } from "../../core/orchestration/result-ref.js";
import { fail, ok, type ToolHandler, type ToolResult } from "../../core/tool-types.js";
import {
  ArtifactError,
  ARTIFACTS_DIR,
  RESULTS_DIR,
  artifactsRoot,
  canonicalJson,
  createExclusive,
  replaceAtomic,
  safeFilename,
  sha256Hex,
} from "../lib/chord/artifact-store.js";

export const RESULT_TYPE_MAX_BYTES = 256;
export const RESULT_MAX_BYTES = 10 * 1024 * 1024;

export const saveArtifactSchema = z.object({
  filename: z.string().optional(),
  content: z.string().optional(),
  type: z.string().optional(),
  description: z.string().optional(),
  mime_type: z.string().optional(),
  mode: z.enum(["create", "append", "overwrite"]).optional(),
  result_type: z.string().optional(),
  // Any JSON value, so that a list, a string or null is refused by name.
  result: z.unknown().optional(),
});

type Args = z.infer<typeof saveArtifactSchema>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const jsonKind = (v: unknown): string => (v === null ? "null" : Array.isArray(v) ? "an array" : `a ${typeof v}`);

/** The model gets the record as JSON; the view says what was saved where. */
function saved(record: { rel_path: string; size_bytes: number; sha256: string }): ToolResult {
  return ok(JSON.stringify(record), { kind: "text", text: `saved ${record.rel_path} (${record.size_bytes} bytes, sha256 ${record.sha256})` });
}

export const saveArtifactTool: ToolHandler<typeof saveArtifactSchema> = {
  id: "save_artifact",
  schema: saveArtifactSchema,
  // It writes the session's artifact store, never the project's files.
  effects: new Set(["converse"]),
  view: { card: "foldable" },
  async run(args, ctx) {
    // Every agent of a session writes into the session's one artifacts tree.
    const { sessionDir, folder } = ctx.orchestration?.artifacts ?? { sessionDir: ctx.sessionDir, folder: "" };
    try {
      if (args.result_type !== undefined || args.result !== undefined) {
        if (args.filename?.trim() || args.content?.trim() || args.mode !== undefined) {
          return fail("result_type/result cannot be combined with filename, content, or mode");
        }
        if (!args.result_type?.trim()) return fail("result_type is required when result is provided");
        if (args.result === undefined) return fail("result is required when result_type is provided");
        if (!isObject(args.result)) return fail(`result must be a JSON object, not ${jsonKind(args.result)}`);
        return saved(await saveResult(ctx.services.fs, sessionDir, args.result_type, args.result));
      }
      return saved(await saveNamed(ctx.services.fs, sessionDir, folder, args));
    } catch (err) {
      if (err instanceof ArtifactError) return fail(err.message);
      return fail(`cannot save the artifact: ${(err as Error).message}`);
    }
  },
};

async function saveNamed(fs: FileSystem, sessionDir: string, folder: string, args: Args) {
  const body = (args.content ?? "").replace(/\s+$/, "");
  if (body.trim() === "") throw new ArtifactError("content is required");
  const filename = safeFilename(args.filename ?? "");
  const root = await artifactsRoot(fs, sessionDir);
  const dir = path.join(root, folder);
  if (folder) await fs.mkdir(dir, { recursive: true });
  const abs = path.join(dir, filename);
  const existing = await fs.lstat(abs).catch(() => undefined);
  if (existing?.isSymbolicLink()) throw new ArtifactError(`artifact ${filename} is a symbolic link; it is not written through`);
  const rel = [ARTIFACTS_DIR, folder, filename].filter(Boolean).join("/");
  if (existing?.isDirectory()) throw new ArtifactError(`${rel} is a directory; choose another filename`);
  const mode = args.mode ?? "create";
  if (mode === "create") {
    try {
      await createExclusive(fs, abs, `${body}\n`);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "EEXIST") {
        throw new ArtifactError("artifact already exists; use mode=append or mode=overwrite to update it");
      }
      throw err;
    }
  } else if (mode === "append") {
    const before = existing ? await fs.readFile(abs, "utf8") : "";
    const sep = before === "" ? "" : before.endsWith("\n") ? "\n" : "\n\n";
    await replaceAtomic(fs, abs, `${before}${sep}${body}\n`);
  } else {
    await replaceAtomic(fs, abs, `${body}\n`);
  }
  const bytes = await fs.readFile(abs);
  return {
    id: filename.replace(/\.[^.]*$/, "") || filename,
    type: args.type?.trim() || "handoff_note",
    rel_path: rel,
    path: rel,
    ...(args.description?.trim() ? { description: args.description.trim() } : {}),
    mime_type: args.mime_type?.trim() || "text/markdown",
    size_bytes: bytes.length,
    sha256: sha256Hex(bytes),
  };
}

async function saveResult(
  fs: FileSystem,
  sessionDir: string,
  rawType: string,
  result: Record<string, unknown>,
): Promise<ResultRef> {
  const resultType = rawType.trim();
  if (Buffer.byteLength(resultType) > RESULT_TYPE_MAX_BYTES) {
    throw new ArtifactError(`result_type exceeds maximum size ${RESULT_TYPE_MAX_BYTES} bytes`);
  }
  const canonical = `${canonicalJson(result)}\n`;
  const size = Buffer.byteLength(canonical);
  if (size > RESULT_MAX_BYTES) throw new ArtifactError(`result exceeds maximum size ${RESULT_MAX_BYTES} bytes`);
  const digest = sha256Hex(canonical);
  const id = resultRefId(resultType, digest);
  const rel = `${RESULTS_DIR}/${id}.json`;
  await artifactsRoot(fs, sessionDir);
  const dir = path.join(sessionDir, RESULTS_DIR);
  await fs.mkdir(dir, { recursive: true });
  const abs = path.join(dir, `${id}.json`);
  try {
    await createExclusive(fs, abs, canonical);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    const present = await fs.readFile(abs).catch(() => undefined);
    if (!present || sha256Hex(present) !== digest) throw new ArtifactError(`immutable result path collision for ${id}`);
  }
  return { id, result_type: resultType, rel_path: rel, sha256: digest, size_bytes: size };
}
