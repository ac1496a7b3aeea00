// What a word can become when bash runs it: its literal text with a HOLE
// for every stretch only the run knows — `$x`, `$(…)`, backticks, an
// unquoted glob (`*`, `?`, `[…]`), a brace list, a leading `~`. The
// permission engine matches deny and ask rules against these, so `rm $f`
// or `rm *.log` still meets a rule for `rm important.txt`.

import { decodeAnsiC } from "./ansi-c.js";
import { skipBacktick, skipBraces, skipParens } from "./scan.js";
import type { Word } from "./types.js";

export const HOLE = null;
export type Part = string | typeof HOLE;

class Builder {
  readonly parts: Part[] = [];
  private text = "";
  add(s: string): void {
    this.text += s;
  }
  hole(): void {
    if (this.text) this.parts.push(this.text);
    this.text = "";
    if (this.parts.at(-1) !== HOLE) this.parts.push(HOLE);
  }
  done(): Part[] {
    if (this.text) this.parts.push(this.text);
    this.text = "";
    return this.parts;
  }
}

/** The word as literal text and holes; a word that does not scan is one HOLE. */
export function wordTemplate(word: Word): Part[] {
  if (!word.dynamic && !/[\\'"$`]/.test(word.raw)) return [word.value];
  try {
    return scan(word.raw);
  } catch {
    return [HOLE];
  }
}

const hasHole = (parts: readonly Part[]): boolean => parts.includes(HOLE);

function scan(raw: string): Part[] {
  const b = new Builder();
  let i = 0;
  while (i < raw.length) {
    const c = raw[i]!;
    if (c === "'") {
      const end = raw.indexOf("'", i + 1);
      if (end < 0) throw new Error("unterminated quote");
      b.add(raw.slice(i + 1, end));
      i = end + 1;
    } else if (c === '"') {
      i = doubleQuoted(raw, i + 1, b);
    } else if (c === "\\") {
      if (raw[i + 1] !== "\n") b.add(raw[i + 1] ?? "\\");
      i += 2;
    } else if (c === "$") {
      i = dollar(raw, i, b, false);
    } else if (c === "`") {
      b.hole();
      i = skipBacktick(raw, i);
    } else if ((c === "<" || c === ">") && raw[i + 1] === "(" && i === 0) {
      b.hole();
      i = skipParens(raw, i + 2);
    } else if (c === "*" || c === "?" || (c === "~" && i === 0)) {
      b.hole();
      i++;
    } else if (c === "[" && raw.indexOf("]", i + 1) > i) {
      b.hole();
      i = raw.indexOf("]", i + 1) + 1;
    } else if (c === "{" && braceEnd(raw, i) > 0) {
      b.hole();
      i = braceEnd(raw, i);
    } else {
      b.add(c);
      i++;
    }
  }
  return b.done();
}

/** Past the `}` of a brace list (`{a,b}`, `{1..3}`) starting at `at`, or 0. */
function braceEnd(raw: string, at: number): number {
  const close = raw.indexOf("}", at + 1);
  if (close < 0) return 0;
  const inner = raw.slice(at + 1, close);
  return inner.includes(",") || inner.includes("..") ? close + 1 : 0;
}

function doubleQuoted(raw: string, from: number, b: Builder): number {
  let i = from;
  for (;;) {
    if (i >= raw.length) throw new Error("unterminated quote");
    const c = raw[i]!;
    if (c === '"') return i + 1;
    if (c === "\\" && '$`"\\\n'.includes(raw[i + 1] ?? "")) {
      if (raw[i + 1] !== "\n") b.add(raw[i + 1]!);
      i += 2;
    } else if (c === "$") i = dollar(raw, i, b, true);
    else if (c === "`") {
      b.hole();
      i = skipBacktick(raw, i);
    } else {
      b.add(c);
      i++;
    }
  }
}

function dollar(raw: string, at: number, b: Builder, inDouble: boolean): number {
  const n = raw[at + 1];
  if (n === "(") {
    b.hole();
    return skipParens(raw, at + 2);
  }
  if (n === "{") {
    b.hole();
    return skipBraces(raw, at + 2);
  }
  if (n === "'" && !inDouble) {
    const { value, end } = decodeAnsiC(raw, at + 2);
    b.add(value);
    return end;
  }
  if (n === '"' && !inDouble) return doubleQuoted(raw, at + 2, b);
  const name = /^(?:[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])/.exec(raw.slice(at + 1, at + 128))?.[0];
  if (!name) {
    b.add("$");
    return at + 1;
  }
  b.hole();
  return at + 1 + name.length;
}

/** The program a command word names, as bash would look it up (`/bin/rm` → `rm`); undefined when the run decides it. */
export function programName(word: Word): string | undefined {
  const parts = wordTemplate(word);
  if (!hasHole(parts)) return basename(parts.join(""));
  // `$HOME/bin/rm`, `~/rm`: the directory varies, the name does not.
  const last = parts.at(-1);
  if (last === HOLE || last === undefined || !last.includes("/")) return undefined;
  const name = basename(last);
  return name === "" ? undefined : name;
}

const basename = (s: string): string => s.split("/").pop() ?? s;
