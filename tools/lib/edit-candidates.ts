// Near-miss search for `edit`: when old_str is not in the file verbatim, find
// the spans the model most likely meant, name the kind of drift (its
// matching strategy and a hint at the cause) and score them, so the model can retry with the
// exact text instead of re-reading the whole file.

import { xmlEscape } from "./search-envelope.js";

// The order the fuzzy cascade tries them in, and the tie-break when two
// strategies find the same span: whitespace drift of any shape first, then the
// line-wise relaxations, then escapes, boundaries and the loose block anchor.
export const STRATEGIES = [
  "whitespace_normalized",
  "line_trimmed",
  "indentation_flexible",
  "escape_normalized",
  "trimmed_boundary",
  "block_anchor",
] as const;
export type Strategy = (typeof STRATEGIES)[number];

/** A candidate's strategy: a fuzzy one, or `exact` for one of several verbatim copies. */
type CandidateStrategy = Strategy | "exact";

const CAUSE_HINTS: Record<CandidateStrategy, string> = {
  exact: "multiple_matches",
  whitespace_normalized: "whitespace_drift",
  line_trimmed: "trailing_whitespace",
  indentation_flexible: "indent_drift",
  escape_normalized: "escape_artifact",
  trimmed_boundary: "boundary_whitespace",
  block_anchor: "interior_drift",
};

export interface Candidate {
  strategy: CandidateStrategy;
  /** Character offsets of the span in the (LF) text. */
  start: number;
  end: number;
  /** 1-based line the span starts on. */
  line: number;
  similarity: number;
  span: string;
}

type Span = { start: number; end: number };

// Bounds the work on pathological inputs; a candidate list is advice, not proof.
const MAX_SPANS_PER_STRATEGY = 50;
const MAX_SCORED = 30;
const SIMILARITY_CHARS = 2000;

class LineIndex {
  readonly lines: string[];
  readonly starts: number[] = [];
  constructor(readonly text: string) {
    this.lines = text.split("\n");
    let pos = 0;
    for (const line of this.lines) {
      this.starts.push(pos);
      pos += line.length + 1;
    }
  }
  /** Span of lines [from, to] inclusive, with the newline after `to` when `withNewline`. */
  span(from: number, to: number, withNewline: boolean): Span {
    const start = this.starts[from] ?? 0;
    let end = (this.starts[to] ?? 0) + (this.lines[to] ?? "").length;
    if (withNewline && end < this.text.length) end += 1;
    return { start, end };
  }
  lineOf(offset: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.starts[mid] ?? 0) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }
}

const occurrences = (text: string, needle: string): Span[] => {
  const out: Span[] = [];
  if (!needle) return out;
  for (let i = text.indexOf(needle); i >= 0 && out.length < MAX_SPANS_PER_STRATEGY; i = text.indexOf(needle, i + 1)) {
    out.push({ start: i, end: i + needle.length });
  }
  return out;
};

const commonIndent = (lines: readonly string[]): string => {
  let indent: string | undefined;
  for (const line of lines) {
    if (!line.trim()) continue;
    const lead = /^[ \t]*/.exec(line)?.[0] ?? "";
    if (indent === undefined) indent = lead;
    else while (!lead.startsWith(indent)) indent = indent.slice(0, -1);
  }
  return indent ?? "";
};

/** Slides a window of the find's line count over the file, comparing lines through `key`. */
function windowMatches(index: LineIndex, find: string, key: (lines: string[]) => string[]): Span[] {
  const trailingNewline = find.endsWith("\n");
  const findLines = (trailingNewline ? find.slice(0, -1) : find).split("\n");
  const want = key(findLines).join("\n");
  const n = findLines.length;
  const out: Span[] = [];
  for (let i = 0; i + n <= index.lines.length && out.length < MAX_SPANS_PER_STRATEGY; i++) {
    if (key(index.lines.slice(i, i + n)).join("\n") === want) out.push(index.span(i, i + n - 1, trailingNewline));
  }
  return out;
}

const unescape = (s: string): string =>
  s.replace(/\\(["'`\\nrt])/g, (_, c: string) => ({ n: "\n", r: "\r", t: "\t" })[c] ?? c);

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function blockAnchorMatches(index: LineIndex, find: string): Span[] {
  const trailingNewline = find.endsWith("\n");
  const findLines = (trailingNewline ? find.slice(0, -1) : find).split("\n");
  const n = findLines.length;
  const first = findLines[0]?.trim() ?? "";
  const last = findLines[n - 1]?.trim() ?? "";
  if (n < 3 || !first || !last) return [];
  const out: Span[] = [];
  for (let i = 0; i < index.lines.length && out.length < MAX_SPANS_PER_STRATEGY; i++) {
    if (index.lines[i]?.trim() !== first) continue;
    // The interior may have drifted by a few lines either way.
    const maxEnd = Math.min(index.lines.length - 1, i + 2 * n);
    for (let j = i + 1; j <= maxEnd; j++) {
      if (index.lines[j]?.trim() === last) out.push(index.span(i, j, trailingNewline));
    }
  }
  return out;
}

function spansFor(strategy: Strategy, index: LineIndex, find: string): Span[] {
  switch (strategy) {
    case "trimmed_boundary": {
      const trimmed = find.trim();
      return trimmed && trimmed !== find ? occurrences(index.text, trimmed) : [];
    }
    case "line_trimmed":
      return windowMatches(index, find, (ls) => ls.map((l) => l.trimEnd()));
    case "indentation_flexible":
      return windowMatches(index, find, (ls) => ls.map((l) => l.trimStart()));
    case "whitespace_normalized": {
      const tokens = find.trim().split(/\s+/).filter(Boolean);
      if (tokens.length < 2) return [];
      const re = new RegExp(tokens.map(escapeRegExp).join("\\s+"), "g");
      const out: Span[] = [];
      for (const m of index.text.matchAll(re)) {
        out.push({ start: m.index, end: m.index + m[0].length });
        if (out.length >= MAX_SPANS_PER_STRATEGY) break;
      }
      return out;
    }
    case "escape_normalized": {
      const plain = unescape(find);
      return plain !== find ? occurrences(index.text, plain) : [];
    }
    case "block_anchor":
      return blockAnchorMatches(index, find);
  }
}

/** 1 − normalised Levenshtein distance, on bounded prefixes of both strings. */
export function similarity(a: string, b: string): number {
  if (a === b) return 1;
  const x = a.slice(0, SIMILARITY_CHARS);
  const y = b.slice(0, SIMILARITY_CHARS);
  const longest = Math.max(x.length, y.length);
  if (longest === 0) return 1;
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  let cur = new Array<number>(y.length + 1).fill(0);
  for (let i = 1; i <= x.length; i++) {
    cur[0] = i;
    for (let j = 1; j <= y.length; j++) {
      const cost = x.charCodeAt(i - 1) === y.charCodeAt(j - 1) ? 0 : 1;
      cur[j] = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
    }
    [prev, cur] = [cur, prev];
  }
  return 1 - (prev[y.length] ?? longest) / longest;
}

const score = (strategy: CandidateStrategy, text: string, find: string, index: LineIndex, { start, end }: Span): Candidate => {
  const span = text.slice(start, end);
  return { strategy, start, end, line: index.lineOf(start), span, similarity: similarity(find, span) };
};

/** Spans one strategy finds for `find` in `text`, scored. */
export function strategyCandidates(strategy: Strategy, text: string, find: string): Candidate[] {
  const index = new LineIndex(text);
  return spansFor(strategy, index, find).map((span) => score(strategy, text, find, index, span));
}

/** Every verbatim copy of `find` in `text`, in file order, as candidates. */
export function exactCandidates(text: string, find: string): Candidate[] {
  const index = new LineIndex(text);
  return occurrences(text, find).map((span) => score("exact", text, find, index, span));
}

/**
 * Every strategy's spans, one entry per span (the most specific strategy names
 * it), best score first. Scoring is the costly part, so only the first
 * MAX_SCORED distinct spans are scored.
 */
export function findCandidates(text: string, find: string): Candidate[] {
  const index = new LineIndex(text);
  const bySpan = new Map<string, { strategy: Strategy; span: Span }>();
  for (const strategy of STRATEGIES) {
    for (const span of spansFor(strategy, index, find)) {
      const key = `${span.start}:${span.end}`;
      if (!bySpan.has(key) && bySpan.size < MAX_SCORED) bySpan.set(key, { strategy, span });
    }
  }
  return [...bySpan.values()]
    .map(({ strategy, span }) => score(strategy, text, find, index, span))
    .sort((a, b) => b.similarity - a.similarity || a.line - b.line);
}

/** The `<candidates ...>` block that follows `ERROR: old_str not found in <path>`. */
export function formatCandidates(path: string, candidates: readonly Candidate[]): string {
  const top = candidates[0];
  if (!top) return "";
  const lines = [
    `<candidates total="${candidates.length}" cause_hint="${CAUSE_HINTS[top.strategy]}" path="${xmlEscape(path)}">`,
  ];
  candidates.forEach((c, i) => {
    lines.push(
      `  <candidate rank="${i + 1}" strategy="${c.strategy}" similarity="${c.similarity.toFixed(2)}" line="${c.line}">`,
      c.span.endsWith("\n") ? c.span.slice(0, -1) : c.span,
      "  </candidate>",
    );
  });
  lines.push("</candidates>");
  return lines.join("\n");
}

/** Re-indents new_str by the shift of common indentation an indentation_flexible match found. */
export function reindent(newStr: string, find: string, span: string): string {
  const from = commonIndent(find.split("\n"));
  const to = commonIndent(span.split("\n"));
  if (from === to) return newStr;
  return newStr
    .split("\n")
    .map((l) => (l.startsWith(from) && l.trim() ? to + l.slice(from.length) : l))
    .join("\n");
}

/** Drops from new_str the boundary whitespace old_str had and the file lacked. */
export function trimBoundary(newStr: string, find: string): string {
  const lead = find.slice(0, find.length - find.trimStart().length);
  const trail = find.slice(find.trimEnd().length);
  let out = newStr;
  if (lead && out.startsWith(lead)) out = out.slice(lead.length);
  if (trail && out.endsWith(trail)) out = out.slice(0, out.length - trail.length);
  return out;
}
