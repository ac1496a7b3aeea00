// The lexer: splits a command line into words, control operators and
// redirection operators, reading here-document bodies as their lines arrive.
// Words keep their source text and their value after quote removal; $-
// expansions and substitutions stay as written, their inner text recorded.

import { decodeAnsiC } from "./ansi-c.js";
import { findSubstitutions, ParseError, skipBacktick, skipBraces, skipParens } from "./scan.js";
import type { Redirect, RedirectOp, Word } from "./types.js";

export type Token =
  | { kind: "word"; word: Word; subs: string[] }
  | { kind: "op"; op: string }
  | { kind: "redir"; op: RedirectOp; fd: number | undefined }
  | { kind: "eof" };

const META = new Set([" ", "\t", "\n", ";", "&", "|", "<", ">", "(", ")"]);
// Longest first, so `;;&` is not read as `;;` then `&`.
const CONTROL_OPS = [";;&", ";;", ";&", "&&", "||", "|&", ";", "&", "|", "(", ")"];
const REDIRECT_OPS: RedirectOp[] = ["&>>", "&>", "<<<", "<<-", "<<", "<&", "<>", "<", ">>", ">|", ">&", ">"];
// Inside [[ ]] these belong to the test expression.
const CONDITIONAL_WORDS = ["&&", "||", "<", ">", "(", ")", "|"];

export interface PendingHeredoc {
  redirect: Redirect;
  stripTabs: boolean;
  /** Where substitutions found in an unquoted body are recorded. */
  sinks: string[][];
}

interface WordBuilder {
  value: string;
  quoted: boolean;
  dynamic: boolean;
  subs: string[];
}

export class Lexer {
  pos = 0;
  /** Inside `[[ ... ]]`. */
  conditional = false;
  /** A `#` comment was skipped somewhere. */
  comment = false;
  private pending: PendingHeredoc[] = [];

  constructor(private readonly src: string) {}

  queueHeredoc(h: PendingHeredoc): void {
    this.pending.push(h);
  }

  next(): Token {
    this.skipBlank();
    const { src } = this;
    if (this.pos >= src.length) {
      this.readHeredocs();
      return { kind: "eof" };
    }
    const c = src[this.pos]!;
    if (c === "\n") {
      this.pos++;
      this.readHeredocs();
      return { kind: "op", op: "\n" };
    }
    if (this.conditional) {
      const op = CONDITIONAL_WORDS.find((w) => src.startsWith(w, this.pos));
      if (op) {
        this.pos += op.length;
        return { kind: "word", word: { raw: op, value: op, quoted: false, dynamic: false }, subs: [] };
      }
      return this.readWord();
    }
    if ((c === "<" || c === ">") && src[this.pos + 1] === "(") return this.readWord();
    // A descriptor number counts only when it is the whole word before the operator.
    const fdText = /^\d+(?=[<>])/.exec(src.slice(this.pos, this.pos + 12))?.[0];
    const at = this.pos + (fdText?.length ?? 0);
    for (const op of REDIRECT_OPS) {
      if (fdText !== undefined && op.startsWith("&")) continue;
      if (src.startsWith(op, at)) {
        this.pos = at + op.length;
        return { kind: "redir", op, fd: fdText === undefined ? undefined : Number(fdText) };
      }
    }
    for (const op of CONTROL_OPS) {
      if (src.startsWith(op, this.pos)) {
        this.pos += op.length;
        return { kind: "op", op };
      }
    }
    return this.readWord();
  }

  private skipBlank(): void {
    const { src } = this;
    for (;;) {
      const c = src[this.pos];
      if (c === " " || c === "\t") this.pos++;
      else if (c === "\\" && src[this.pos + 1] === "\n") this.pos += 2;
      else if (c === "#") {
        this.comment = true;
        const nl = src.indexOf("\n", this.pos);
        this.pos = nl < 0 ? src.length : nl;
      } else return;
    }
  }

  /** Bodies start on the line after their operator, in the order the operators appeared. */
  private readHeredocs(): void {
    const { src } = this;
    for (const h of this.pending) {
      const delimiter = h.redirect.target.value;
      const lines: string[] = [];
      // An unterminated body runs to the end of the input: bash only warns.
      while (this.pos < src.length) {
        const nl = src.indexOf("\n", this.pos);
        const end = nl < 0 ? src.length : nl;
        let line = src.slice(this.pos, end);
        this.pos = nl < 0 ? end : end + 1;
        if (h.stripTabs) line = line.replace(/^\t+/, "");
        if (line === delimiter) break;
        lines.push(line);
      }
      const body = lines.length ? `${lines.join("\n")}\n` : "";
      h.redirect.body = body;
      if (!h.redirect.target.quoted) {
        const subs = findSubstitutions(body);
        for (const sink of h.sinks) sink.push(...subs);
      }
    }
    this.pending = [];
  }

  private readWord(): Token {
    const { src } = this;
    const start = this.pos;
    const w: WordBuilder = { value: "", quoted: false, dynamic: false, subs: [] };
    let openBracket = false;
    let openBrace = false;
    let braceList = false;
    while (this.pos < src.length) {
      const c = src[this.pos]!;
      if ((c === "<" || c === ">") && src[this.pos + 1] === "(" && this.pos === start) {
        // Process substitution: a command whose output (or input) is a path.
        const end = skipParens(src, this.pos + 2);
        w.subs.push(src.slice(this.pos + 2, end - 1));
        w.value += src.slice(this.pos, end);
        w.dynamic = true;
        this.pos = end;
        continue;
      }
      if (META.has(c)) {
        if (c === "(" && /^[A-Za-z_][A-Za-z0-9_]*\+?=$/.test(src.slice(start, this.pos))) {
          // Array assignment `a=(1 2)`: the list is part of the word.
          const end = skipParens(src, this.pos + 1);
          w.value += src.slice(this.pos, end);
          w.dynamic = true;
          this.pos = end;
          continue;
        }
        break;
      }
      switch (c) {
        case "'": {
          const end = src.indexOf("'", this.pos + 1);
          if (end < 0) throw new ParseError("unterminated single quote");
          w.value += src.slice(this.pos + 1, end);
          w.quoted = true;
          this.pos = end + 1;
          break;
        }
        case '"':
          this.readDoubleQuoted(w);
          break;
        case "\\": {
          const e = src[this.pos + 1];
          if (e === undefined) {
            w.value += "\\";
            this.pos++;
          } else {
            if (e !== "\n") {
              w.value += e;
              w.quoted = true;
            }
            this.pos += 2;
          }
          break;
        }
        case "$":
          this.readDollar(w, false);
          break;
        case "`":
          this.readBacktick(w);
          break;
        default:
          if (c === "*" || c === "?" || (c === "~" && this.pos === start)) w.dynamic = true;
          else if (c === "[") openBracket = true;
          else if (c === "]" && openBracket) w.dynamic = true;
          else if (c === "{") openBrace = true;
          else if (openBrace && (c === "," || (c === "." && src[this.pos + 1] === "."))) braceList = true;
          else if (c === "}" && braceList) w.dynamic = true;
          w.value += c;
          this.pos++;
      }
    }
    if (this.pos === start) throw new ParseError(`unexpected character ${JSON.stringify(src[start])}`);
    const raw = src.slice(start, this.pos);
    if (this.conditional && raw === "]]") this.conditional = false;
    return { kind: "word", word: { raw, value: w.value, quoted: w.quoted, dynamic: w.dynamic }, subs: w.subs };
  }

  private readDoubleQuoted(w: WordBuilder): void {
    const { src } = this;
    this.pos++;
    for (;;) {
      if (this.pos >= src.length) throw new ParseError("unterminated double quote");
      const c = src[this.pos]!;
      if (c === '"') {
        this.pos++;
        break;
      }
      if (c === "\\") {
        const e = src[this.pos + 1];
        if (e === "\n") this.pos += 2;
        else if (e !== undefined && '$`"\\'.includes(e)) {
          w.value += e;
          this.pos += 2;
        } else {
          w.value += "\\";
          this.pos++;
        }
      } else if (c === "$") this.readDollar(w, true);
      else if (c === "`") this.readBacktick(w);
      else {
        w.value += c;
        this.pos++;
      }
    }
    w.quoted = true;
  }

  private readDollar(w: WordBuilder, inDouble: boolean): void {
    const { src } = this;
    const p = this.pos;
    const n = src[p + 1];
    if (n === "(") {
      const arithmetic = src[p + 2] === "(";
      const end = skipParens(src, p + 2);
      // Arithmetic runs no command itself, but bash expands `$(...)` inside it first.
      if (arithmetic) w.subs.push(...findSubstitutions(src.slice(p + 3, end - 2)));
      else w.subs.push(src.slice(p + 2, end - 1));
      w.value += src.slice(p, end);
      w.dynamic = true;
      this.pos = end;
    } else if (n === "{") {
      const end = skipBraces(src, p + 2);
      w.subs.push(...findSubstitutions(src.slice(p + 2, end - 1)));
      w.value += src.slice(p, end);
      w.dynamic = true;
      this.pos = end;
    } else if (n === "'" && !inDouble) {
      // $'...' quoting: backslash escapes are decoded, nothing is expanded.
      const { value, end } = decodeAnsiC(src, p + 2);
      w.value += value;
      w.quoted = true;
      this.pos = end;
    } else if (n === '"' && !inDouble) {
      this.pos++;
      this.readDoubleQuoted(w);
    } else {
      const name = /^(?:[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])/.exec(src.slice(p + 1, p + 128))?.[0];
      if (name) {
        w.value += `$${name}`;
        w.dynamic = true;
        this.pos = p + 1 + name.length;
      } else {
        w.value += "$";
        this.pos++;
      }
    }
  }

  private readBacktick(w: WordBuilder): void {
    const end = skipBacktick(this.src, this.pos);
    w.subs.push(this.src.slice(this.pos + 1, end - 1).replace(/\\([\\`$])/g, "$1"));
    w.value += this.src.slice(this.pos, end);
    w.dynamic = true;
    this.pos = end;
  }
}
