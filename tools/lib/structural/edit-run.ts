// structural_edit's work: rebuild the rewrite the preview showed and write
// it only when its hash is still expected_sha256. Every refusal happens
// before the write, so a refused call leaves the file's bytes (and its
// mtime) as they were.

import { fail, ok, type ToolContext, type ToolResult } from "../../../core/tool-types.js";
import { atomicWrite } from "../../../core/atomic-write.js";
import { envelope, errorEnvelope, sha256Hex } from "./envelope.js";
import { loadPreview, whatChanged } from "./preview-store.js";
import { buildRewrite, type RewriteArgs } from "./rewrite-build.js";
import { errorDisplay, rewriteDisplay } from "./display.js";

export interface EditArgs extends RewriteArgs {
  expected_sha256: string;
}

const TOOL = "structural_edit";
const AGAIN = "Run structural_search with the same arguments and the replacement again, check its preview, and pass its new preview_sha256.";

const refuse = (kind: string, args: EditArgs, error: string): ToolResult =>
  fail(errorEnvelope(TOOL, kind, [["path", args.path], ["language", args.language]], `${error} Nothing was changed.`), errorDisplay(`${error} Nothing was changed.`));

export async function runEdit(args: EditArgs, ctx: ToolContext): Promise<ToolResult> {
  const expected = args.expected_sha256.trim().toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(expected)) {
    return refuse("bad_hash", args, "ERROR: expected_sha256 must be the 64-hex-digit preview_sha256 that structural_search returned with the replacement.");
  }
  const built = await buildRewrite(ctx, args);
  if (!built.ok) return refuse(built.kind, args, built.error);
  if (built.previewSha !== expected) {
    const record = await loadPreview(ctx, expected);
    const now = { path: built.display, language: built.language, query: args.query, replacement: args.replacement, file_sha256: built.beforeSha };
    const changed = record ? whatChanged(record, now) : undefined;
    return changed
      ? refuse(changed.kind, args, `ERROR: ${changed.kind.replace("_", " ")}: ${changed.text}, so this is not the change the preview showed. ${AGAIN}`)
      : refuse("stale_hash", args, `ERROR: stale hash: expected_sha256 is not the hash of this change as it is built now (no preview of this session has that hash). ${AGAIN}`);
  }
  if (built.edits.length === 0) return refuse("no_change", args, "ERROR: no match would change the file.");

  // The file may have changed while the change was built: check once more
  // just before the write.
  const current = await ctx.services.fs.readFile(built.abs).catch(() => undefined);
  if (!current || sha256Hex(current) !== built.beforeSha) {
    return refuse("file_changed", args, `ERROR: file changed: ${built.display} changed while the edit was prepared. ${AGAIN}`);
  }
  try {
    await atomicWrite(ctx.services.fs, built.abs, built.afterBytes);
  } catch (err) {
    const error = `ERROR: cannot write ${built.display}: ${(err as Error).message}`;
    return fail(errorEnvelope(TOOL, "write_error", [["path", built.display]], error), errorDisplay(error));
  }
  const text = envelope(
    TOOL,
    [["path", built.display], ["language", built.language], ["changes", built.edits.length], ["sha256_before", built.beforeSha], ["sha256_after", built.afterSha]],
    built.locations,
  );
  const n = built.edits.length;
  return ok(text, rewriteDisplay(built.display, built.diff, `OK: ${n} change${n === 1 ? "" : "s"} written`));
}
