// Read before edit: an edit made from
// an old or imagined picture of a file silently clobbers what changed since.
// The guard remembers the sha256 of each file as the model last saw it — a
// call that read it whole or in part (a read, one simple single-file shell
// read: what its tool says it reads), or its own successful change — and
// checks it before a tool changes an existing file.
//
// block: `ERROR: stale_file: read PATH first`, nothing runs.
// warn:  the change runs; a WARNING line is appended to its result.
//
// Any successful read counts, including a partial one (offset/limit): the
// hash is always of the whole file, so what matters is that the model looked
// at the current version. New files need no read.

import type { Guard, GuardCall } from "../../core/guards/types.js";
import type { FileSystem } from "../../core/services.js";
import type { ToolResult } from "../../core/tool-types.js";
import { CHANGES } from "../../core/guards/types.js";
import { appendNote } from "../../core/display-text.js";
import { hashFile } from "../lib/file-hash.js";
import { resolveInCwd } from "../lib/paths.js";

type StaleFileMode = "warn" | "block";

export interface StaleFileOptions {
  mode: StaleFileMode;
  fs: FileSystem;
}

const staleBlockText = (paths: readonly string[]) => `ERROR: stale_file: read ${paths.join(", ")} first`;

/** Opens with the block text's words (`read PATH first`), as the reference's warning does, then says what happened. */
function staleWarningText(paths: readonly string[], applied: boolean): string {
  const which = paths.length === 1 ? "it changed since it was last read (or was never read)" : "they changed since they were last read (or were never read)";
  const head = `WARNING: stale_file: read ${paths.join(", ")} first: ${which}`;
  return applied ? `${head}; the change was applied to the current content — read it to check the result.` : `${head}; read it again before retrying.`;
}

interface Located {
  /** Real path: the key, so two spellings of one file share a hash. */
  abs: string;
  /** Repository-relative, as the model is shown it. */
  display: string;
}

export function createStaleFileGuard(opts: StaleFileOptions): Guard {
  const { fs, mode } = opts;
  /** Real path → sha256 of the bytes the model last saw. */
  const seen = new Map<string, string>();
  /** warn mode: call id → the stale paths to name after the call. */
  const pending = new Map<string, string[]>();

  const locate = async (cwd: string, p: string): Promise<Located | undefined> => {
    const where = await resolveInCwd(fs, cwd, p);
    // A path that escapes the task directory is the handler's to refuse.
    return where.ok ? { abs: where.abs, display: where.display } : undefined;
  };

  const hashOf = async (abs: string): Promise<string | undefined> => {
    try {
      if (!(await fs.stat(abs)).isFile()) return undefined;
      return await hashFile(fs, abs);
    } catch {
      return undefined; // missing: nothing to be stale about
    }
  };

  const remember = async (cwd: string, p: string): Promise<void> => {
    const where = await locate(cwd, p);
    if (!where) return;
    const hash = await hashOf(where.abs);
    if (hash === undefined) seen.delete(where.abs);
    else seen.set(where.abs, hash);
  };

  /**
   * Paths the call read or changed, whose current bytes the model now knows:
   * all of a success's; of a failure, only a read its exit status still
   * made (a one-file search that found nothing). Tools change nothing when
   * they fail.
   */
  const observed = (call: GuardCall, result: ToolResult): string[] => {
    if (result.ok) return call.touches.map((t) => t.path);
    const exit = result.display?.kind === "command" ? result.display.exitCode : undefined;
    return call.touches.filter((t) => t.readOnExit !== undefined && t.readOnExit === exit).map((t) => t.path);
  };

  return {
    name: "stale_file",

    async before(call, ctx) {
      const stale: string[] = [];
      for (const t of call.touches) {
        // A new file needs no read, and reading is what makes a file known.
        if (t.as === "creates" || !CHANGES.has(t.as)) continue;
        const where = await locate(ctx.cwd, t.path);
        if (!where) continue;
        const now = await hashOf(where.abs);
        if (now === undefined) continue; // a new file (write) needs no read
        if (seen.get(where.abs) !== now && !stale.includes(where.display)) stale.push(where.display);
      }
      if (stale.length === 0) return undefined;
      if (mode === "block") return staleBlockText(stale);
      pending.set(call.callId, stale);
      return undefined;
    },

    async after(call, result, ctx): Promise<ToolResult> {
      const stale = pending.get(call.callId);
      pending.delete(call.callId);
      for (const p of observed(call, result)) await remember(ctx.cwd, p);
      if (!stale) return result;
      const warning = staleWarningText(stale, result.ok);
      const display = appendNote(result.display, warning);
      return { ...result, modelText: `${result.modelText}\n${warning}`, ...(display ? { display } : {}) };
    },
  };
}
