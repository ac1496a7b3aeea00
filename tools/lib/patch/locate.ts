// Finding where a hunk's old lines sit in a file: one unique exact match,
// else one unique whitespace-normalised whole-line match. Two or more
// matches are ambiguous and change nothing. A miss or a tie answers with
// repair candidates: the closest spans of the file, with their line numbers.

import { tolerantLineEq } from "../punctuation-fold.js";

export interface Candidate {
  /** 1-based first line of the span. */
  line: number;
  lines: string[];
  /** 0..1, how close the span is to the hunk's old lines. */
  score: number;
}

export type MatchTier = "exact" | "whitespace" | "punctuation";

export type LocateResult =
  | { ok: true; index: number; tier: MatchTier }
  | { ok: false; kind: "not_found" | "ambiguous"; candidates: Candidate[]; tier?: MatchTier };

export interface LocateOptions {
  /** First line index the match may start at. */
  from: number;
  /** The match must end at the last line of the file. */
  eof?: boolean;
  /** How many candidates to return on a miss. */
  maxCandidates?: number;
  /** Also try a match that differs only in punctuation forms and spacing (Chord). */
  punctuation?: boolean;
  /** An exact match is taken at its first place after `from` (Chord); tolerant matches must still be unique. */
  firstExact?: boolean;
}

export const normaliseLine = (s: string): string => s.trim().replace(/\s+/g, " ");

function matchesAt(lines: readonly string[], needle: readonly string[], at: number, eq: (a: string, b: string) => boolean): boolean {
  for (let k = 0; k < needle.length; k++) if (!eq(lines[at + k]!, needle[k]!)) return false;
  return true;
}

function allMatches(lines: readonly string[], needle: readonly string[], opts: LocateOptions, eq: (a: string, b: string) => boolean): number[] {
  const lastStart = lines.length - needle.length;
  if (opts.eof) {
    return lastStart >= opts.from && matchesAt(lines, needle, lastStart, eq) ? [lastStart] : [];
  }
  const found: number[] = [];
  for (let at = Math.max(0, opts.from); at <= lastStart; at++) if (matchesAt(lines, needle, at, eq)) found.push(at);
  return found;
}

const exactEq = (a: string, b: string): boolean => a === b;
const normEq = (a: string, b: string): boolean => a === b || normaliseLine(a) === normaliseLine(b);

/**
 * The one place the needle matches, trying each tier in turn: exact, then
 * whitespace-normalised (then, when asked, punctuation-tolerant). A tier
 * with two or more matches is ambiguous (Chord takes the first exact one
 * after the previous hunk, as its hunks apply in order): a line-number hint
 * never picks one of them, since picking wrongly edits the wrong place.
 */
export function locate(lines: readonly string[], needle: readonly string[], opts: LocateOptions): LocateResult {
  const max = opts.maxCandidates ?? 3;
  const tiers: Array<[MatchTier, (a: string, b: string) => boolean]> = [
    ["exact", exactEq],
    ["whitespace", normEq],
  ];
  if (opts.punctuation) tiers.push(["punctuation", tolerantLineEq]);
  for (const [tier, eq] of tiers) {
    const found = allMatches(lines, needle, opts, eq);
    if (found.length === 0) continue;
    if (found.length === 1 || (tier === "exact" && opts.firstExact)) return { ok: true, index: found[0]!, tier };
    return {
      ok: false,
      kind: "ambiguous",
      tier,
      candidates: found.slice(0, Math.max(max, 5)).map((i) => ({ line: i + 1, lines: lines.slice(i, i + needle.length), score: 1 })),
    };
  }
  return { ok: false, kind: "not_found", candidates: closestSpans(lines, needle, max) };
}

/** Character bigrams of the normalised line: robust to typos and spacing. */
function tokens(s: string): Set<string> {
  const n = normaliseLine(s);
  const out = new Set<string>();
  for (let i = 0; i + 1 < n.length; i++) out.add(n.slice(i, i + 2));
  if (n.length === 1) out.add(n);
  return out;
}

function lineScore(a: string, b: string, ta: Set<string>, tb: Set<string>): number {
  if (a === b) return 1;
  if (normaliseLine(a) === normaliseLine(b)) return 0.95;
  if (ta.size === 0 && tb.size === 0) return 1;
  let shared = 0;
  for (const t of ta) if (tb.has(t)) shared++;
  return (2 * shared) / (ta.size + tb.size) * 0.9;
}

/** The windows of the file that look most like `needle`, best first, not overlapping. */
function closestSpans(lines: readonly string[], needle: readonly string[], max: number): Candidate[] {
  if (needle.length === 0 || lines.length === 0 || max <= 0) return [];
  const width = Math.min(needle.length, lines.length);
  const fileTokens = lines.map(tokens);
  const needleTokens = needle.map(tokens);
  const scored: Array<{ at: number; score: number }> = [];
  for (let at = 0; at + width <= lines.length; at++) {
    let sum = 0;
    for (let k = 0; k < width; k++) sum += lineScore(lines[at + k]!, needle[k]!, fileTokens[at + k]!, needleTokens[k]!);
    scored.push({ at, score: sum / needle.length });
  }
  scored.sort((a, b) => b.score - a.score || a.at - b.at);
  const out: Candidate[] = [];
  for (const s of scored) {
    if (out.length >= max || s.score < 0.3) break;
    if (out.some((c) => Math.abs(c.line - 1 - s.at) < width)) continue;
    out.push({ line: s.at + 1, lines: lines.slice(s.at, s.at + width), score: Math.round(s.score * 100) / 100 });
  }
  return out;
}

/** Candidates as the model sees them: numbered lines of each span. */
export function formatCandidates(path: string, candidates: readonly Candidate[], ambiguous = false): string {
  if (candidates.length === 0) return `no similar lines found in ${path}; read the file and copy the lines exactly`;
  const out = [ambiguous ? `matching spans in ${path}:` : `closest spans in ${path} (read them and copy the lines exactly):`];
  for (const c of candidates) {
    const end = c.line + c.lines.length - 1;
    out.push(`  lines ${c.line}-${end}${c.score < 1 ? ` (similarity ${c.score.toFixed(2)})` : ""}:`);
    c.lines.forEach((l, k) => out.push(`    ${c.line + k}| ${l.length > 160 ? `${l.slice(0, 157)}...` : l}`));
  }
  return out.join("\n");
}
