// One file of a directory search, start to end: read it, skip it when it
// is too large or not UTF-8, skip the parse when the query's literals are
// not in it, else parse it and render its match lines. The same code runs
// in the tool's own thread and in the search workers, so both give the
// same lines.

import { readFileSync, statSync } from "node:fs";
import type { Parser, Query } from "web-tree-sitter";
import type { FileSystem } from "../../../core/services.js";
import { sha256Hex, shortPreview } from "./envelope.js";
import { MAX_SEARCHED_FILE_BYTES } from "./limits.js";
import { parserFor } from "./grammars.js";
import type { LanguageName } from "./languages.js";
import { distinctRanges, scanText, type FoundMatch } from "./match.js";
import { ByteMap } from "./positions.js";
import { compileQuery, mayMatch } from "./query.js";
import type { PatternNeeds } from "./query-literals.js";

export interface FileJob {
  /** Repository path, as shown. */
  file: string;
  abs: string;
}

export interface FileOutcome {
  file: string;
  /** Its matches (distinct ranges). */
  count: number;
  /**
   * One rendered line per match, in position order; absent when the search
   * wants none of them: the files before it already hold more matches than
   * the page shown reaches, so only the count is kept (rendering is a
   * digest, a preview and byte positions per match).
   */
  lines?: string[];
  skipped?: boolean;
  syntaxError?: boolean;
  /** A match broke the one-@match rule: the whole search fails with this. */
  failure?: { kind: "match_capture"; error: string };
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** A file's text; undefined when it is skipped: too large, unreadable or not UTF-8. */
export async function readJob(job: FileJob, fs: Pick<FileSystem, "readFile" | "stat">): Promise<string | undefined> {
  const size = (await fs.stat(job.abs).catch(() => undefined))?.size ?? 0;
  if (size > MAX_SEARCHED_FILE_BYTES) return undefined;
  try {
    return utf8.decode(await fs.readFile(job.abs));
  } catch {
    return undefined;
  }
}

/** The same, read synchronously: a search worker has nothing else to do meanwhile. */
export function readJobSync(job: FileJob): string | undefined {
  try {
    if (statSync(job.abs).size > MAX_SEARCHED_FILE_BYTES) return undefined;
    return utf8.decode(readFileSync(job.abs));
  } catch {
    return undefined;
  }
}

/** `path:line:column bytes=[start,end) digest=… (node_type) preview`: bytes 0-based, end exclusive. */
function matchLine(file: string, text: string, map: ByteMap, match: FoundMatch): string {
  const s = map.at(match.start);
  const e = map.at(match.end);
  const matched = text.slice(match.start, match.end);
  const digest = sha256Hex(Buffer.from(matched, "utf8")).slice(0, 12);
  return `${file}:${s.line}:${s.column} bytes=[${s.offset},${e.offset}) digest=${digest} (${match.nodeType}) ${shortPreview(matched)}`;
}

export class FileSearcher {
  /** Text parsed so far, in UTF-16 units (files skipped or without the query's literals count for nothing). */
  parsedChars = 0;

  private constructor(
    private readonly parser: Parser,
    private readonly query: Query,
    private readonly needs: PatternNeeds[],
  ) {}

  /** A missing grammar throws GrammarMissing; a bad query is a refusal to report. */
  static async create(
    language: LanguageName,
    source: string,
  ): Promise<{ ok: true; searcher: FileSearcher } | { ok: false; kind: "query_error" | "match_capture"; error: string }> {
    const { parser, lang, ts } = await parserFor(language);
    const compiled = compileQuery(ts, lang, source, language);
    if (!compiled.ok) {
      parser.delete();
      return compiled;
    }
    return { ok: true, searcher: new FileSearcher(parser, compiled.query, compiled.needs) };
  }

  /** A file's outcome from its text, as `readJob` gives it (undefined: skipped); `withLines`: render its match lines. */
  outcome(file: string, text: string | undefined, withLines = true): FileOutcome {
    return text === undefined ? { file, count: 0, lines: [], skipped: true } : this.scanText(file, text, withLines);
  }

  scanText(file: string, text: string, withLines = true): FileOutcome {
    if (!mayMatch(this.needs, text)) return { file, count: 0, lines: [] };
    this.parsedChars += text.length;
    const scan = scanText(this.parser, this.query, text);
    if (!scan.ok) return { file, count: 0, lines: [], failure: { kind: scan.kind, error: scan.error } };
    const matches = distinctRanges(scan.matches);
    const found: FileOutcome = { file, count: matches.length };
    if (withLines) {
      const map = matches.length ? new ByteMap(text) : undefined;
      found.lines = matches.map((m) => matchLine(file, text, map!, m));
    }
    if (scan.syntaxError) found.syntaxError = true;
    return found;
  }

  free(): void {
    this.query.delete();
    this.parser.delete();
  }
}
