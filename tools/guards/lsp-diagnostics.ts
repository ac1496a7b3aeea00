// Language-server feedback: with [lsp].enabled = true, a successful call
// that changed a file some language server serves (its tool says it writes,
// updates or creates the file: the edit tools of both surfaces, never a
// shell command, whose changes cannot be known from its text) gets that
// file's diagnostics, at [lsp].severity or above, appended to its
// result. The file is read as the edit (and the formatter, which runs
// first) left it, and the wait ends with the server's publication for that
// very text, never after a fixed pause; past [lsp].timeout_s the result
// says so. It is an after-guard: the edit handlers know nothing about it.

import type { Guard } from "../../core/guards/types.js";
import { appendNote } from "../../core/display-text.js";
import type { LspService } from "../../core/lsp/manager.js";
import type { SeverityName } from "../../core/lsp/config.js";
import type { FileSystem } from "../../core/services.js";
import type { ToolResult } from "../../core/tool-types.js";
import { resolveInCwd } from "../lib/paths.js";
import { diagnosticsReport } from "../lib/lsp-text.js";

export interface LspGuardOptions {
  fs: FileSystem;
  lsp: LspService;
  severity: SeverityName;
  timeoutS: number;
}

/** Past this a file is not sent to a server: it would only slow the edit down. */
const MAX_FILE_BYTES = 4 * 1024 * 1024;

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
      for (const target of call.touches) {
        // A move's old side is gone; the file lives on under its new name, which is touched too.
        if (target.as === "reads" || target.as === "deletes" || target.move === "from") continue;
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
      const display = appendNote(result.display, `\n${report}`);
      return { ...result, modelText: `${result.modelText}\n\n${report}`, ...(display ? { display } : {}) };
    },
  };
}
