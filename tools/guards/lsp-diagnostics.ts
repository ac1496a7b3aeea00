// Language-server feedback: with [lsp].enabled = true, a successful edit of
// a file some language server serves (edit, write, apply_patch, udiff,
// notebook_edit, structural_edit, and Chord's edit, write and apply_patch)
// gets that file's diagnostics, at [lsp].severity or above, appended to its
// result. The file is read as the edit (and the formatter, which runs
// first) left it, and the wait ends with the server's publication for that
// very text, never after a fixed pause; past [lsp].timeout_s the result
// says so. It is an after-guard: the edit handlers know nothing about it.

import type { Guard, GuardCall } from "../../core/guards/types.js";
import type { LspService } from "../../core/lsp/manager.js";
import type { SeverityName } from "../../core/lsp/config.js";
import type { FileSystem } from "../../core/services.js";
import type { ToolResult } from "../../core/tool-types.js";
import { resolveInCwd } from "../lib/paths.js";
import { diagnosticsReport } from "../lib/lsp-text.js";
import { FORMATTED_HANDLERS } from "./formatter.js";
import { mutationTargets, v4aTargets, type MutationTarget } from "./mutations.js";

export interface LspGuardOptions {
  fs: FileSystem;
  lsp: LspService;
  severity: SeverityName;
  timeoutS: number;
}

/** Past this a file is not sent to a server: it would only slow the edit down. */
const MAX_FILE_BYTES = 4 * 1024 * 1024;

/** The files a successful edit changed: Yuj's edit tools, then Chord's. */
function editedFiles(call: GuardCall): MutationTarget[] {
  if (FORMATTED_HANDLERS.has(call.handler)) return mutationTargets(call.handler, call.args) ?? [];
  const { path, patch } = call.args;
  if ((call.handler === "chord_edit" || call.handler === "chord_write") && typeof path === "string") return [{ path, kind: "update" }];
  if (call.handler === "chord_apply_patch" && typeof patch === "string") return v4aTargets(patch);
  return [];
}

export function createLspDiagnosticsGuard(opts: LspGuardOptions): Guard {
  const utf8 = new TextDecoder("utf-8", { fatal: true });

  /** The file's text, or undefined when it is gone, not a file, too large or not UTF-8. */
  const textOf = async (abs: string): Promise<string | undefined> => {
    try {
      const st = await opts.fs.stat(abs);
      if (!st.isFile() || st.size > MAX_FILE_BYTES) return undefined;
      return utf8.decode(await opts.fs.readFile(abs));
    } catch {
      return undefined;
    }
  };

  return {
    name: "lsp-diagnostics",

    async after(call, result, ctx): Promise<ToolResult> {
      if (!result.ok) return result;
      const seen = new Set<string>();
      const reports: string[] = [];
      for (const target of editedFiles(call)) {
        if (target.kind === "delete") continue;
        const where = await resolveInCwd(opts.fs, ctx.cwd, target.path);
        if (!where.ok || seen.has(where.abs)) continue;
        seen.add(where.abs);
        if (!opts.lsp.serverFor(where.abs)) continue;
        const text = await textOf(where.abs);
        if (text === undefined) continue;
        const answer = await opts.lsp.diagnostics(where.abs, text, ctx.signal);
        const report = diagnosticsReport(where.display, answer, opts.severity, opts.timeoutS);
        if (report) reports.push(report);
      }
      if (reports.length === 0) return result;
      const report = reports.join("\n");
      return {
        ...result,
        modelText: `${result.modelText}\n\n${report}`,
        ...(result.viewText !== undefined ? { viewText: `${result.viewText}\n\n${report}` } : {}),
      };
    },
  };
}
