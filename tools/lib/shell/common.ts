// Helpers shared by the shell rules: redirections and inline input, code-like
// paths, a GNU-style option scan, and the refusal message shape.
// Everything here is pure: no file system, no execution.

import path from "node:path";
import { MAX_NESTING, verbOf, type Redirect, type SimpleCommand, type Word } from "../../../core/shell/index.js";

export { MAX_NESTING };

export interface ShellRefusal {
  rule: string;
  message: string;
}

export const values = (words: readonly Word[]): string[] => words.map((w) => w.value);

export const isDevice = (file: string): boolean => file.startsWith("/dev/");

/**
 * A target written as a path outside the project (`/tmp/x.py`, `~/notes`,
 * `../other/f`). Only what the command spells counts: a relative path stays
 * in the project, since every command starts in its root.
 */
export function isOutsideProject(file: string, projectDir: string): boolean {
  const home = process.env.HOME;
  const spelled = file === "~" || file.startsWith("~/") ? (home ? home + file.slice(1) : undefined) : file;
  if (spelled === undefined) return false;
  const full = path.resolve(projectDir, spelled);
  const rel = path.relative(projectDir, full);
  return rel === ".." || rel.startsWith("../") || path.isAbsolute(rel);
}

/** The file an output redirection writes, unless it is a descriptor or a device. */
export function writtenFile(r: Redirect): string | undefined {
  const toFile =
    r.op === ">" || r.op === ">>" || r.op === ">|" || r.op === "&>" || r.op === "&>>" ||
    (r.op === ">&" && r.fd === undefined && !/^(?:\d+|-)$/.test(r.target.value));
  if (!toFile || isDevice(r.target.value)) return undefined;
  return r.target.value;
}

const INPUT_OPS = new Set(["<", "<<", "<<-", "<<<", "<>", "<&"]);

/** The redirection that finally supplies stdin (bash applies them left to right). */
export function stdinRedirect(cmd: SimpleCommand): Redirect | undefined {
  return cmd.redirects.filter((r) => INPUT_OPS.has(r.op) && (r.fd === undefined || r.fd === 0)).at(-1);
}

/** Text a command gets on stdin from a here-doc or here-string written inline. */
export function inlineInput(cmd: SimpleCommand): string | undefined {
  const r = stdinRedirect(cmd);
  if (!r) return undefined;
  if (r.op === "<<<") return `${r.target.value}\n`;
  if (r.op === "<<" || r.op === "<<-") return r.body ?? "";
  return undefined;
}

// Extensions and names of files a model should author with write, not a shell
// redirect. Logs and plain output (.log .txt .out .csv) are deliberately absent.
const CODE_EXTENSIONS = new Set(
  (
    "py pyi pyx js mjs cjs jsx ts mts cts tsx go rs java kt kts scala groovy c h cc cpp cxx hpp hh hxx " +
    "m mm cs fs swift dart rb php pl pm lua r jl ex exs erl hrl hs ml mli clj cljs el vim sh bash zsh fish " +
    "ps1 bat sql md mdx rst adoc json jsonc json5 toml yaml yml xml html htm css scss sass less vue svelte " +
    "astro ini cfg conf properties gradle proto graphql gql tf tfvars ipynb cmake mk nix zig sol"
  ).split(" "),
);
const CODE_BASENAMES = new Set(["makefile", "gnumakefile", "dockerfile", "containerfile", "gemfile", "rakefile", "justfile"]);

export function isCodeLikePath(file: string): boolean {
  const base = (file.split("/").pop() ?? "").toLowerCase();
  if (CODE_BASENAMES.has(base)) return true;
  const dot = base.lastIndexOf(".");
  return dot >= 0 && CODE_EXTENSIONS.has(base.slice(dot + 1));
}

export interface ScannedOptions {
  flags: Set<string>;
  /** Values of valued options, keyed by their canonical name. */
  valued: Map<string, string[]>;
  operands: string[];
}

export interface OptionSpec {
  /** Short flags without a value. */
  flags: string;
  /** Short options that take a value. */
  valued: string;
  /** Long flags → canonical name. */
  long: Record<string, string>;
  /** Long options that take a value → canonical name. */
  longValued: Record<string, string>;
}

/**
 * GNU-style option scan (options may follow operands until `--`). Returns
 * undefined on any option not in the spec: routing is a whitelist, because an
 * unknown flag may change what the command shows.
 */
export function scanOptions(args: readonly string[], spec: OptionSpec): ScannedOptions | undefined {
  const out: ScannedOptions = { flags: new Set(), valued: new Map(), operands: [] };
  const addValue = (name: string, v: string) => out.valued.set(name, [...(out.valued.get(name) ?? []), v]);
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--") {
      out.operands.push(...args.slice(i + 1));
      break;
    }
    if (a.startsWith("--")) {
      const eq = a.indexOf("=");
      const name = eq < 0 ? a.slice(2) : a.slice(2, eq);
      // `--color` alone is a flag, `--color=auto` carries a value.
      if (eq < 0 && Object.hasOwn(spec.long, name)) out.flags.add(spec.long[name]!);
      else if (Object.hasOwn(spec.longValued, name)) {
        const v = eq < 0 ? args[++i] : a.slice(eq + 1);
        if (v === undefined) return undefined;
        addValue(spec.longValued[name]!, v);
      } else return undefined;
    } else if (a.startsWith("-") && a !== "-") {
      for (let j = 1; j < a.length; j++) {
        const ch = a[j]!;
        if (spec.valued.includes(ch)) {
          const v = j + 1 < a.length ? a.slice(j + 1) : args[++i];
          if (v === undefined) return undefined;
          addValue(ch, v);
          break;
        }
        if (!spec.flags.includes(ch)) return undefined;
        out.flags.add(ch);
      }
    } else out.operands.push(a);
  }
  return out;
}

// ---------------------------------------------------------------------------
// Fragments and refusals

export interface Fragment {
  cmd: SimpleCommand;
  /** The pipeline the command is a stage of, and its position there. */
  stages: readonly SimpleCommand[];
  index: number;
}

/** The inline text a pipeline stage receives: its own here-doc, or one fed to `cat` just before it. */
export function inlineStdin(f: Fragment): string | undefined {
  const own = stdinRedirect(f.cmd);
  if (own) return inlineInput(f.cmd);
  const prev = f.index > 0 ? f.stages[f.index - 1] : undefined;
  if (prev && verbOf(prev.words) === "cat" && prev.words.length === 1) return inlineInput(prev);
  return undefined;
}

export const WRITE_WHY = "shell quoting can mangle file contents; write stores them exactly";

export const refusal = (rule: string, what: string, tool: string, why: string): ShellRefusal => ({
  rule,
  message: `ERROR: shell_refused: ${what} — use the ${tool} tool instead (${why}).`,
});
