// Which texts a file must contain for a query pattern to match in it, so a
// directory search parses only the files that can hold a match (parsing is
// most of a search's time). Read from the pattern's own text predicates:
// `(#eq? @x "name")` and `(#any-eq? @x "name")` need "name" in the file,
// `(#any-of? @x "a" "b")` needs one of them. Only a capture that always
// holds a node counts (quantifier one or one-or-more): a predicate on an
// optional capture can hold with no node at all. Anything not understood
// adds no condition, so a pattern with none is searched in every file.

import type { Query } from "web-tree-sitter";

/** Every entry must hold; an entry holds when the text contains one of its strings. */
export type PatternNeeds = string[][];

// CaptureQuantifier values in web-tree-sitter.
const ONE = 3;
const ONE_OR_MORE = 4;

type Token = { kind: "open" | "close" } | { kind: "atom"; value: string } | { kind: "string"; value: string } | { kind: "bad" };

const ESCAPES: Record<string, string> = { n: "\n", r: "\r", t: "\t", "0": "\0", "\\": "\\", '"': '"' };

function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (c === ";") {
      const nl = src.indexOf("\n", i);
      i = nl < 0 ? src.length : nl + 1;
    } else if (c === "(" || c === "[") {
      out.push({ kind: "open" });
      i++;
    } else if (c === ")" || c === "]") {
      out.push({ kind: "close" });
      i++;
    } else if (c === '"') {
      let value = "";
      let j = i + 1;
      let closed = false;
      while (j < src.length) {
        const d = src[j]!;
        if (d === '"') {
          closed = true;
          break;
        }
        if (d === "\\") {
          const e = src[j + 1] ?? "";
          value += ESCAPES[e] ?? e;
          j += 2;
        } else {
          value += d;
          j++;
        }
      }
      out.push(closed ? { kind: "string", value } : { kind: "bad" });
      i = j + 1;
    } else if (/\s/.test(c)) {
      i++;
    } else {
      let j = i;
      while (j < src.length && !/[\s()[\]";]/.test(src[j]!)) j++;
      out.push({ kind: "atom", value: src.slice(i, j) });
      i = j;
    }
  }
  return out;
}

/** The predicates of one pattern's text: operator and operands, in order. */
function predicates(tokens: Token[]): Array<{ op: string; args: Token[] }> {
  const found: Array<{ op: string; args: Token[] }> = [];
  for (let i = 0; i + 1 < tokens.length; i++) {
    const head = tokens[i + 1]!;
    if (tokens[i]!.kind !== "open" || head.kind !== "atom" || !head.value.startsWith("#")) continue;
    const args: Token[] = [];
    let j = i + 2;
    while (j < tokens.length && tokens[j]!.kind !== "close" && tokens[j]!.kind !== "open") args.push(tokens[j++]!);
    found.push({ op: head.value.slice(1), args });
  }
  return found;
}

export function requiredLiterals(query: Query, source: string): PatternNeeds[] {
  const bytes = Buffer.from(source, "utf8");
  const needs: PatternNeeds[] = [];
  for (let p = 0; p < query.patternCount(); p++) {
    const text = bytes.subarray(query.startIndexForPattern(p), query.endIndexForPattern(p)).toString("utf8");
    const tokens = tokenize(text);
    const pattern: PatternNeeds = [];
    if (!tokens.some((t) => t.kind === "bad")) {
      for (const { op, args } of predicates(tokens)) {
        const [capture, ...rest] = args;
        if (capture?.kind !== "atom" || !capture.value.startsWith("@")) continue;
        const index = query.captureNames.indexOf(capture.value.slice(1));
        const quantifier = index < 0 ? undefined : query.captureQuantifiers[p]?.[index];
        if (quantifier !== ONE && quantifier !== ONE_OR_MORE) continue;
        const strings = rest.every((t) => t.kind === "string") ? rest.map((t) => (t as { value: string }).value) : [];
        if ((op === "eq?" || op === "any-eq?") && strings.length === 1) pattern.push(strings);
        else if (op === "any-of?" && strings.length >= 1) pattern.push(strings);
      }
    }
    needs.push(pattern);
  }
  return needs;
}
