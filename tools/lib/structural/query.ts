// A model's Tree-sitter query, compiled and checked before any file is read:
// it must compile for the language, every pattern must capture exactly one
// @match node (the node a result reports and a rewrite replaces), and every
// predicate must be one tree-sitter evaluates (an unknown one would be
// silently ignored and match too much).

import type { Language, Query } from "web-tree-sitter";
import { requiredLiterals, type PatternNeeds } from "./query-literals.js";

export const MATCH_CAPTURE = "match";

/** Predicates tree-sitter itself evaluates; any other would be ignored. */
const TEXT_PREDICATES = [
  "eq?", "not-eq?", "any-eq?", "any-not-eq?",
  "match?", "not-match?", "any-match?", "any-not-match?",
  "any-of?", "not-any-of?",
];

// CaptureQuantifier.One in web-tree-sitter.
const QUANTIFIER_ONE = 3;

export const MATCH_RULE = "every query match must contain exactly one @match capture";

export type CompiledQuery =
  | { ok: true; query: Query; needs: PatternNeeds[] }
  | { ok: false; kind: "query_error" | "match_capture"; error: string };

/** Line and column (1-based) of a byte offset in the query text. */
function whereInQuery(source: string, byteIndex: number): string {
  const before = Buffer.from(source, "utf8").subarray(0, byteIndex).toString("utf8");
  const lines = before.split("\n");
  return `line ${lines.length}, column ${lines[lines.length - 1]!.length + 1}`;
}

function compileError(err: unknown, source: string, language: string): string {
  const e = err as { message?: string; index?: number };
  const where = typeof e.index === "number" ? ` at ${whereInQuery(source, e.index)}` : "";
  return (
    `ERROR: the query does not compile for ${language}${where}: ${e.message ?? String(err)}. ` +
    "Write a Tree-sitter query: node types of the language's grammar in parentheses, fields such as name:, " +
    'captures such as @match, predicates such as (#eq? @match "old_name").'
  );
}

/** The line of the query where pattern `i` starts, for messages. */
function patternLine(query: Query, source: string, i: number): string {
  return whereInQuery(source, query.startIndexForPattern(i)).replace(/, column \d+$/, "");
}

export function compileQuery(ts: { Query: typeof Query }, lang: Language, source: string, language: string): CompiledQuery {
  if (source.trim() === "") {
    return { ok: false, kind: "query_error", error: `ERROR: query is empty: ${MATCH_RULE}, e.g. ((identifier) @match (#eq? @match "old_name"))` };
  }
  let query: Query;
  try {
    query = new ts.Query(lang, source);
  } catch (err) {
    return { ok: false, kind: "query_error", error: compileError(err, source, language) };
  }
  const fail = (kind: "query_error" | "match_capture", error: string): CompiledQuery => {
    query.delete();
    return { ok: false, kind, error };
  };
  const matchIndex = query.captureNames.indexOf(MATCH_CAPTURE);
  if (matchIndex < 0) {
    return fail(
      "match_capture",
      `ERROR: ${MATCH_RULE}, and this query has none: capture the node to report with @match, ` +
        'e.g. ((identifier) @match (#eq? @match "old_name"))',
    );
  }
  for (let i = 0; i < query.patternCount(); i++) {
    const quantifier = query.captureQuantifiers[i]?.[matchIndex];
    if (quantifier === QUANTIFIER_ONE) continue;
    const what = quantifier === 0 ? "has no @match capture" : "can capture zero or several @match nodes (a quantifier or an alternation holds it)";
    return fail(
      "match_capture",
      `ERROR: ${MATCH_RULE}: pattern ${i + 1} (${patternLine(query, source, i)}) ${what}. ` +
        "Put exactly one @match on the node each match should report, outside ?, *, + and [ ].",
    );
  }
  for (let i = 0; i < query.patternCount(); i++) {
    const unknown = query.predicatesForPattern(i).map((p) => p.operator).filter((op) => !TEXT_PREDICATES.includes(op));
    if (unknown.length) {
      return fail(
        "query_error",
        `ERROR: unsupported predicate #${unknown[0]} in pattern ${i + 1} (${patternLine(query, source, i)}): ` +
          `the supported ones are ${TEXT_PREDICATES.map((p) => `#${p}`).join(", ")}.`,
      );
    }
  }
  return { ok: true, query, needs: requiredLiterals(query, source) };
}

/** Whether a text may hold a match of some pattern (false only when no pattern can match). */
export function mayMatch(needs: readonly PatternNeeds[], text: string): boolean {
  return needs.some((pattern) => pattern.every((oneOf) => oneOf.some((lit) => text.includes(lit))));
}
