// Builds a structural rewrite of one file from scratch: the preview
// (structural_search with a replacement) and the edit (structural_edit) both
// call this, so the edit applies exactly what the preview showed, or
// nothing. The preview hash covers the file's path and bytes, the language,
// the query, the replacement and the result: any change to one of them
// changes it.

import { createTwoFilesPatch } from "diff";
import type { Parser, Query } from "web-tree-sitter";
import type { ToolContext } from "../../../core/tool-types.js";
import { tooLargeToChange } from "../file-limits.js";
import { readExistingFile } from "../paths.js";
import { yujPaths } from "../file-access.js";
import { sha256Hex, shortPreview } from "./envelope.js";
import { GrammarMissing, parserFor } from "./grammars.js";
import { isLanguage, languageMismatchText, unsupportedLanguageText, type LanguageName } from "./languages.js";
import { firstSyntaxError, parseable, scanText, type FoundMatch } from "./match.js";
import { ByteMap } from "./positions.js";
import { compileQuery } from "./query.js";
import { planRewrite, type Edit, type Plan } from "./rewrite.js";

export interface RewriteArgs {
  path: string;
  language: string;
  query: string;
  replacement: string;
}

type ErrorKind =
  | "unsupported_language" | "path_outside_cwd" | "own_file" | "not_found" | "needs_file" | "read_error" | "not_utf8"
  | "backend_unavailable" | "query_error" | "match_capture" | "parse_error" | "missing_capture" | "overlap"
  | "result_parse_error" | "language_mismatch" | "no_match";

interface Built {
  ok: true;
  abs: string;
  display: string;
  language: LanguageName;
  beforeSha: string;
  afterSha: string;
  /** Bytes to write; the same as the file's when nothing changes. */
  afterBytes: Uint8Array;
  edits: Edit[];
  /** One line per changed location: where, and the old and new text. */
  locations: string[];
  diff: string;
  previewSha: string;
}

export type BuildResult = Built | { ok: false; kind: ErrorKind; error: string };

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

function pathErrorKind(error: string): ErrorKind {
  if (error.includes("file not found")) return "not_found";
  if (error.includes("escapes cwd") || error.includes("forbidden character") || error.includes(".git/")) return "path_outside_cwd";
  if (error.includes("yuj's own files") || error.includes("the project's yuj config")) return "own_file";
  return "read_error";
}

function previewHash(parts: { display: string; language: string; query: string; replacement: string; beforeSha: string; afterSha: string }): string {
  return sha256Hex(
    JSON.stringify(["yuj structural rewrite", 1, parts.display, parts.language, parts.query, parts.replacement, parts.beforeSha, parts.afterSha]),
  );
}

type Refusal = { ok: false; kind: ErrorKind; error: string };

interface Source {
  abs: string;
  display: string;
  bytes: Uint8Array;
  text: string;
}

/** The one file to rewrite, as UTF-8 text. */
async function loadSource(ctx: ToolContext, input: string): Promise<Source | Refusal> {
  const file = await readExistingFile(ctx.services.fs, ctx.cwd, input, {
    verb: "rewrite",
    directory: `ERROR: a replacement needs path to name one file; ${input} is a directory. Search the directory without replacement, then rewrite each file on its own.`,
    forbidNewline: true,
    // A rewrite is a planned write: yuj's own files are refused for the preview too.
    write: { ownDirs: ctx.services.ownDirs },
    access: yujPaths(ctx, "write"),
    tooLarge: tooLargeToChange("rewrite", input),
  });
  if (!file.ok) return { ok: false, kind: file.error.includes("is a directory") ? "needs_file" : pathErrorKind(file.error), error: file.error };
  if (ctx.hiddenByRules?.(file.display)) {
    return { ok: false, kind: "read_error", error: `ERROR: permission denied: a rule keeps ${file.display} from being read` };
  }
  try {
    return { abs: file.abs, display: file.display, bytes: file.bytes, text: utf8.decode(file.bytes) };
  } catch {
    return { ok: false, kind: "not_utf8", error: `ERROR: ${file.display} is not UTF-8 text; structural rewrites work on UTF-8 source files only` };
  }
}

const syntaxErrorAt = (text: string, index: number) => {
  const at = new ByteMap(text).at(index);
  return `syntax error at line ${at.line}, column ${at.column}`;
};

/** The rewrite of the source's text, refused when the file or the result does not parse. */
function plannedRewrite(parser: Parser, query: Query, src: Source, language: LanguageName, replacement: string): Plan | Refusal {
  const scan = scanText(parser, query, src.text);
  if (!scan.ok) return { ok: false, kind: scan.kind, error: scan.error };
  if (scan.syntaxError) {
    return {
      ok: false,
      kind: "parse_error",
      error: `ERROR: parse error: ${src.display} does not parse as ${language} (${syntaxErrorAt(src.text, scan.syntaxError.index)}); ` +
        "a structural rewrite needs a file that parses. Fix the file first, or check that language is right.",
    };
  }
  if (scan.matches.length === 0) {
    return {
      ok: false,
      kind: "no_match",
      error: `ERROR: no match: the query matches nothing in ${src.display}, so there is nothing to rewrite. ` +
        "Run structural_search without replacement to check the query.",
    };
  }
  const map = new ByteMap(src.text);
  const where = (m: FoundMatch) => {
    const s = map.at(m.start);
    return `${src.display}:${s.line}:${s.column}`;
  };
  const plan = planRewrite(src.text, scan.matches, replacement, where, query.captureNames);
  if (!plan.ok || plan.edits.length === 0) return plan;
  const tree = parser.parse(parseable(plan.after));
  const broken = tree ? firstSyntaxError(tree.rootNode) : undefined;
  tree?.delete();
  if (!broken) return plan;
  return {
    ok: false,
    kind: "result_parse_error",
    error: `ERROR: parse error in the result: the rewrite would leave ${src.display} unparseable as ${language} ` +
      `(${syntaxErrorAt(plan.after, broken.index)} of the new text). Adjust the replacement.`,
  };
}

function describeRewrite(src: Source, language: LanguageName, args: RewriteArgs, edits: Edit[], after: string): Built {
  const map = new ByteMap(src.text);
  const afterBytes = edits.length ? Buffer.from(after, "utf8") : src.bytes;
  const beforeSha = sha256Hex(src.bytes);
  const afterSha = sha256Hex(afterBytes);
  const locations = edits.map((e) => {
    const s = map.at(e.start);
    const end = map.at(e.end);
    return `${src.display}:${s.line}:${s.column} bytes=[${s.offset},${end.offset}) ${shortPreview(src.text.slice(e.start, e.end))} → ${shortPreview(e.insert)}`;
  });
  // createTwoFilesPatch starts with an "Index:" line and a rule: the ---/+++ headers follow.
  const diff = edits.length
    ? createTwoFilesPatch(src.display, src.display, src.text, after, "", "", { context: 3 }).split("\n").slice(2).join("\n").trimEnd()
    : "";
  const { display } = src;
  return {
    ok: true,
    abs: src.abs,
    display,
    language,
    beforeSha,
    afterSha,
    afterBytes,
    edits,
    locations,
    diff,
    previewSha: previewHash({ display, language, query: args.query, replacement: args.replacement, beforeSha, afterSha }),
  };
}

export async function buildRewrite(ctx: ToolContext, args: RewriteArgs): Promise<BuildResult> {
  if (!isLanguage(args.language)) return { ok: false, kind: "unsupported_language", error: unsupportedLanguageText(args.language) };
  const language = args.language;
  const src = await loadSource(ctx, args.path);
  if ("ok" in src) return src;
  const mismatch = languageMismatchText(src.display, language);
  if (mismatch) return { ok: false, kind: "language_mismatch", error: mismatch };
  let tools;
  try {
    tools = await parserFor(language);
  } catch (err) {
    if (err instanceof GrammarMissing) return { ok: false, kind: "backend_unavailable", error: `ERROR: ${err.message}` };
    throw err;
  }
  const { parser, lang, ts } = tools;
  const compiled = compileQuery(ts, lang, args.query, language);
  try {
    if (!compiled.ok) return compiled;
    const plan = plannedRewrite(parser, compiled.query, src, language, args.replacement);
    if (!plan.ok) return plan;
    return describeRewrite(src, language, args, plan.edits, plan.after);
  } finally {
    if (compiled.ok) compiled.query.delete();
    parser.delete();
  }
}
