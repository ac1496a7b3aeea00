// A small bash tokenizer and parser: it splits a command line into list
// items, pipeline stages, words and redirections without expanding or running
// anything. Callers (the shell rules in tools/, the permission engine) need to
// know which commands a line runs and where their output goes; a regex over
// the raw text cannot tell `grep 'a|b' f` from a pipeline or `echo '> x.py'`
// from a redirect.
//
// Only what those callers need is modelled. Compound commands are flattened
// and their keywords reported; substitutions ($(...), backticks, <(...),
// >(...)) stay opaque inside their word, their inner text kept so a caller
// can parse it again.

export type { Redirect, ShellParse, SimpleCommand, Word } from "./types.js";
export { parseShell } from "./parser.js";
export { commandsOf, unwrap, verbOf } from "./commands.js";
export { isCompound, MAX_NESTING } from "./compound.js";
