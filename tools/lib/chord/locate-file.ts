// The first step Chord's read and view_image share: resolve the path inside
// the working directory and stat it, answering in Chord's own words when the
// path escapes, is a directory, is unreadable or is missing (with a guess at
// what was meant).

import type { ToolContext } from "../../../core/tool-types.js";
import { didYouMeanList, echoPath, resolveInCwd } from "../paths.js";
import { chordPaths } from "../file-access.js";
import { deviceRefusal, plain } from "./observations.js";

export type Located = { ok: true; abs: string; size: number } | { ok: false; error: string };

/** `directory` is the whole error for a directory: each tool says what to use instead. */
export async function locateFile(ctx: ToolContext, input: string, directory: string): Promise<Located> {
  const { fs } = ctx.services;
  // `~` and paths outside the project resolve (the permission rules judge them), the
  // session's saved output is readable, and hidden paths are not.
  const where = await resolveInCwd(fs, ctx.cwd, input, chordPaths(ctx, "read"));
  if (!where.ok) return { ok: false, error: deviceRefusal(plain(where.error), "read") };
  try {
    const st = await fs.stat(where.abs);
    if (st.isDirectory()) return { ok: false, error: directory };
    return { ok: true, abs: where.abs, size: st.size };
  } catch (err) {
    const shown = echoPath(ctx.cwd, input, where.cwdReal);
    if ((err as NodeJS.ErrnoException).code === "EACCES") return { ok: false, error: `permission denied: ${shown}` };
    return { ok: false, error: `file not found: ${shown}${await didYouMeanList(fs, ctx.cwd, input)}` };
  }
}
