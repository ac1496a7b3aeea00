// The parser: groups the lexer's tokens into simple commands, pipelines and
// list items. Compound commands (if/for/while/case, subshells, brace groups,
// functions) are flattened: the commands inside them become ordinary list
// items and the keywords are reported, so a caller that only trusts plain
// commands can decline anything structured.

import { Lexer, type Token } from "./lexer.js";
import { ParseError } from "./scan.js";
import type { ListItem, ListOp, Redirect, RedirectOp, ShellParse, SimpleCommand, Word } from "./types.js";

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

  /** Whether the lexer skipped a comment. */
  get comment(): boolean {
    return this.lexer.comment;
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
    comment: parser.comment,
  };
}
