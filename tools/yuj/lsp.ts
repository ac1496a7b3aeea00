// Yuj `lsp`: asks the language server configured for a file where a symbol
// is defined, where it is used, or what a file declares. Positions are
// zero-based (line, and character in UTF-16 code units, the protocol's own),
// in the question and in the answer, so an answer's position can be asked
// about in turn. Results are `path:line:col` lines with the source line as
// a preview; files a permission rule keeps from reading are left out, as
// the search tools leave them out.

import { z } from "zod";
import { pathTarget } from "../../core/permissions/match-target.js";
import { fail, INSPECTS, ok, type ToolContext, type ToolHandler } from "../../core/tool-types.js";
import type { DocumentSymbol, Location, LocationLink, SymbolInformation } from "../../core/lsp/protocol.js";
import type { LspAnswer } from "../../core/lsp/manager.js";
import { resolveInCwd } from "../lib/paths.js";
import { yujPaths } from "../lib/file-access.js";
import { lineCache, locationLine, relativeOrAbsolute, symbolLines, toShown, type ShownLocation } from "../lib/lsp-text.js";
import { num, shownPath, str } from "../lib/view.js";

export const lspSchema = z.object({
  kind: z.enum(["definition", "references", "document_symbols"]),
  path: z.string(),
  line: z.number().int().nonnegative().optional(),
  character: z.number().int().nonnegative().optional(),
});

type LspArgs = z.infer<typeof lspSchema>;

/** Lines listed; the rest are counted. */
const MAX_RESULTS = 100;
const DISABLED = "ERROR: the lsp tool is disabled (lsp.tool_enabled=false)";

export const lspTool: ToolHandler<typeof lspSchema> = {
  id: "lsp",
  schema: lspSchema,
  effects: INSPECTS,
  // Rules match the path it looks in; it is no read of the file (it shows positions,
  // not the file), so the stale-file guard does not count it as one.
  matchValue: (args) => pathTarget([args.path]),
  view: {
    card: "foldable",
    summary: (args, facts) => lspSummary(args, facts.cwd),
  },
  async run(args, ctx) {
    if (!ctx.config.lsp.tool_enabled) return fail(DISABLED);
    const lsp = ctx.lsp;
    if (!lsp) return fail("ERROR: language servers are not available in this session");
    const where = await resolveInCwd(ctx.services.fs, ctx.cwd, args.path, yujPaths(ctx, "read"));
    if (!where.ok) return fail(where.error);
    const server = lsp.serverFor(where.abs);
    if (!server) {
      const names = lsp.servers.map((s) => `${s.name} (${s.extensions.join(" ")})`).join(", ");
      return fail(`ERROR: no language server is configured for ${where.display}; configured: ${names || "none"} (add one under [lsp.servers.NAME])`);
    }
    let text: string;
    try {
      text = await ctx.services.fs.readFile(where.abs, "utf8");
    } catch {
      return fail(`ERROR: cannot read ${where.display}: no such file`);
    }
    if (args.kind === "document_symbols") {
      const answer = await lsp.query<Array<DocumentSymbol | SymbolInformation> | null>(where.abs, text, "textDocument/documentSymbol", {}, ctx.signal);
      if (answer.kind !== "ok") return fail(failure(answer, args, where.display, ctx));
      const lines = symbolLines(where.display, answer.value ?? []);
      if (lines.length === 0) return ok(`no symbols in ${where.display}`);
      return ok([`${lines.length} symbols in ${where.display} (line:character zero-based):`, ...cap(lines)].join("\n"));
    }
    if (args.line === undefined || args.character === undefined) {
      return fail(`ERROR: lsp ${args.kind} needs line and character: the zero-based position of the symbol in ${where.display}`);
    }
    const lineCount = text.split("\n").length;
    if (args.line >= lineCount) {
      return fail(`ERROR: line ${args.line} is past the end of ${where.display}, which has lines 0 to ${lineCount - 1} (zero-based)`);
    }
    const position = { line: args.line, character: args.character };
    const method = args.kind === "definition" ? "textDocument/definition" : "textDocument/references";
    const params = args.kind === "definition" ? { position } : { position, context: { includeDeclaration: true } };
    const answer = await lsp.query<Location | Array<Location | LocationLink> | null>(where.abs, text, method, params, ctx.signal);
    if (answer.kind !== "ok") return fail(failure(answer, args, where.display, ctx));
    const found = listOf<Location | LocationLink>(answer.value).map(toShown).filter((l): l is ShownLocation => l !== undefined);
    const hidden = ctx.hiddenByRules;
    const visible = hidden ? found.filter((l) => !hidden(relativeOrAbsolute(where.cwdReal, l.file))) : found;
    const at = `${where.display}:${args.line}:${args.character}`;
    const what = args.kind === "definition" ? "definition" : "reference";
    if (visible.length === 0) {
      const note = found.length ? ` (${found.length} in files your permission rules keep from reading)` : "";
      return ok(`no ${what} found at ${at}${note}`);
    }
    const lines = visible.map((l) => locationLine(where.cwdReal, l, lineCache()));
    const left = found.length - visible.length;
    const head = `${visible.length} ${what}${visible.length === 1 ? "" : "s"} of the symbol at ${at} (line:character zero-based):`;
    return ok([head, ...cap(lines), ...(left ? [`(${left} more in files your permission rules keep from reading)`] : [])].join("\n"));
  },
};

/** `find references src/a.ts:3:9`: what was asked, at the position as the call gives it (zero-based). */
function lspSummary(args: Record<string, unknown>, cwd: string): string {
  const kind = str(args, "kind") ?? "";
  const where = shownPath(str(args, "path") ?? "", cwd);
  if (kind === "document_symbols") return `document symbols ${where}`;
  const line = num(args, "line");
  const character = num(args, "character");
  const at = line !== undefined && character !== undefined ? `:${line}:${character}` : "";
  return `find ${kind} ${where}${at}`;
}

function listOf<T>(v: T | T[] | null | undefined): T[] {
  return v === null || v === undefined ? [] : Array.isArray(v) ? v : [v];
}

function cap(lines: string[]): string[] {
  return lines.length > MAX_RESULTS ? [...lines.slice(0, MAX_RESULTS), `… ${lines.length - MAX_RESULTS} more`] : lines;
}

function failure(answer: Exclude<LspAnswer<unknown>, { kind: "ok" }>, args: LspArgs, display: string, ctx: ToolContext): string {
  switch (answer.kind) {
    case "none":
      return `ERROR: no language server is configured for ${display}`;
    case "timeout":
      return `ERROR: ${answer.server} gave no ${args.kind} answer for ${display} within ${ctx.config.lsp.timeout_s} s ([lsp].timeout_s)`;
    case "cancelled":
      return "ERROR: cancelled by the user before the language server answered";
    case "failed":
      return `ERROR: ${answer.server}: ${answer.reason}`;
  }
}
