// One text, one compiled query: the matches in source order, each with its
// @match node and every capture's text, plus where the first syntax error
// is, if the text does not parse cleanly. Offsets here are UTF-16 (the
// parser's); ByteMap turns them into bytes for display.

import type { Node, Parser, Query } from "web-tree-sitter";
import { MATCH_CAPTURE, MATCH_RULE } from "./query.js";

interface Capture {
  name: string;
  start: number;
  end: number;
  text: string;
}

export interface FoundMatch {
  /** UTF-16 range of the @match node. */
  start: number;
  end: number;
  nodeType: string;
  captures: Capture[];
}

export type TextScan =
  | { ok: true; matches: FoundMatch[]; syntaxError?: { row: number; index: number } }
  | { ok: false; kind: "match_capture"; error: string };

/**
 * The text as the parser should see it: a byte order mark becomes a space,
 * so it is not a syntax error and every offset stays the same.
 */
export function parseable(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? ` ${text.slice(1)}` : text;
}

/** The first ERROR or MISSING node, in document order. */
export function firstSyntaxError(root: Node): { row: number; index: number } | undefined {
  if (!root.hasError) return undefined;
  const cursor = root.walk();
  try {
    for (;;) {
      const node = cursor.currentNode;
      if (node.isError || node.isMissing) return { row: node.startPosition.row, index: node.startIndex };
      // Descend only into subtrees that hold an error.
      if (node.hasError && cursor.gotoFirstChild()) continue;
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) return { row: root.startPosition.row, index: root.startIndex };
      }
    }
  } finally {
    cursor.delete();
  }
}

export function scanText(parser: Parser, query: Query, text: string): TextScan {
  const tree = parser.parse(parseable(text));
  if (!tree) return { ok: true, matches: [] };
  try {
    const matches: FoundMatch[] = [];
    for (const m of query.matches(tree.rootNode)) {
      const roots = m.captures.filter((c) => c.name === MATCH_CAPTURE);
      if (roots.length !== 1) {
        return { ok: false, kind: "match_capture", error: `ERROR: ${MATCH_RULE}; a match of pattern ${m.patternIndex + 1} has ${roots.length}` };
      }
      const node = roots[0]!.node;
      matches.push({
        start: node.startIndex,
        end: node.endIndex,
        nodeType: node.type,
        captures: m.captures.map((c) => ({
          name: c.name,
          start: c.node.startIndex,
          end: c.node.endIndex,
          text: text.slice(c.node.startIndex, c.node.endIndex),
        })),
      });
    }
    matches.sort((a, b) => a.start - b.start || a.end - b.end);
    const syntaxError = firstSyntaxError(tree.rootNode);
    return syntaxError ? { ok: true, matches, syntaxError } : { ok: true, matches };
  } finally {
    tree.delete();
  }
}

/** Matches of one node range once, for listing (two patterns may report the same node). */
export function distinctRanges(matches: readonly FoundMatch[]): FoundMatch[] {
  const out: FoundMatch[] = [];
  for (const m of matches) {
    const last = out[out.length - 1];
    if (last && last.start === m.start && last.end === m.end) continue;
    out.push(m);
  }
  return out;
}
