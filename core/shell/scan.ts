// Quoting-aware scanning helpers for nested constructs, shared by the lexer
// and the parser. Each skip function takes the index just past the opening
// delimiter and returns the index just past the closing one.

/** A syntax error: the text does not parse as bash. */
export class ParseError extends Error {}

export function skipBacktick(src: string, at: number): number {
  for (let i = at + 1; i < src.length; i++) {
    if (src[i] === "\\") i++;
    else if (src[i] === "`") return i + 1;
  }
  throw new ParseError("unterminated backquote");
}

function skipDoubleQuoted(src: string, at: number): number {
  let i = at + 1;
  while (i < src.length) {
    const c = src[i]!;
    if (c === "\\") i += 2;
    else if (c === '"') return i + 1;
    else if (c === "`") i = skipBacktick(src, i);
    else if (c === "$" && src[i + 1] === "(") i = skipParens(src, i + 2);
    else if (c === "$" && src[i + 1] === "{") i = skipBraces(src, i + 2);
    else i++;
  }
  throw new ParseError("unterminated double quote");
}

/** Past the `)` that balances an already-open `(`, honouring quotes and comments. */
export function skipParens(src: string, from: number): number {
  let depth = 1;
  let i = from;
  while (i < src.length) {
    const c = src[i]!;
    if (c === "\\") i += 2;
    else if (c === "'") {
      const end = src.indexOf("'", i + 1);
      if (end < 0) throw new ParseError("unterminated single quote");
      i = end + 1;
    } else if (c === '"') i = skipDoubleQuoted(src, i);
    else if (c === "`") i = skipBacktick(src, i);
    else if (c === "$" && src[i + 1] === "{") i = skipBraces(src, i + 2);
    else if (c === "#" && (i === from || /[\s;&|()]/.test(src[i - 1]!))) {
      // A comment may hold a `)` that must not close the substitution.
      const nl = src.indexOf("\n", i);
      i = nl < 0 ? src.length : nl;
    } else {
      if (c === "(") depth++;
      else if (c === ")" && --depth === 0) return i + 1;
      i++;
    }
  }
  throw new ParseError("unterminated $( or (");
}

export function skipBraces(src: string, from: number): number {
  let depth = 1;
  let i = from;
  while (i < src.length) {
    const c = src[i]!;
    if (c === "\\") i += 2;
    else if (c === '"') i = skipDoubleQuoted(src, i);
    else if (c === "`") i = skipBacktick(src, i);
    else if (c === "$" && src[i + 1] === "(") i = skipParens(src, i + 2);
    else {
      if (c === "{") depth++;
      else if (c === "}" && --depth === 0) return i + 1;
      i++;
    }
  }
  throw new ParseError("unterminated ${");
}

/** Command substitutions in text that bash expands but does not split (here-doc bodies, ${...}). */
export function findSubstitutions(text: string): string[] {
  const found: string[] = [];
  let i = 0;
  try {
    while (i < text.length) {
      const c = text[i]!;
      if (c === "\\") i += 2;
      else if (c === "`") {
        const end = skipBacktick(text, i);
        found.push(text.slice(i + 1, end - 1));
        i = end;
      } else if (c === "$" && text[i + 1] === "(" && text[i + 2] !== "(") {
        const end = skipParens(text, i + 2);
        found.push(text.slice(i + 2, end - 1));
        i = end;
      } else i++;
    }
  } catch {
    // bash would fail on the rest too; what was found so far is enough.
  }
  return found;
}
