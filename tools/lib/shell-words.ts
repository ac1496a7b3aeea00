// A small bash tokenizer: it splits a command line into list items, pipeline
// stages, words and redirections without expanding or running anything. The
// shell rules (shell-rules.ts) need to know which commands a line runs and
// where their output goes; a regex over the raw text cannot tell
// `grep 'a|b' f` from a pipeline or `echo '> x.py'` from a redirect.
//
// Only what those rules need is modelled. Compound commands (if/for/while/
// case, subshells, brace groups, functions) are flattened: the commands inside
// them become ordinary list items and the keywords are reported, so a caller
// that only trusts plain commands can decline anything structured.
// Substitutions ($(...), backticks, <(...), >(...)) stay opaque inside their
// word; their inner text is kept so a caller can parse it again.

export interface Word {
  /** Source text as written. */
  raw: string;
  /** Text after quote removal; expansions and substitutions are left as written. */
  value: string;
  /** Some part was quoted or backslash-escaped. */
  quoted: boolean;
  /** The runtime text is unknowable here: a $-expansion, substitution, unquoted glob or brace list, or leading tilde. */
  dynamic: boolean;
}

export type RedirectOp = ">" | ">>" | ">|" | "&>" | "&>>" | ">&" | "<" | "<>" | "<&" | "<<" | "<<-" | "<<<";

export interface Redirect {
  op: RedirectOp;
  /** Descriptor number written before the operator (`2>`), if any. */
  fd: number | undefined;
  /** File, descriptor (`1`, `-`) for duplications, delimiter for here-docs, text for here-strings. */
  target: Word;
  /** Here-document body (tabs already stripped for `<<-`), once its lines have been read. */
  body?: string;
}

export interface SimpleCommand {
  /** Leading `NAME=value` words. */
  assignments: Word[];
  words: Word[];
  redirects: Redirect[];
  /** Inner text of every command substitution in this command's words, redirects and here-doc. */
  substitutions: string[];
  /**
   * Set on the stand-in for a compound command that just closed (`done`, `fi`,
   * `}`, `)`, `esac`): it has no words, but the group it ends can still be piped
   * or redirected, so it keeps its place as a pipeline stage.
   */
  group?: string;
}

export interface Pipeline {
  stages: SimpleCommand[];
  negated: boolean;
}

export type ListOp = ";" | "&&" | "||" | "&" | "\n";

export interface ListItem {
  pipeline: Pipeline;
  /** The operator after this item; undefined at the end of the input or of a group. */
  op: ListOp | undefined;
}

export interface ShellParse {
  parseable: boolean;
  /** Why the text does not parse. */
  error: string | undefined;
  /** Complete items in source order; on a parse error, those before it (bash runs earlier lines). */
  items: ListItem[];
  /** An unquoted ; && || | & (or ;; |&), or a newline followed by another command. */
  hasOperator: boolean;
  /** Reserved words and grouping seen in command position (`if`, `for`, `{`, `(`, `function`, `!`, ...). */
  keywords: string[];
  /** Inner text of every command substitution anywhere in the input, loop headers included. */
  substitutions: string[];
}

class ParseError extends Error {}

/** Every simple command of a parse, in source order. */
export function commandsOf(parse: ShellParse): SimpleCommand[] {
  return parse.items.flatMap((item) => item.pipeline.stages);
}

/** The command name as bash would look it up, without its directory (`/usr/bin/grep` → `grep`). */
export function verbOf(words: readonly Word[]): string | undefined {
  const first = words[0];
  if (!first) return undefined;
  return first.value.split("/").pop();
}

// ---------------------------------------------------------------------------
// Scanning helpers for nested constructs. Each takes the index just past the
// opening delimiter and returns the index just past the closing one.

function skipBacktick(src: string, at: number): number {
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
function skipParens(src: string, from: number): number {
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

function skipBraces(src: string, from: number): number {
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
function findSubstitutions(text: string): string[] {
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

// ---------------------------------------------------------------------------
// Lexer

type Token =
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
const ANSI_ESCAPES: Record<string, string> = {
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

interface PendingHeredoc {
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

class Lexer {
  pos = 0;
  /** Inside `[[ ... ]]`. */
  conditional = false;
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
      if (!arithmetic) w.subs.push(src.slice(p + 2, end - 1));
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
      let i = p + 2;
      for (;;) {
        if (i >= src.length) throw new ParseError("unterminated $'...' quote");
        const c = src[i]!;
        if (c === "'") break;
        if (c === "\\" && i + 1 < src.length) {
          const e = src[i + 1]!;
          w.value += ANSI_ESCAPES[e] ?? e;
          i += 2;
        } else {
          w.value += c;
          i++;
        }
      }
      w.quoted = true;
      this.pos = i + 1;
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

// ---------------------------------------------------------------------------
// Parser: groups tokens into commands, pipelines and list items.

const RESERVED = new Set([
  "!",
  "{",
  "}",
  "if",
  "then",
  "else",
  "elif",
  "fi",
  "while",
  "until",
  "for",
  "select",
  "do",
  "done",
  "case",
  "esac",
  "function",
  "time",
]);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?\+?=/;

const emptyCommand = (): SimpleCommand => ({ assignments: [], words: [], redirects: [], substitutions: [] });

class Parser {
  readonly items: ListItem[] = [];
  readonly keywords: string[] = [];
  readonly substitutions: string[] = [];
  hasOperator = false;

  private readonly lexer: Lexer;
  private peeked: Token | undefined;
  private stages: SimpleCommand[] = [];
  private cur = emptyCommand();
  private negated = false;
  /** After | && ||: a command must follow; newlines are skipped meanwhile. */
  private expectCommand = false;
  /** A compound command just closed: only redirections and operators may follow. */
  private closed: string | undefined;
  /** A newline ended a command; it separates commands only if another follows. */
  private newlinePending = false;
  private parens = 0;
  private braces = 0;
  private ifs = 0;
  private loops = 0;
  /** Subshell depth at each open `case`, to tell a pattern's `)` from a subshell's. */
  private cases: number[] = [];
  private casePattern = false;

  constructor(src: string) {
    this.lexer = new Lexer(src);
  }

  run(): void {
    for (;;) {
      const tok = this.take();
      if (tok.kind === "eof") break;
      if (this.casePattern) this.readCasePattern(tok);
      else if (tok.kind === "word") this.onWord(tok.word, tok.subs);
      else if (tok.kind === "redir") this.onRedirect(tok.op, tok.fd);
      else this.onOp(tok.op);
    }
    this.finish();
  }

  private take(): Token {
    const tok = this.peeked ?? this.lexer.next();
    this.peeked = undefined;
    return tok;
  }

  private peek(): Token {
    this.peeked ??= this.lexer.next();
    return this.peeked;
  }

  private isEmpty(): boolean {
    const c = this.cur;
    return !c.words.length && !c.assignments.length && !c.redirects.length && c.group === undefined;
  }

  private startCommand(): void {
    if (this.newlinePending) this.hasOperator = true;
    this.newlinePending = false;
    this.expectCommand = false;
  }

  private onWord(word: Word, subs: string[]): void {
    if (this.closed !== undefined) throw new ParseError(`unexpected word ${word.raw} after ${this.closed}`);
    this.startCommand();
    this.substitutions.push(...subs);
    const c = this.cur;
    const atStart = this.isEmpty();
    if (atStart && !word.quoted && RESERVED.has(word.value)) {
      this.keyword(word.value);
      return;
    }
    c.substitutions.push(...subs);
    if (!c.words.length && ASSIGNMENT.test(word.raw)) {
      c.assignments.push(word);
      return;
    }
    if (!c.words.length && !word.quoted && word.value === "[[") this.lexer.conditional = true;
    c.words.push(word);
  }

  private onRedirect(op: RedirectOp, fd: number | undefined): void {
    if (this.closed === undefined) this.startCommand();
    const t = this.take();
    if (t.kind !== "word") throw new ParseError(`${op} has no target`);
    this.substitutions.push(...t.subs);
    const r: Redirect = { op, fd, target: t.word };
    this.cur.redirects.push(r);
    this.cur.substitutions.push(...t.subs);
    if (op === "<<" || op === "<<-") {
      this.lexer.queueHeredoc({ redirect: r, stripTabs: op === "<<-", sinks: [this.cur.substitutions, this.substitutions] });
    }
  }

  private onOp(op: string): void {
    switch (op) {
      case "(": {
        const c = this.cur;
        const named = c.words.length === 1 && !c.assignments.length && !c.redirects.length;
        if (named && this.closed === undefined && this.peek().kind === "op") {
          const close = this.take();
          if (close.kind !== "op" || close.op !== ")") throw new ParseError("syntax error near (");
          // `name() body`: a definition runs nothing now.
          this.keywords.push("function");
          this.cur = emptyCommand();
          return;
        }
        if (!this.isEmpty()) throw new ParseError("syntax error near unexpected token (");
        this.startCommand();
        this.parens++;
        this.keywords.push("(");
        return;
      }
      case ")":
        if (this.parens <= (this.cases.at(-1) ?? 0)) throw new ParseError("syntax error near unexpected token )");
        this.endPipeline(undefined);
        this.parens--;
        this.closeGroup(")");
        return;
      case "|":
      case "|&":
        if (this.isEmpty()) throw new ParseError(`syntax error near unexpected token ${op}`);
        this.stages.push(this.cur);
        this.cur = emptyCommand();
        this.closed = undefined;
        this.hasOperator = true;
        this.expectCommand = true;
        return;
      case "\n":
        // Blank lines, and newlines after | && ||, separate nothing.
        if (this.isEmpty() && (this.expectCommand || !this.stages.length)) return;
        this.endPipeline("\n");
        this.newlinePending = true;
        return;
    }
    const caseEnd = op === ";;" || op === ";&" || op === ";;&";
    if (caseEnd && !this.cases.length) throw new ParseError(`${op} outside case`);
    if (this.isEmpty() && (this.expectCommand || !this.stages.length)) {
      if (!(caseEnd && !this.expectCommand)) throw new ParseError(`syntax error near unexpected token ${op}`);
    } else {
      this.endPipeline(caseEnd ? ";" : (op as ListOp));
    }
    this.hasOperator = true;
    if (op === "&&" || op === "||") this.expectCommand = true;
    if (caseEnd) this.casePattern = true;
  }

  private endPipeline(op: ListOp | undefined): void {
    if (this.expectCommand && this.isEmpty()) throw new ParseError("a command must follow the operator");
    if (!this.isEmpty()) this.stages.push(this.cur);
    if (this.stages.length) this.items.push({ pipeline: { stages: this.stages, negated: this.negated }, op });
    this.stages = [];
    this.cur = emptyCommand();
    this.negated = false;
    this.closed = undefined;
  }

  private closeGroup(name: string): void {
    this.cur.group = name;
    this.closed = name;
  }

  private keyword(k: string): void {
    switch (k) {
      case "!":
        this.negated = !this.negated;
        break;
      case "{":
        this.braces++;
        break;
      case "}":
        if (--this.braces < 0) throw new ParseError("unexpected }");
        this.closeGroup("}");
        break;
      case "if":
        this.ifs++;
        break;
      case "then":
      case "else":
      case "elif":
        if (!this.ifs) throw new ParseError(`unexpected ${k}`);
        break;
      case "fi":
        if (--this.ifs < 0) throw new ParseError("unexpected fi");
        this.closeGroup("fi");
        break;
      case "while":
      case "until":
        this.loops++;
        break;
      case "for":
      case "select":
        this.loops++;
        this.skipLoopHeader();
        break;
      case "do":
        if (!this.loops) throw new ParseError("unexpected do");
        break;
      case "done":
        if (--this.loops < 0) throw new ParseError("unexpected done");
        this.closeGroup("done");
        break;
      case "case":
        this.openCase();
        break;
      case "esac":
        if (!this.cases.length) throw new ParseError("unexpected esac");
        this.closeCase();
        break;
      case "function":
        this.skipFunctionName();
        break;
      case "time": {
        const next = this.peek();
        if (next.kind === "word" && next.word.value === "-p") this.take();
        break;
      }
    }
    this.keywords.push(k);
  }

  /** `for NAME in WORDS;` or `for ((...));` runs nothing but the substitutions in its words. */
  private skipLoopHeader(): void {
    let depth = 0;
    for (;;) {
      const t = this.peek();
      if (t.kind === "eof") return; // finish() reports the open loop
      if (depth === 0 && t.kind === "word" && !t.word.quoted && t.word.value === "do") return;
      this.take();
      if (t.kind === "word") this.substitutions.push(...t.subs);
      else if (t.kind === "redir") {
        const target = this.take(); // `i<3` inside (( ))
        if (target.kind === "word") this.substitutions.push(...target.subs);
      } else if (t.kind === "op") {
        if (t.op === "(") depth++;
        else if (t.op === ")") depth--;
        else if (depth === 0 && (t.op === ";" || t.op === "\n")) return;
        else if (depth === 0) throw new ParseError(`syntax error near ${t.op} in a loop header`);
      }
    }
  }

  private openCase(): void {
    const subject = this.take();
    if (subject.kind !== "word") throw new ParseError("case needs a word");
    this.substitutions.push(...subject.subs);
    let t = this.take();
    while (t.kind === "op" && t.op === "\n") t = this.take();
    if (t.kind !== "word" || t.word.value !== "in") throw new ParseError("expected in after case word");
    this.cases.push(this.parens);
    this.casePattern = true;
  }

  private closeCase(): void {
    this.cases.pop();
    this.casePattern = false;
    this.closeGroup("esac");
  }

  /** A case pattern list `[(] pat [| pat]... )`, or the `esac` that ends the case. */
  private readCasePattern(first: Token): void {
    if (first.kind === "op" && first.op === "\n") return;
    if (first.kind === "word" && !first.word.quoted && first.word.value === "esac") {
      this.startCommand();
      this.keywords.push("esac");
      this.closeCase();
      return;
    }
    let t = first.kind === "op" && first.op === "(" ? this.take() : first;
    for (;;) {
      if (t.kind === "word") this.substitutions.push(...t.subs);
      else if (t.kind === "op" && t.op === ")") break;
      else if (!(t.kind === "op" && t.op === "|")) throw new ParseError("malformed case pattern");
      t = this.take();
    }
    this.casePattern = false;
  }

  private skipFunctionName(): void {
    const name = this.take();
    if (name.kind !== "word") throw new ParseError("function needs a name");
    const next = this.peek();
    if (next.kind === "op" && next.op === "(") {
      this.take();
      const close = this.take();
      if (close.kind !== "op" || close.op !== ")") throw new ParseError("syntax error in function definition");
    }
  }

  private finish(): void {
    if (this.expectCommand) throw new ParseError("unexpected end of input after an operator");
    if (this.cases.length || this.casePattern) throw new ParseError("unterminated case");
    if (this.parens) throw new ParseError("unterminated (");
    if (this.braces) throw new ParseError("unterminated {");
    if (this.ifs) throw new ParseError("unterminated if");
    if (this.loops) throw new ParseError("unterminated loop");
    if (this.lexer.conditional) throw new ParseError("unterminated [[");
    this.endPipeline(undefined);
  }
}

/** Tokenize and structure a bash command line; never throws. */
export function parseShell(src: string): ShellParse {
  const parser = new Parser(src);
  let error: string | undefined;
  try {
    parser.run();
  } catch (err) {
    // Pathologically deep nesting exhausts the stack; bash would not run it sensibly either.
    if (err instanceof RangeError) error = "nesting too deep";
    else if (err instanceof ParseError) error = err.message;
    else throw err;
  }
  return {
    parseable: error === undefined,
    error,
    items: parser.items,
    hasOperator: parser.hasOperator,
    keywords: parser.keywords,
    substitutions: parser.substitutions,
  };
}
