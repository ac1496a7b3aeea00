// `$'...'` quoting: bash decodes backslash escapes inside and expands
// nothing. Decoded in full — `\x72m` is `rm`, `\162m` too — because a
// command name spelled with escapes still runs that command.

import { ParseError } from "./scan.js";

const SIMPLE: Record<string, string> = {
  n: "\n",
  t: "\t",
  r: "\r",
  a: "\x07",
  b: "\b",
  e: "\x1b",
  E: "\x1b",
  f: "\f",
  v: "\v",
};

/** Decodes from `start` (just past `$'`) to the closing quote; `end` is past it. */
export function decodeAnsiC(src: string, start: number): { value: string; end: number } {
  let value = "";
  let i = start;
  for (;;) {
    if (i >= src.length) throw new ParseError("unterminated $'...' quote");
    const c = src[i]!;
    if (c === "'") return { value, end: i + 1 };
    if (c !== "\\" || i + 1 >= src.length) {
      value += c;
      i++;
      continue;
    }
    const e = src[i + 1]!;
    const esc = escape(src, i + 1, e);
    value += esc.text;
    i = esc.next;
  }
}

/** One escape whose letter is at `at`: its text and the index after it. */
function escape(src: string, at: number, e: string): { text: string; next: number } {
  if (SIMPLE[e] !== undefined) return { text: SIMPLE[e]!, next: at + 1 };
  const digits = (re: RegExp, max: number): string => {
    let d = "";
    while (d.length < max && re.test(src[at + 1 + d.length] ?? "")) d += src[at + 1 + d.length];
    return d;
  };
  if (/[0-7]/.test(e)) {
    let d = e;
    while (d.length < 3 && /[0-7]/.test(src[at + d.length] ?? "")) d += src[at + d.length];
    return { text: String.fromCharCode(parseInt(d, 8) & 0xff), next: at + d.length };
  }
  if (e === "x") {
    const d = digits(/[0-9A-Fa-f]/, 2);
    return d ? { text: String.fromCharCode(parseInt(d, 16)), next: at + 1 + d.length } : { text: "\\x", next: at + 1 };
  }
  if (e === "u" || e === "U") {
    const d = digits(/[0-9A-Fa-f]/, e === "u" ? 4 : 8);
    const code = d ? parseInt(d, 16) : NaN;
    if (!d || code > 0x10ffff) return { text: `\\${e}`, next: at + 1 };
    return { text: String.fromCodePoint(code), next: at + 1 + d.length };
  }
  if (e === "c" && at + 1 < src.length) {
    return { text: String.fromCharCode(src.charCodeAt(at + 1) & 0x1f), next: at + 2 };
  }
  // `\\`, `\'`, `\"`, `\?` are the character; bash keeps an unknown escape as written.
  if ("\\'\"?".includes(e)) return { text: e, next: at + 1 };
  return { text: `\\${e}`, next: at + 1 };
}
