// Builds a structural rewrite of one file from scratch: the preview
// (structural_search with a replacement) and the edit (structural_edit) both
// call this, so the edit applies exactly what the preview showed, or
// nothing. The preview hash covers the file's path and bytes, the language,
// the query, the replacement and the result: any change to one of them
// changes it.

import { createTwoFilesPatch } from "diff";
import type { ToolContext } from "../../../core/tool-types.js";
import { tooLargeToChange } from "../file-limits.js";
import { readExistingFile } from "../paths.js";
import { sha256Hex, shortPreview } from "./envelope.js";
import { GrammarMissing, parserFor } from "./grammars.js";
import { isLanguage, unsupportedLanguageText, type LanguageName } from "./languages.js";
import { firstSyntaxError, parseable, scanText, type FoundMatch } from "./match.js";
import { ByteMap } from "./positions.js";
import { compileQuery } from "./query.js";
import { planRewrite, type Edit } from "./rewrite.js";

export interface RewriteArgs {
  path: string;
  language: string;
  query: string;
  replacement: string;
}

export type ErrorKind =
  | "unsupported_language" | "path_outside_cwd" | "not_found" | "needs_file" | "read_error" | "not_utf8"
  | "backend_unavailable" | "query_error" | "match_capture" | "parse_error" | "missing_capture" | "overlap"
  | "result_parse_error";

export interface Built {
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
  return "read_error";
}

export function previewHash(parts: { display: string; language: string; query: string; replacement: string; beforeSha: string; afterSha: string }): string {
  return sha256Hex(
    JSON.stringify(["yuj structural rewrite", 1, parts.display, parts.language, parts.query, parts.replacement, parts.beforeSha, parts.afterSha]),
  );
}

export async function buildRewrite(ctx: ToolContext, args: RewriteArgs): Promise<BuildResult> {
  if (!isLanguage(args.language)) return { ok: false, kind: "unsupported_language", error: unsupportedLanguageText(args.language) };
  const language = args.language;
  const file = await readExistingFile(ctx.services.fs, ctx.cwd, args.path, {
    verb: "rewrite",
    directory: `ERROR: a replacement needs path to name one file; ${args.path} is a directory. Search the directory without replacement, then rewrite each file on its own.`,
    forbidNewline: true,
    tooLarge: tooLargeToChange("rewrite", args.path),
  });
  if (!file.ok) return { ok: false, kind: file.error.includes("is a directory") ? "needs_file" : pathErrorKind(file.error), error: file.error };
  if (ctx.hiddenByRules?.(file.display)) {
    return { ok: false, kind: "read_error", error: `ERROR: permission denied: a rule keeps ${file.display} from being read` };
  }
  let text: string;
  try {
    text = utf8.decode(file.bytes);
  } catch {
    return { ok: false, kind: "not_utf8", error: `ERROR: ${file.display} is not UTF-8 text; structural rewrites work on UTF-8 source files only` };
  }

  let tools;
  try {
    tools = await parserFor(language);
  } catch (err) {
    if (err instanceof GrammarMissing) return { ok: false, kind: "backend_unavailable", error: `ERROR: ${err.message}` };
    throw err;
  }
  const { parser, lang, ts } = tools;
  const compiled = compileQuery(ts, lang, args.query, language);
  if (!compiled.ok) {
    parser.delete();
    return { ok: false, kind: compiled.kind, error: compiled.error };
  }
  try {
    const scan = scanText(parser, compiled.query, text);
    if (!scan.ok) return { ok: false, kind: scan.kind, error: scan.error };
    const map = new ByteMap(text);
    if (scan.syntaxError) {
      const at = map.at(scan.syntaxError.index);
      return {
        ok: false,
        kind: "parse_error",
        error: `ERROR: parse error: ${file.display} does not parse as ${language} (syntax error at line ${at.line}, column ${at.column}); ` +
          "a structural rewrite needs a file that parses. Fix the file first, or check that language is right.",
      };
    }
    const where = (m: FoundMatch) => {
      const s = map.at(m.start);
      return `${file.display}:${s.line}:${s.column}`;
    };
    const plan = planRewrite(text, scan.matches, args.replacement, where, compiled.query.captureNames);
    if (!plan.ok) return plan;
    if (plan.edits.length > 0) {
      const tree = parser.parse(parseable(plan.after));
      const broken = tree ? firstSyntaxError(tree.rootNode) : undefined;
      tree?.delete();
      if (broken) {
        const at = new ByteMap(plan.after).at(broken.index);
        return {
          ok: false,
          kind: "result_parse_error",
          error: `ERROR: parse error in the result: the rewrite would leave ${file.display} unparseable as ${language} ` +
            `(syntax error at line ${at.line}, column ${at.column} of the new text). Adjust the replacement.`,
        };
      }
    }
    const afterBytes = plan.edits.length ? Buffer.from(plan.after, "utf8") : file.bytes;
    const beforeSha = sha256Hex(file.bytes);
    const afterSha = sha256Hex(afterBytes);
    const locations = plan.edits.map((e) => {
      const s = map.at(e.start);
      const end = map.at(e.end);
      return `${file.display}:${s.line}:${s.column} bytes=[${s.offset},${end.offset}) ${shortPreview(text.slice(e.start, e.end))} → ${shortPreview(e.insert)}`;
    });
    const diff = plan.edits.length
      ? createTwoFilesPatch(file.display, file.display, text, plan.after, "", "", { context: 3 }).split("\n").slice(2).join("\n").trimEnd()
      : "";
    const display = file.display;
    return {
      ok: true,
      abs: file.abs,
      display,
      language,
      beforeSha,
      afterSha,
      afterBytes,
      edits: plan.edits,
      locations,
      diff,
      previewSha: previewHash({ display, language, query: args.query, replacement: args.replacement, beforeSha, afterSha }),
    };
  } finally {
    compiled.query.delete();
    parser.delete();
  }
}
