// list_definitions with repo_wide=true: definitions (`def`) and references
// (`ref`) of names across the repository's Python, JavaScript, TypeScript,
// TSX, Go, Rust and Java files, one row `path:line kind name signature` each,
// in (path, line) order, one page at a time. `symbol` keeps the rows of one
// exact name, `kind` one of the two kinds. Files are parsed, never run.
//
// Rows of a file are kept in a cache keyed by the file's language, the
// symbol and the sha256 of its bytes: the key says everything the rows
// depend on, so a later search reuses them until the file changes, and
// sharing the cache between sessions cannot mix their state.

import * as path from "node:path";
import type { Parser } from "web-tree-sitter";
import { ok, type ToolContext, type ToolDisplay, type ToolResult } from "../../../core/tool-types.js";
import { matchesDisplay } from "./display.js";
import { pageNumber } from "../grep/lines.js";
import { resolveInCwd } from "../paths.js";
import { envelope, sha256Hex, type Attr } from "./envelope.js";
import { listFiles } from "./files.js";
import { MAX_SEARCHED_FILE_BYTES } from "./limits.js";
import { GrammarMissing, parserFor } from "./grammars.js";
import { languageOfPath, type LanguageName } from "./languages.js";
import { definitionsError, errorKind, TOOL } from "./outline-run.js";
import { yujPaths } from "../file-access.js";
import { extractTags, tagQueries, type TagRow } from "./tags.js";

export interface RepoArgs {
  path?: string | undefined;
  symbol?: string | undefined;
  kind?: "def" | "ref" | undefined;
  page?: number | undefined;
}

const CACHE_ROWS = 200_000;
const cache = new Map<string, TagRow[]>();
let cachedRows = 0;

function remember(key: string, rows: TagRow[]): void {
  cache.set(key, rows);
  cachedRows += rows.length;
  for (const [k, v] of cache) {
    if (cachedRows <= CACHE_ROWS) break;
    cache.delete(k);
    cachedRows -= v.length;
  }
}

interface Row extends TagRow {
  path: string;
}

interface LanguageTools {
  parser: Parser;
  queries: ReturnType<typeof tagQueries>;
}

async function toolsFor(languages: Set<LanguageName>, symbol: string | undefined): Promise<Map<LanguageName, LanguageTools>> {
  const out = new Map<LanguageName, LanguageTools>();
  try {
    for (const language of languages) {
      const { parser, lang, ts } = await parserFor(language);
      out.set(language, { parser, queries: tagQueries(ts, lang, language, symbol) });
    }
  } catch (err) {
    free(out);
    throw err;
  }
  return out;
}

function free(tools: Map<LanguageName, LanguageTools>): void {
  for (const t of tools.values()) {
    t.queries.defs.delete();
    t.queries.refs.delete();
    t.parser.delete();
  }
}

const render = (r: Row) => `${r.path}:${r.line} ${r.kind} ${r.name}${r.signature ? ` ${r.signature}` : ""}`;

export async function runRepoDefinitions(args: RepoArgs, ctx: ToolContext): Promise<ToolResult> {
  const shown = args.path === undefined || args.path === "" ? "." : args.path;
  if (!ctx.config.tools.ast_search_enabled) {
    return definitionsError(
      "ast_search_disabled",
      shown,
      "ERROR: repository-wide list_definitions is off: it needs [tools] ast_search_enabled = true as well as [tools.list_definitions] enabled = true",
    );
  }
  if (args.symbol !== undefined && args.symbol.trim() === "") return definitionsError("bad_symbol", shown, "ERROR: symbol must be a name (exact, case-sensitive), or left out to list every row");
  const where = await resolveInCwd(ctx.services.fs, ctx.cwd, shown, yujPaths(ctx, "read"));
  if (!where.ok) return definitionsError(errorKind(where.error), shown, where.error);
  const st = await ctx.services.fs.stat(where.abs).catch(() => undefined);
  if (!st) return definitionsError("not_found", shown, `ERROR: not found: ${shown}`);
  const listing = st.isDirectory()
    ? await listFiles(ctx, where, undefined, (f) => languageOfPath(f) !== undefined)
    : { ok: true, files: languageOfPath(where.display) ? [where.display] : [], error: undefined };
  if (!listing.ok) return definitionsError("list_error", shown, listing.error!);

  const languages = new Set(listing.files.map((f) => languageOfPath(f)!));
  let parsers: Map<LanguageName, LanguageTools>;
  try {
    parsers = await toolsFor(languages, args.symbol);
  } catch (err) {
    if (err instanceof GrammarMissing) return definitionsError("backend_unavailable", shown, `ERROR: ${err.message}`);
    throw err;
  }
  // Without a symbol, a reference is every identifier in the scope: noise
  // that crowds out the definitions asked for. Those need kind="ref".
  const kind = args.kind ?? (args.symbol === undefined ? "def" : undefined);
  const rows: Row[] = [];
  let cacheHits = 0;
  try {
    for (const file of listing.files) {
      if (ctx.signal.aborted) return definitionsError("cancelled", shown, "ERROR: list_definitions cancelled");
      const abs = path.join(ctx.cwd, file);
      const size = (await ctx.services.fs.stat(abs).catch(() => undefined))?.size ?? 0;
      if (size > MAX_SEARCHED_FILE_BYTES) continue;
      const bytes = await ctx.services.fs.readFile(abs).catch(() => undefined);
      if (!bytes) continue;
      const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
      if (args.symbol !== undefined && !text.includes(args.symbol)) continue;
      const language = languageOfPath(file)!;
      const key = `${language}\0${args.symbol ?? ""}\0${sha256Hex(bytes)}`;
      let tags = cache.get(key);
      if (tags) cacheHits++;
      else {
        const p = parsers.get(language)!;
        tags = extractTags(p.parser, p.queries, text);
        remember(key, tags);
      }
      for (const t of tags) if (kind === undefined || t.kind === kind) rows.push({ ...t, path: file });
    }
  } finally {
    free(parsers);
  }
  const result = page(rows, { ...args, ...(kind ? { kind } : {}) }, shown, listing.files.length, cacheHits, ctx);
  return ok(result.text, result.display);
}

function page(rows: Row[], args: RepoArgs, shown: string, files: number, cacheHits: number, ctx: ToolContext): { text: string; display: ToolDisplay } {
  const tools = ctx.config.tools;
  const available = Math.min(rows.length, tools.ast_search_max_rows);
  const kept = rows.slice(0, available);
  const paged = tools.search_pagination_enabled;
  const perPage = paged ? tools.grep_max_matches_per_page : available || 1;
  const pageNo = paged ? pageNumber(args.page) : 1;
  const start = (pageNo - 1) * perPage;
  const pageRows = kept.slice(start, start + perPage);
  let lines = pageRows.map(render);
  const nextPage = start + perPage < available ? pageNo + 1 : 0;
  const attrs = (shownCount: number, charLimited: boolean): Attr[] => [
    ["mode", "repository"],
    ["path", shown],
    ["total", rows.length],
    ["available", available],
    ["shown", shownCount],
    ["page", pageNo],
    ["next_page", nextPage],
    ["symbol", args.symbol],
    ["kind", args.kind],
    ["files", files],
    ["cache_hits", cacheHits],
    ["capped", rows.length > available || undefined],
    ["char_limited", charLimited || undefined],
  ];
  const empty = rows.length === 0 ? ["(no definitions or references found)"] : [];
  let text = envelope(TOOL, attrs(lines.length, false), [...lines, ...empty]);
  // Whole rows only: past the output limit, rows are dropped from the end.
  const limit = ctx.config.output.max_output_chars;
  while (text.length > limit && lines.length > 0) {
    lines = lines.slice(0, Math.max(0, Math.min(lines.length - 1, Math.floor(lines.length * (limit / text.length)))));
    text = envelope(TOOL, attrs(lines.length, true), lines);
  }
  const capped = rows.length > available ? `only the first ${available} of ${rows.length} rows are kept (tools.ast_search_max_rows)` : undefined;
  const matches = pageRows.slice(0, lines.length).map((r) => ({ path: r.path, line: r.line, text: `${r.kind} ${r.name}${r.signature ? ` ${r.signature}` : ""}` }));
  return { text, display: matchesDisplay(matches, { total: available, page: pageNo, nextPage, ...(capped ? { hint: capped } : {}) }) };
}
