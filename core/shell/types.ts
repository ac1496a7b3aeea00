// The shapes a bash command line is parsed into (see parser.ts): list items,
// pipeline stages, words and redirections, with nothing expanded or run.

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

interface Pipeline {
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
  /** A `#` comment was skipped (text the shell never runs, which may stand for a command left out). */
  comment: boolean;
}
