// Where the full text of a cut result is kept, and who may open it. A result
// that was too long for the model names a saved file instead of losing the
// rest; that file lives in the session's folder (never in the project, so it
// shows up in no search, diff or commit), and the read-only file tools are
// allowed to open exactly those folders besides the project.

import * as path from "node:path";
import type { ToolContext } from "../../core/tool-types.js";
import { TOOL_OUTPUT_DIR } from "../../core/session.js";
import { atomicWrite } from "../../core/atomic-write.js";

/** The session folders holding saved output: cut tool results, and every command's log. */
const SAVED_OUTPUT_DIRS = [TOOL_OUTPUT_DIR, "jobs"] as const;

/** Absolute folders of saved output that read and grep may open besides the project. */
export function savedOutputRoots(sessionDir: string): string[] {
  return SAVED_OUTPUT_DIRS.map((dir) => path.join(sessionDir, dir));
}

/** Saves `text` as `<session>/tool-output/<stem>-<call id>.log` and returns its absolute path. */
export async function saveFullOutput(ctx: Pick<ToolContext, "services" | "sessionDir" | "callId">, stem: string, text: string): Promise<string> {
  const name = `${stem}-${ctx.callId}`.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 100);
  const file = path.join(ctx.sessionDir, TOOL_OUTPUT_DIR, `${name}.log`);
  await atomicWrite(ctx.services.fs, file, text, { createParents: true });
  return file;
}
