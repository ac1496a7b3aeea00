// Permission globs: `*` is any run of characters — `/`, spaces and newlines
// included — and `?` exactly one; a backslash makes the next `*`, `?` or `\`
// literal (`rm \*.log` names only the file `*.log`); every other character,
// a backslash before anything else included, is itself. A pattern matches
// the whole value, never a part. One special case: a pattern ending in ` *`
// also matches the value without that suffix, so `ls *` covers a bare `ls`
// but not `lsof`.

/** One pattern element: a literal character, `*` (STAR) or `?` (ONE). */
type Token = string | typeof STAR | typeof ONE;
const STAR = Symbol("*");
const ONE = Symbol("?");

/** A value in which some stretches are unknown: a string, or HOLE for "any text". */
export const HOLE = null;
export type TemplatePart = string | typeof HOLE;

function tokens(pattern: string): Token[] {
  const chars = Array.from(pattern);
  const out: Token[] = [];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    const next = chars[i + 1];
    if (c === "\\" && (next === "*" || next === "?" || next === "\\")) {
      out.push(next);
      i++;
    } else if (c === "*") out.push(STAR);
    else if (c === "?") out.push(ONE);
    else out.push(c);
  }
  return out;
}

/** The pattern's tokens, and those without the trailing ` *` when it has one. */
function variants(pattern: string): Token[][] {
  const t = tokens(pattern);
  const n = t.length;
  return n >= 2 && t[n - 1] === STAR && t[n - 2] === " " ? [t, t.slice(0, -2)] : [t];
}

/** True when `pattern` matches all of `value`. */
export function globMatch(pattern: string, value: string): boolean {
  const s = Array.from(value);
  return variants(pattern).some((t) => matchAnchored(t, s));
}

/**
 * True when `pattern` matches at least one value the template can stand
 * for: a HOLE may be any text. Used where the rule that matches should win
 * in doubt (a deny for `rm *.log` meets `rm $f`).
 */
export function globMatchesSome(pattern: string, parts: readonly TemplatePart[]): boolean {
  return variants(pattern).some((t) => matchTemplate(t, parts));
}

/** An absent pattern or one made only of `*`: it matches every value. */
export function isUniversal(pattern: string | undefined): boolean {
  return pattern === undefined || /^\*+$/.test(pattern);
}

/** A pattern with no unescaped `*` or `?`: it names exactly one value. */
export function isLiteral(pattern: string): boolean {
  return tokens(pattern).every((t) => typeof t === "string");
}

/** The one value a literal pattern names (escapes removed). */
export function literalValue(pattern: string): string {
  return tokens(pattern)
    .map((t) => (typeof t === "string" ? t : t === STAR ? "*" : "?"))
    .join("");
}

/** A pattern that matches exactly `value` and nothing else. */
export function escapeGlob(value: string): string {
  return value.replace(/[\\*?]/g, "\\$&");
}

/**
 * Wildcard matching with one backtrack point (the last `*`): linear in
 * practice and never exponential, whatever the pattern.
 */
function matchAnchored(p: readonly Token[], s: readonly string[]): boolean {
  let pi = 0;
  let si = 0;
  let star = -1;
  let mark = 0;
  while (si < s.length) {
    const t = p[pi];
    if (t === STAR) {
      star = pi++;
      mark = si;
    } else if (t !== undefined && (t === ONE || t === s[si])) {
      pi++;
      si++;
    } else if (star >= 0) {
      pi = star + 1;
      si = ++mark;
    } else {
      return false;
    }
  }
  while (p[pi] === STAR) pi++;
  return pi === p.length;
}

/**
 * The set of pattern positions reachable after each character, run over
 * the template. A HOLE can be any text, so from the earliest position
 * reached every later one is reachable.
 */
function matchTemplate(p: readonly Token[], parts: readonly TemplatePart[]): boolean {
  const n = p.length;
  let states = closure(new Set([0]), p);
  for (const part of parts) {
    if (part === HOLE) {
      if (states.size === 0) return false;
      const from = Math.min(...states);
      states = new Set(Array.from({ length: n + 1 - from }, (_, i) => from + i));
      continue;
    }
    for (const c of Array.from(part)) {
      const next = new Set<number>();
      for (const i of states) {
        const t = p[i];
        if (t === STAR) next.add(i);
        else if (t !== undefined && (t === ONE || t === c)) next.add(i + 1);
      }
      states = closure(next, p);
      if (states.size === 0) return false;
    }
  }
  return states.has(n);
}

/** A `*` also matches nothing: position i before a star reaches i + 1. */
function closure(states: Set<number>, p: readonly Token[]): Set<number> {
  for (const i of [...states].sort((a, b) => a - b)) {
    let j = i;
    while (p[j] === STAR) states.add(++j);
  }
  return states;
}
