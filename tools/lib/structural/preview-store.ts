// What each rewrite preview of a session was built from, kept in the
// session's folder under its preview hash. A hash cannot be undone, so when
// structural_edit's expected_sha256 no longer matches, this record is how it
// can say what changed since the preview (the file, the query, the
// replacement…) instead of only "stale". A hash with no record here is
// simply stale (another session's, or mistyped).

import * as path from "node:path";
import type { ToolContext } from "../../../core/tool-types.js";
import { atomicWrite } from "../../../core/atomic-write.js";

export interface PreviewRecord {
  path: string;
  language: string;
  query: string;
  replacement: string;
  file_sha256: string;
}

const dirOf = (sessionDir: string) => path.join(sessionDir, "structural-previews");

const isHash = (s: string) => /^[0-9a-f]{64}$/.test(s);

export async function savePreview(ctx: ToolContext, hash: string, record: PreviewRecord): Promise<void> {
  const { fs } = ctx.services;
  try {
    await atomicWrite(fs, path.join(dirOf(ctx.sessionDir), `${hash}.json`), `${JSON.stringify(record)}\n`, { createParents: true });
  } catch {
    // Only the edit's explanation of a stale hash depends on it.
  }
}

export async function loadPreview(ctx: ToolContext, hash: string): Promise<PreviewRecord | undefined> {
  if (!isHash(hash)) return undefined;
  try {
    const parsed = JSON.parse(await ctx.services.fs.readFile(path.join(dirOf(ctx.sessionDir), `${hash}.json`), "utf8")) as PreviewRecord;
    return typeof parsed.query === "string" ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** What differs between a preview and the call now, most telling first. */
export function whatChanged(
  record: PreviewRecord,
  now: { path: string; language: string; query: string; replacement: string; file_sha256: string },
): { kind: string; text: string } | undefined {
  if (record.path !== now.path) return { kind: "path_changed", text: `that preview was for ${record.path}, not ${now.path}` };
  if (record.language !== now.language) return { kind: "language_changed", text: `that preview used language ${record.language}, not ${now.language}` };
  if (record.query !== now.query) return { kind: "query_changed", text: "the query differs from the preview's" };
  if (record.replacement !== now.replacement) return { kind: "replacement_changed", text: "the replacement differs from the preview's" };
  if (record.file_sha256 !== now.file_sha256) {
    return { kind: "file_changed", text: `${now.path} changed since the preview (sha256 ${record.file_sha256.slice(0, 12)}… then, ${now.file_sha256.slice(0, 12)}… now)` };
  }
  return undefined;
}
