// Read-side routing of text searches (grep, egrep, fgrep, rgrep, rg, ag,
// git grep) to the grep tool, with the pattern restated in ripgrep syntax.

import { scanOptions, type OptionSpec, type ScannedOptions } from "./common.js";
import { globPattern, globStep } from "./path-routes.js";
import type { RouteStep } from "./routing.js";

const escapeRegex = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Basic (grep default) to extended regex: the escaped and bare meanings of `| ( ) { } + ?` swap. */
function basicToExtended(p: string): string {
  const special = "|(){}+?";
  let out = "";
  for (let i = 0; i < p.length; i++) {
    const c = p[i]!;
    if (c === "\\" && i + 1 < p.length) {
      const n = p[++i]!;
      out += special.includes(n) ? n : `\\${n}`;
    } else out += special.includes(c) ? `\\${c}` : c;
  }
  return out;
}

interface PatternStyle {
  syntax: "basic" | "extended" | "fixed";
  ignoreCase: boolean;
  smartCase?: boolean;
  word: boolean;
}

/** The search pattern restated for the grep tool (ripgrep syntax). */
function toolPattern(patterns: readonly string[], style: PatternStyle): string {
  const one = (p: string) =>
    style.syntax === "fixed" ? escapeRegex(p) : style.syntax === "basic" ? basicToExtended(p) : p;
  let pattern = patterns.length === 1 ? one(patterns[0]!) : patterns.map((p) => `(?:${one(p)})`).join("|");
  if (style.word) pattern = `\\b(?:${pattern})\\b`;
  const lower = patterns.every((p) => p === p.toLowerCase());
  if (style.ignoreCase || (style.smartCase && lower)) pattern = `(?i)${pattern}`;
  return pattern;
}

/**
 * `-l` lists the matching files, an aggregate like a count: the grep tool
 * shows matching lines, so the listing stays a shell command.
 */
const listsFiles = (o: ScannedOptions): boolean => o.flags.has("l");

function searchStep(patterns: readonly string[], paths: readonly string[], style: PatternStyle, glob?: string): RouteStep | undefined {
  if (!patterns.length || paths.length > 1) return undefined;
  const args: Record<string, string> = { pattern: toolPattern(patterns, style) };
  if (paths[0] !== undefined && paths[0] !== ".") args.path = paths[0];
  if (glob !== undefined) args.glob = glob;
  return { tool: "grep", args };
}

const GREP_SPEC: OptionSpec = {
  flags: "rRniIHhEGPFwsl",
  valued: "e",
  long: {
    recursive: "r",
    "dereference-recursive": "R",
    "line-number": "n",
    "ignore-case": "i",
    "with-filename": "H",
    "no-filename": "h",
    "extended-regexp": "E",
    "basic-regexp": "G",
    "perl-regexp": "P",
    "fixed-strings": "F",
    "word-regexp": "w",
    "no-messages": "s",
    "files-with-matches": "l",
    color: "color",
    colour: "color",
  },
  longValued: { regexp: "e", include: "include", color: "color", colour: "color" },
};

export function grepStep(verb: string, args: readonly string[]): RouteStep | undefined {
  const o = scanOptions(args, GREP_SPEC);
  if (!o || listsFiles(o)) return undefined;
  const patterns = o.valued.get("e") ?? o.operands.slice(0, 1);
  const paths = o.valued.has("e") ? o.operands : o.operands.slice(1);
  // Without -r a grep names the file it searches; with no file it reads stdin and stays.
  const recursive = o.flags.has("r") || o.flags.has("R") || verb === "rgrep";
  if (!recursive && paths.length !== 1) return undefined;
  const includes = o.valued.get("include") ?? [];
  if (includes.length > 1) return undefined;
  const fixed = o.flags.has("F") || verb === "fgrep";
  const extended = o.flags.has("E") || o.flags.has("P") || verb === "egrep";
  const style: PatternStyle = {
    syntax: fixed ? "fixed" : extended ? "extended" : "basic",
    ignoreCase: o.flags.has("i"),
    word: o.flags.has("w"),
  };
  return searchStep(patterns, paths, style, includes[0]);
}

const RG_SPEC: OptionSpec = {
  flags: "niSsFwHlPN",
  valued: "egt",
  long: {
    "ignore-case": "i",
    "smart-case": "S",
    "case-sensitive": "s",
    "fixed-strings": "F",
    "word-regexp": "w",
    "line-number": "n",
    "no-line-number": "N",
    "with-filename": "H",
    "no-heading": "no-heading",
    heading: "heading",
    "files-with-matches": "l",
    pcre2: "P",
    files: "files",
  },
  longValued: { regexp: "e", glob: "g", type: "t", color: "color", colour: "color" },
};

export function rgStep(args: readonly string[]): RouteStep | undefined {
  const o = scanOptions(args, RG_SPEC);
  if (!o || listsFiles(o)) return undefined;
  const globs = o.valued.get("g") ?? [];
  if (globs.length > 1) return undefined;
  if (o.flags.has("files")) return globStep(o.operands, globPattern(globs[0] ?? "*", true));
  const patterns = o.valued.get("e") ?? o.operands.slice(0, 1);
  const paths = o.valued.has("e") ? o.operands : o.operands.slice(1);
  const style: PatternStyle = {
    syntax: o.flags.has("F") ? "fixed" : "extended",
    ignoreCase: o.flags.has("i"),
    smartCase: o.flags.has("S") && !o.flags.has("s"),
    word: o.flags.has("w"),
  };
  return searchStep(patterns, paths, style, globs[0]);
}

const AG_SPEC: OptionSpec = {
  flags: "isSwQl",
  valued: "",
  long: {
    "ignore-case": "i",
    "case-sensitive": "s",
    "smart-case": "S",
    "word-regexp": "w",
    literal: "Q",
    "files-with-matches": "l",
  },
  longValued: {},
};

export function agStep(args: readonly string[]): RouteStep | undefined {
  const o = scanOptions(args, AG_SPEC);
  if (!o || listsFiles(o)) return undefined;
  const style: PatternStyle = {
    syntax: o.flags.has("Q") ? "fixed" : "extended",
    ignoreCase: o.flags.has("i"),
    smartCase: !o.flags.has("s"), // ag is smart-case unless told otherwise
    word: o.flags.has("w"),
  };
  return searchStep(o.operands.slice(0, 1), o.operands.slice(1), style);
}

const ACK_SPEC: OptionSpec = {
  flags: "iSwQlHh",
  valued: "",
  long: {
    "ignore-case": "i",
    "smart-case": "S",
    "word-regexp": "w",
    literal: "Q",
    "files-with-matches": "l",
    "with-filename": "H",
    "no-filename": "h",
    nocolor: "nocolor",
    noheading: "noheading",
  },
  longValued: {},
};

/** `ack PATTERN [PATH]`: recursive, Perl regex, case-sensitive unless told otherwise. */
export function ackStep(args: readonly string[]): RouteStep | undefined {
  const o = scanOptions(args, ACK_SPEC);
  if (!o || listsFiles(o)) return undefined;
  const style: PatternStyle = {
    syntax: o.flags.has("Q") ? "fixed" : "extended",
    ignoreCase: o.flags.has("i"),
    smartCase: o.flags.has("S"),
    word: o.flags.has("w"),
  };
  return searchStep(o.operands.slice(0, 1), o.operands.slice(1), style);
}

const GIT_GREP_SPEC: OptionSpec = {
  flags: "niwEGFPIlh",
  valued: "e",
  long: {
    "line-number": "n",
    "ignore-case": "i",
    "word-regexp": "w",
    "extended-regexp": "E",
    "basic-regexp": "G",
    "fixed-strings": "F",
    "perl-regexp": "P",
    "files-with-matches": "l",
    "name-only": "l",
  },
  longValued: {},
};

export function gitGrepStep(args: readonly string[]): RouteStep | undefined {
  const o = scanOptions(args, GIT_GREP_SPEC);
  if (!o || listsFiles(o)) return undefined;
  const patterns = o.valued.get("e") ?? o.operands.slice(0, 1);
  const paths = o.valued.has("e") ? o.operands : o.operands.slice(1);
  const style: PatternStyle = {
    syntax: o.flags.has("F") ? "fixed" : o.flags.has("E") || o.flags.has("P") ? "extended" : "basic",
    ignoreCase: o.flags.has("i"),
    word: o.flags.has("w"),
  };
  return searchStep(patterns, paths, style);
}
