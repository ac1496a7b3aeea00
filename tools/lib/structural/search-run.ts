// structural_search's work: one file or a directory, one page of matches
// in (path, position) order with the total; or, with a replacement, the
// preview of a one-file rewrite. Nothing here writes to the repository.

import * as path from "node:path";
import { fail, ok, type ToolContext, type ToolDisplay, type ToolResult } from "../../../core/tool-types.js";
import { MAX_LOADED_FILE_BYTES } from "../file-limits.js";
import { isHiddenRefusal, resolveInCwd } from "../paths.js";
import { yujPaths } from "../file-access.js";
import { pageNumber } from "../grep/lines.js";
import { envelope, errorEnvelope, type Attr } from "./envelope.js";
import { listFiles } from "./files.js";
import { GrammarMissing, optimizeThisThread } from "./grammars.js";
import { extensionsOf, isLanguage, languageMismatchText, unsupportedLanguageText, type LanguageName } from "./languages.js";
import { FileSearcher, type FileOutcome } from "./scan-file.js";
import { defaultPool, scanAll } from "./scan-pool.js";
import { savePreview } from "./preview-store.js";
import { buildRewrite } from "./rewrite-build.js";
import { errorDisplay, matchesDisplay, matchOfLine, rewriteDisplay } from "./display.js";

export interface SearchArgs {
  path: string;
  language: string;
  query: string;
  glob?: string | undefined;
  replacement?: string | undefined;
  page?: number | undefined;
}

const TOOL = "structural_search";

/**
 * A directory search of this many files or more whose query has no literal
 * predicate (so every file is parsed) is worth a runtime compiled whole by
 * TurboFan (see grammars.ts) when this thread has none loaded yet: about
 * 0.2 s of compilation against a quarter off every parse. With a literal
 * the pre-filter may leave a few files to parse, and baseline code does.
 */
const OPTIMIZE_FROM_FILES = 200;
const LITERAL_PREDICATE = /#(any-)?(eq|of)\?/;

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

const refuse = (kind: string, args: SearchArgs, error: string): ToolResult =>
  fail(errorEnvelope(TOOL, kind, [["path", args.path], ["language", args.language]], error), errorDisplay(error));

export async function runSearch(args: SearchArgs, ctx: ToolContext): Promise<ToolResult> {
  if (!isLanguage(args.language)) return refuse("unsupported_language", args, unsupportedLanguageText(args.language));
  if (args.replacement !== undefined) return preview(args, ctx);
  const where = await resolveInCwd(ctx.services.fs, ctx.cwd, args.path === "" ? "." : args.path, yujPaths(ctx, "read"));
  if (!where.ok) return refuse(isHiddenRefusal(where.error) ? "not_found" : "path_outside_cwd", args, where.error);
  const st = await ctx.services.fs.stat(where.abs).catch(() => undefined);
  if (!st) return refuse("not_found", args, `ERROR: not found: ${args.path}`);
  const isDir = st.isDirectory();
  if (!isDir && ctx.hiddenByRules?.(where.display)) {
    return refuse("read_error", args, `ERROR: permission denied: a rule keeps ${where.display} from being read`);
  }
  const mismatch = isDir ? undefined : languageMismatchText(where.display, args.language);
  if (mismatch) return refuse("language_mismatch", args, mismatch);
  const exts = extensionsOf(args.language);
  const listing = isDir
    ? await listFiles(ctx, where, args.glob, (f) => exts.includes(path.extname(f).toLowerCase()))
    : { ok: true, files: [where.display] };
  if (!listing.ok) return refuse("list_error", args, listing.error!);
  return searchFiles(args, args.language, listing.files, !isDir, ctx);
}

async function searchFiles(args: SearchArgs, language: LanguageName, files: string[], single: boolean, ctx: ToolContext): Promise<ToolResult> {
  let made;
  const optimized = !single && files.length >= OPTIMIZE_FROM_FILES && !LITERAL_PREDICATE.test(args.query) && optimizeThisThread();
  try {
    // A bad query is reported before any file is read.
    made = await FileSearcher.create(language, args.query);
  } catch (err) {
    if (err instanceof GrammarMissing) return refuse("backend_unavailable", args, `ERROR: ${err.message}`);
    throw err;
  }
  if (!made.ok) return refuse(made.kind, args, made.error);
  const { searcher } = made;
  let outcomes: FileOutcome[];
  try {
    if (single) {
      const one = await readSingle(files[0]!, ctx);
      if (!one.ok) return refuse(one.kind, args, one.error);
      outcomes = [searcher.scanText(files[0]!, one.text)];
    } else {
      const jobs = files.map((file) => ({ file, abs: path.join(ctx.cwd, file) }));
      const run = await scanAll(ctx, { language, query: args.query, optimized }, jobs, searcher, { ...defaultPool(), lines: pageWindow(args, ctx).end });
      if (!run.ok) return fail("ERROR: structural_search cancelled");
      outcomes = run.outcomes;
    }
  } finally {
    searcher.free();
  }
  const failed = outcomes.find((o) => o.failure);
  if (failed?.failure) return refuse(failed.failure.kind, args, failed.failure.error);
  const page = pageOf(args, language, files.length, outcomes, ctx);
  return ok(page.text, page.display);
}

async function readSingle(file: string, ctx: ToolContext): Promise<{ ok: true; text: string } | { ok: false; kind: string; error: string }> {
  const abs = path.join(ctx.cwd, file);
  const size = (await ctx.services.fs.stat(abs).catch(() => undefined))?.size ?? 0;
  if (size > MAX_LOADED_FILE_BYTES) return { ok: false, kind: "too_large", error: `ERROR: ${file} is too large to parse (${size} bytes, max ${MAX_LOADED_FILE_BYTES})` };
  try {
    return { ok: true, text: utf8.decode(await ctx.services.fs.readFile(abs)) };
  } catch {
    return { ok: false, kind: "not_utf8", error: `ERROR: ${file} is not UTF-8 text; structural_search parses UTF-8 source files only` };
  }
}

/** The page asked for, and the match indices it shows: [first, end). */
function pageWindow(args: SearchArgs, ctx: ToolContext): { page: number; first: number; end: number } {
  const paged = ctx.config.tools.search_pagination_enabled;
  const page = paged ? pageNumber(args.page) : 1;
  // Not (page - 1) * perPage: without pages that is 0 × Infinity, NaN, and showed nothing.
  const first = paged ? (page - 1) * ctx.config.tools.grep_max_matches_per_page : 0;
  return { page, first, end: paged ? first + ctx.config.tools.grep_max_matches_per_page : Infinity };
}

function pageOf(args: SearchArgs, language: LanguageName, fileCount: number, outcomes: readonly FileOutcome[], ctx: ToolContext): { text: string; display: ToolDisplay } {
  const { page, first, end } = pageWindow(args, ctx);
  const body: string[] = [];
  let total = 0;
  for (const o of outcomes) {
    if (total < end && total + o.count > first) {
      // The scan renders the lines of every file that reaches into the page.
      if (!o.lines) throw new Error(`structural_search: no match lines kept for ${o.file}`);
      for (let i = Math.max(0, first - total); i < o.count && total + i < end; i++) body.push(o.lines[i]!);
    }
    total += o.count;
  }
  const shown = body.length;
  const nextPage = end < total ? page + 1 : 0;
  const skipped = outcomes.filter((o) => o.skipped).length;
  const withErrors = outcomes.filter((o) => o.syntaxError).length;
  const attrs: Attr[] = [
    ["path", args.path],
    ["language", language],
    ["glob", args.glob || undefined],
    ["total", total],
    ["shown", shown],
    ["page", page],
    ["next_page", nextPage],
    ["files", fileCount],
    ["skipped", skipped || undefined],
    ["files_with_syntax_errors", withErrors || undefined],
  ];
  const matches = body.map(matchOfLine);
  let hint: string | undefined;
  if (total === 0) body.push("(no matches)");
  else if (shown === 0) body.push((hint = `(page ${page} is past the last page of ${total} matches)`));
  const notes = [skipped ? `${skipped} files skipped` : "", withErrors ? `${withErrors} files with syntax errors` : ""].filter(Boolean);
  if (notes.length) hint = [hint, notes.join(", ")].filter(Boolean).join("\n");
  return { text: envelope(TOOL, attrs, body), display: matchesDisplay(matches, { total, page, nextPage, ...(hint ? { hint } : {}) }) };
}

async function preview(args: SearchArgs & { replacement?: string }, ctx: ToolContext): Promise<ToolResult> {
  const built = await buildRewrite(ctx, { path: args.path, language: args.language, query: args.query, replacement: args.replacement! });
  if (!built.ok) return refuse(built.kind, args, built.error);
  const attrs: Attr[] = [["mode", "preview"], ["path", built.display], ["language", built.language], ["changes", built.edits.length]];
  if (built.edits.length === 0) {
    const none = "(no match would change: nothing to apply)";
    return ok(envelope(TOOL, attrs, [none]), { kind: "text", text: none });
  }
  await savePreview(ctx, built.previewSha, {
    path: built.display,
    language: built.language,
    query: args.query,
    replacement: args.replacement!,
    file_sha256: built.beforeSha,
  });
  return ok(
    envelope(TOOL, [...attrs, ["preview_sha256", built.previewSha]], [
      ...built.locations,
      built.diff,
      `(nothing was written; to apply, call structural_edit with the same path, language, query and replacement and expected_sha256="${built.previewSha}")`,
    ]),
    rewriteDisplay(built.display, built.diff, `preview of ${built.edits.length} change${built.edits.length === 1 ? "" : "s"}; nothing was written`),
  );
}
