// Permission globs (digest 4.2): `*` is any run of characters — `/`, spaces
// and newlines included — and `?` exactly one; everything else is literal
// (no classes, no escapes). A pattern matches the whole value, never a part.
// One special case: a pattern ending in ` *` also matches the value without
// that suffix, so `ls *` covers a bare `ls` but not `lsof`.

/** True when `pattern` matches all of `value`. */
export function globMatch(pattern: string, value: string): boolean {
  if (matchAnchored(pattern, value)) return true;
  return pattern.endsWith(" *") && matchAnchored(pattern.slice(0, -2), value);
}

/** An absent pattern or one made only of `*`: it matches every value. */
export function isUniversal(pattern: string | undefined): boolean {
  return pattern === undefined || /^\*+$/.test(pattern);
}

/** A pattern with no `*` or `?`: it names exactly one value. */
export function isLiteral(pattern: string): boolean {
  return !/[*?]/.test(pattern);
}

/**
 * Wildcard matching by code point with one backtrack point (the last `*`):
 * linear in practice and never exponential, whatever the pattern.
 */
function matchAnchored(pattern: string, value: string): boolean {
  const p = Array.from(pattern);
  const s = Array.from(value);
  let pi = 0;
  let si = 0;
  let star = -1;
  let mark = 0;
  while (si < s.length) {
    const c = p[pi];
    if (c === "*") {
      star = pi++;
      mark = si;
    } else if (c !== undefined && (c === "?" || c === s[si])) {
      pi++;
      si++;
    } else if (star >= 0) {
      pi = star + 1;
      si = ++mark;
    } else {
      return false;
    }
  }
  while (p[pi] === "*") pi++;
  return pi === p.length;
}
