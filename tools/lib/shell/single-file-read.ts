// Commands that only show (part of) one named file — `cat F`, `head -n N F`,
// `tail F`, `sed -n 'a,bp' F`, `nl F` — as the read-side routing and the
// stale-file guard need to recognise them.

import { parseShell, verbOf, type Redirect, type SimpleCommand, type Word } from "../../../core/shell/index.js";
import { values } from "./common.js";

export interface Display {
  path: string;
  offset?: number;
  limit?: number;
}

/** `[-n N | -N | --lines=N] FILE` for head and tail. */
function lineCountRead(args: readonly string[]): { path: string; count: string | undefined } | undefined {
  let count: string | undefined;
  const operands: string[] = [];
  let options = true;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (options && a === "--") options = false;
    else if (options && a.startsWith("-") && a !== "-") {
      const m = /^(?:-n|--lines=)(.+)$/.exec(a) ?? /^-(\d+)$/.exec(a);
      if (m) count = m[1];
      else if (a === "-n" || a === "--lines") {
        count = args[++i];
        if (count === undefined) return undefined;
      } else return undefined; // -c, -f, -q ... show something else
    } else operands.push(a);
  }
  if (operands.length !== 1 || operands[0] === "-") return undefined;
  return { path: operands[0]!, count };
}

/** One file shown with no options beyond those accepted. */
function plainRead(args: readonly string[], allowed: readonly string[]): Display | undefined {
  const operands = args.filter((a) => !allowed.includes(a));
  if (operands.length !== 1) return undefined;
  const path = operands[0]!;
  return path.startsWith("-") ? undefined : { path };
}

function sedPrint(args: readonly string[]): Display | undefined {
  let quiet = false;
  let script: string | undefined;
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "-n" || a === "--quiet" || a === "--silent") quiet = true;
    else if (a === "-e" || a === "--expression") {
      if (script !== undefined) return undefined;
      script = args[++i];
    } else if (a === "-E" || a === "-r") continue;
    else if (a.startsWith("-")) return undefined;
    else operands.push(a);
  }
  if (script === undefined) script = operands.shift();
  if (!quiet || script === undefined || operands.length !== 1) return undefined;
  const m = /^\s*(\d+)\s*(?:,\s*(\d+|\$)\s*)?p\s*;?\s*$/.exec(script);
  if (!m) return undefined;
  const first = Number(m[1]);
  if (first < 1) return undefined;
  const last = m[2] === undefined ? first : m[2] === "$" ? undefined : Math.max(first, Number(m[2]));
  const shown: Display = { path: operands[0]!, offset: first - 1 };
  if (last !== undefined) shown.limit = last - first + 1;
  return shown;
}

/** A command that only shows (part of) one named file. */
export function fileDisplay(words: readonly Word[]): Display | undefined {
  const args = values(words.slice(1));
  switch (verbOf(words)) {
    case "cat":
      return plainRead(args, ["-n"]);
    case "nl":
    case "less":
    case "more":
      return plainRead(args, []);
    case "head": {
      const r = lineCountRead(args);
      if (!r) return undefined;
      if (r.count === undefined) return { path: r.path };
      return /^[1-9]\d*$/.test(r.count) ? { path: r.path, limit: Number(r.count) } : undefined;
    }
    case "tail": {
      const r = lineCountRead(args);
      if (!r) return undefined;
      if (r.count === undefined || /^\d+$/.test(r.count)) return { path: r.path };
      const from = /^\+([1-9]\d*)$/.exec(r.count);
      return from ? { path: r.path, offset: Number(from[1]) - 1 } : undefined;
    }
    case "sed":
      return sedPrint(args);
    default:
      return undefined;
  }
}

/** Redirections that do not change what a display or search shows. */
const harmlessRedirect = (r: Redirect): boolean =>
  r.fd === 2 && ((r.op === ">" && r.target.value === "/dev/null") || (r.op === ">&" && r.target.value === "1"));

/** A command whose every word is known text and whose output goes to the result. */
export function plainCommand(cmd: SimpleCommand): boolean {
  return (
    cmd.group === undefined &&
    cmd.words.length > 0 &&
    !cmd.substitutions.length &&
    !cmd.words.some((w) => w.dynamic) &&
    !cmd.assignments.some((w) => w.dynamic) &&
    cmd.redirects.every(harmlessRedirect)
  );
}

/** The only command of the line, when the line is exactly one plain command. */
function soleCommand(cmd: string): SimpleCommand | undefined {
  const p = parseShell(cmd);
  if (!p.parseable || p.keywords.length || p.substitutions.length || p.items.length !== 1) return undefined;
  const item = p.items[0]!;
  if (item.op === "&" || item.pipeline.negated || item.pipeline.stages.length !== 1) return undefined;
  const only = item.pipeline.stages[0]!;
  return plainCommand(only) ? only : undefined;
}

/** Options of grep and rg that take a value in the next word. */
const SEARCH_VALUED = new Set(["-e", "--regexp", "-A", "-B", "-C", "-m", "--max-count", "--after-context", "--before-context", "--context"]);
/** Short flags that only change which lines of the file are shown and how (no count, listing, recursion, preprocessor). */
const SEARCH_SHORT = /^-[niwFEHhsxovPABCme]+\d*$|^-[ABCm]\d+$|^-e.+$/;
const SEARCH_LONG = /^--(?:line-number|ignore-case|smart-case|case-sensitive|word-regexp|line-regexp|fixed-strings|extended-regexp|basic-regexp|perl-regexp|invert-match|with-filename|no-filename|no-heading|only-matching|no-messages|color(?:=\w+)?|colour(?:=\w+)?|regexp(?:=.*)?|max-count(?:=\d+)?|(?:after-|before-)?context(?:=\d+)?)$/;
/** `grep [opts] PATTERN FILE` or `rg [opts] PATTERN FILE`: a search that shows lines of one named file. */
function singleFileSearch(words: readonly Word[]): string | undefined {
  const verb = verbOf(words);
  if (verb !== "grep" && verb !== "egrep" && verb !== "fgrep" && verb !== "rg") return undefined;
  const args = values(words.slice(1));
  const operands: string[] = [];
  let pattern = false;
  let options = true;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (options && a === "--") options = false;
    else if (options && a.startsWith("--")) {
      if (!SEARCH_LONG.test(a)) return undefined;
      if (a === "--regexp" || a.startsWith("--regexp=")) pattern = true;
      if (SEARCH_VALUED.has(a)) i++;
    } else if (options && a.startsWith("-") && a !== "-") {
      if (!SEARCH_SHORT.test(a)) return undefined;
      if (a.startsWith("-e")) pattern = true;
      if (SEARCH_VALUED.has(a)) i++;
    } else operands.push(a);
  }
  const files = pattern ? operands : operands.slice(1);
  const file = files.length === 1 && (pattern || operands.length === 2) ? files[0]! : undefined;
  if (file === undefined || file === "-" || file === "." || file.endsWith("/")) return undefined;
  return file;
}

/**
 * The path when the whole command is one simple read of one file (`cat F`,
 * `head -n N F`, `tail F`, `sed -n 'a,bp' F`, `nl F`, `grep -n X F`, `rg X F`),
 * for the stale-file guard.
 */
export function simpleSingleFileRead(cmd: string): string | undefined {
  const only = soleCommand(cmd);
  return only ? (fileDisplay(only.words)?.path ?? singleFileSearch(only.words)) : undefined;
}

/** Whether that read is a search (`grep X F`, `rg X F`): its exit status 1 means it found nothing, having read the file. */
export function singleFileReadSearches(cmd: string): boolean {
  const only = soleCommand(cmd);
  return only !== undefined && fileDisplay(only.words) === undefined && singleFileSearch(only.words) !== undefined;
}
