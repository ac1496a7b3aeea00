// What a shell command line does, judged from its structure (shell-words.ts)
// rather than from regexes over raw text:
//   * Yuj refusals and read-side routing (digest 1.10): when an active
//     dedicated tool owns an operation, the fragment is stopped and the tool
//     is named; a rule is inert while its tool is inactive.
//   * the Chord compound-command guard for shell allow rules (digest 4.2);
//   * which foreground commands Chord may not promote to a background job,
//     and when a result needs the output-preservation reminder;
//   * the meaning of exit code 1 for single-verb commands.
// Everything here is pure: no file system, no execution.

import { commandsOf, parseShell, verbOf, type Redirect, type SimpleCommand, type Word } from "./shell-words.js";

export interface ShellRefusal {
  rule: string;
  message: string;
}

export type RoutedTool = "read" | "grep" | "glob";

export interface ShellRoute {
  tool: RoutedTool;
  message: string;
}

/** Substitutions and `bash -c` scripts nest; deeper than this is not worth judging. */
const MAX_NESTING = 4;

// ---------------------------------------------------------------------------
// Shared helpers

const values = (words: readonly Word[]): string[] => words.map((w) => w.value);

const isDevice = (file: string): boolean => file.startsWith("/dev/");

/** The file an output redirection writes, unless it is a descriptor or a device. */
function writtenFile(r: Redirect): string | undefined {
  const toFile =
    r.op === ">" || r.op === ">>" || r.op === ">|" || r.op === "&>" || r.op === "&>>" ||
    (r.op === ">&" && r.fd === undefined && !/^(?:\d+|-)$/.test(r.target.value));
  if (!toFile || isDevice(r.target.value)) return undefined;
  return r.target.value;
}

const INPUT_OPS = new Set(["<", "<<", "<<-", "<<<", "<>", "<&"]);

/** The redirection that finally supplies stdin (bash applies them left to right). */
function stdinRedirect(cmd: SimpleCommand): Redirect | undefined {
  return cmd.redirects.filter((r) => INPUT_OPS.has(r.op) && (r.fd === undefined || r.fd === 0)).at(-1);
}

/** Text a command gets on stdin from a here-doc or here-string written inline. */
function inlineInput(cmd: SimpleCommand): string | undefined {
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

// Commands that run their arguments as another command, with their options
// that take a value, so `sudo sed -i ...` is judged as sed.
const WRAPPERS = new Map<string, Set<string>>([
  ["sudo", new Set(["-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "-T"])],
  ["env", new Set(["-u", "-C", "-S", "--unset", "--chdir", "--split-string"])],
  ["nice", new Set(["-n", "--adjustment"])],
  ["ionice", new Set(["-c", "-n", "-p"])],
  ["timeout", new Set(["-s", "-k", "--signal", "--kill-after"])],
  ["stdbuf", new Set(["-i", "-o", "-e"])],
  ["xargs", new Set(["-I", "-n", "-P", "-d", "-E", "-L", "-s", "-a", "--max-args", "--max-procs", "--delimiter", "--arg-file"])],
  ["nohup", new Set()],
  ["command", new Set()],
  ["builtin", new Set()],
  ["exec", new Set(["-a"])],
  ["time", new Set()],
]);

function unwrap(words: readonly Word[]): readonly Word[] {
  let i = 0;
  for (let depth = 0; depth < 6; depth++) {
    const name = verbOf(words.slice(i));
    const valued = name === undefined ? undefined : WRAPPERS.get(name);
    if (!valued) break;
    // `command -v x` only looks x up.
    if (name === "command" && /^-[vV]$/.test(words[i + 1]?.value ?? "")) return [];
    i++;
    while (i < words.length) {
      const v = words[i]!.value;
      if (v === "--") {
        i++;
        break;
      }
      if (name === "env" && /^[A-Za-z_][A-Za-z0-9_]*=/.test(v)) i++;
      else if (v.startsWith("-") && v !== "-") i += valued.has(v) ? 2 : 1;
      else break;
    }
    if (name === "timeout") i++; // the duration
  }
  return words.slice(i);
}

interface ScannedOptions {
  flags: Set<string>;
  /** Values of valued options, keyed by their canonical name. */
  valued: Map<string, string[]>;
  operands: string[];
}

interface OptionSpec {
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
function scanOptions(args: readonly string[], spec: OptionSpec): ScannedOptions | undefined {
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
// Chord compound-command guard

/**
 * True when the command chains or backgrounds anything: an unquoted `;`,
 * `&&`, `||`, `|`, `&` or a newline before another command, including inside
 * a command substitution. A command that does not parse counts as compound,
 * since nothing about it can be vouched for.
 */
export function isCompound(cmd: string): boolean {
  return compound(cmd, 0);
}

function compound(cmd: string, depth: number): boolean {
  const p = parseShell(cmd);
  if (!p.parseable || p.hasOperator) return true;
  return depth < MAX_NESTING && p.substitutions.some((s) => compound(s, depth + 1));
}

// ---------------------------------------------------------------------------
// Write-side refusals

const WRITE_WHY = "shell quoting can mangle file contents; write stores them exactly";
const EDIT_TOOLS = ["edit", "apply_patch", "udiff"] as const;
const EDIT_WHY: Record<(typeof EDIT_TOOLS)[number], string> = {
  edit: "a pattern edit can silently change the wrong lines or none; edit reports when the text is not found",
  apply_patch: "it checks every hunk before changing the file and reports what did not match",
  udiff: "it checks every hunk before changing the file and reports what did not match",
};

const refusal = (rule: string, what: string, tool: string, why: string): ShellRefusal => ({
  rule,
  message: `ERROR: shell_refused: ${what} — use the ${tool} tool instead (${why}).`,
});

/** Rule ids, in the order they are tried on each fragment. */
export const SHELL_RULES = [
  "cd_outside_repo",
  "in_place_edit",
  "cat_write",
  "tee_write",
  "python_write",
  "redirect_code_file",
] as const;

interface Fragment {
  cmd: SimpleCommand;
  /** The pipeline the command is a stage of, and its position there. */
  stages: readonly SimpleCommand[];
  index: number;
}

/**
 * The first write-side rule the command breaks, checking every fragment: each
 * stage of each list item, command substitutions, and `bash -c` scripts.
 * Commands that do not parse are still checked up to the error, because bash
 * runs the lines before it.
 */
export function shellRefusal(cmd: string, activeTools: ReadonlySet<string>): ShellRefusal | undefined {
  return refuseScript(cmd, activeTools, 0);
}

function refuseScript(cmd: string, active: ReadonlySet<string>, depth: number): ShellRefusal | undefined {
  const p = parseShell(cmd);
  for (const item of p.items) {
    const { stages } = item.pipeline;
    for (let index = 0; index < stages.length; index++) {
      const found = refuseFragment({ cmd: stages[index]!, stages, index }, active, depth);
      if (found) return found;
    }
  }
  if (depth >= MAX_NESTING) return undefined;
  for (const sub of p.substitutions) {
    const found = refuseScript(sub, active, depth + 1);
    if (found) return found;
  }
  return undefined;
}

function refuseFragment(f: Fragment, active: ReadonlySet<string>, depth: number): ShellRefusal | undefined {
  const words = unwrap(f.cmd.words);
  const verb = verbOf(words);
  const found =
    cdRule(verb, words) ??
    inPlaceRule(verb, words, active) ??
    catWriteRule(verb, words, f, active) ??
    teeRule(verb, words, f, active) ??
    pythonRule(verb, words, f, active) ??
    redirectRule(f.cmd, active);
  if (found || depth >= MAX_NESTING) return found;
  // `bash -c '...'` hides a whole script in one word.
  if (verb !== undefined && /^(?:ba|z|da|k)?sh$/.test(verb)) {
    const c = words.findIndex((w, i) => i > 0 && /^-[a-z]*c[a-z]*$/.test(w.value));
    const script = c > 0 ? words[c + 1] : undefined;
    if (script) return refuseScript(script.value, active, depth + 1);
  }
  // `find ... -exec sed -i ... {} +` runs a command per match.
  if (verb === "find") {
    for (let i = 1; i < words.length; i++) {
      if (!/^-(?:exec|execdir|ok|okdir)$/.test(words[i]!.value)) continue;
      const end = words.findIndex((w, j) => j > i && (w.value === ";" || w.value === "+"));
      const inner = words.slice(i + 1, end < 0 ? words.length : end);
      const hit = inPlaceRule(verbOf(inner), inner, active);
      if (hit) return hit;
    }
  }
  return undefined;
}

const OUTSIDE_ROOTS = /^\/(?:home|root|opt|usr|etc)(?:\/|$)/;

/**
 * Has no target tool: leaving the repository is never what a fragment needs,
 * since every command already starts in the repository root.
 */
function cdRule(verb: string | undefined, words: readonly Word[]): ShellRefusal | undefined {
  if (verb !== "cd" && verb !== "pushd") return undefined;
  const target = words.slice(1).find((w) => !/^-[LPe@]+$/.test(w.value));
  if (!target || target.dynamic) return undefined;
  const dir = target.value.replace(/\/{2,}/g, "/");
  const trimmed = dir.length > 1 ? dir.replace(/\/+$/, "") : dir;
  if (trimmed !== "/" && !OUTSIDE_ROOTS.test(trimmed)) return undefined;
  return {
    rule: "cd_outside_repo",
    message:
      `ERROR: shell_refused: ${verb} ${target.value} leaves the repository — ` +
      "drop the cd and use repository-relative paths instead (commands already run in the repository root).",
  };
}

/** `sed -i`, `sed -Ei`, `sed --in-place=.bak`, but not `sed -e 's/i/x/'`. */
function sedInPlace(args: readonly string[]): boolean {
  for (const a of args) {
    if (a === "--in-place" || a.startsWith("--in-place=")) return true;
    if (!/^-[^-]/.test(a)) continue;
    for (const ch of a.slice(1)) {
      if (ch === "i") return true;
      if ("efl".includes(ch)) break; // the rest of the word is that option's value
    }
  }
  return false;
}

/** perl/ruby switches up to the script: `-i`, `-pi`, `-i.bak`, `-0777 -pi -e ...`. */
function scriptInPlace(args: readonly string[]): boolean {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--" || !a.startsWith("-") || a === "-") return false;
    for (let j = 1; j < a.length; j++) {
      const ch = a[j]!;
      if (ch === "i") return true;
      if ("eE".includes(ch)) {
        if (j === a.length - 1) i++; // the code is the next word
        break;
      }
      if ("MmIFxdDCr".includes(ch)) break;
    }
  }
  return false;
}

function inPlaceRule(verb: string | undefined, words: readonly Word[], active: ReadonlySet<string>): ShellRefusal | undefined {
  const args = values(words.slice(1));
  const hit =
    verb === "sed" || verb === "gsed"
      ? sedInPlace(args)
      : verb === "perl" || verb === "ruby"
        ? scriptInPlace(args)
        : false;
  if (!hit) return undefined;
  const tool = EDIT_TOOLS.find((t) => active.has(t));
  if (!tool) return undefined;
  return refusal("in_place_edit", `in-place edit with ${verb} -i`, tool, EDIT_WHY[tool]);
}

/** `cat > f`, `cat >> f`, `cat <<EOF > f`: cat authoring a file from inline or no input. */
function catWriteRule(
  verb: string | undefined,
  words: readonly Word[],
  f: Fragment,
  active: ReadonlySet<string>,
): ShellRefusal | undefined {
  if (verb !== "cat" || !active.has("write")) return undefined;
  const readsFiles = words.slice(1).some((w) => !w.value.startsWith("-"));
  if (readsFiles) return undefined; // concatenating or copying files is not authoring
  const input = stdinRedirect(f.cmd);
  const authored = input ? inlineInput(f.cmd) !== undefined : f.index === 0;
  if (!authored) return undefined;
  const file = f.cmd.redirects.map(writtenFile).find((x) => x !== undefined);
  if (file === undefined) return undefined;
  return refusal("cat_write", `writing ${file} with cat`, "write", WRITE_WHY);
}

/** The inline text a pipeline stage receives: its own here-doc, or one fed to `cat` just before it. */
function inlineStdin(f: Fragment): string | undefined {
  const own = stdinRedirect(f.cmd);
  if (own) return inlineInput(f.cmd);
  const prev = f.index > 0 ? f.stages[f.index - 1] : undefined;
  if (prev && verbOf(prev.words) === "cat" && prev.words.length === 1) return inlineInput(prev);
  return undefined;
}

/**
 * `tee` saving a command's output to a log is fine; tee writing a code-like
 * file, or any file from text typed inline, is authoring and belongs to write.
 */
function teeRule(verb: string | undefined, words: readonly Word[], f: Fragment, active: ReadonlySet<string>): ShellRefusal | undefined {
  if (verb !== "tee" || !active.has("write")) return undefined;
  const files: string[] = [];
  let options = true;
  for (const w of words.slice(1)) {
    if (options && w.value === "--") options = false;
    else if (options && w.value.startsWith("-") && w.value !== "-") continue;
    else if (!isDevice(w.value)) files.push(w.value);
  }
  const file = files.find(isCodeLikePath) ?? (inlineStdin(f) !== undefined ? files[0] : undefined);
  if (file === undefined) return undefined;
  return refusal("tee_write", `writing ${file} with tee`, "write", WRITE_WHY);
}

/** The python code a command runs inline (`-c CODE`, or a script on stdin), if any. */
function pythonCode(words: readonly Word[], f: Fragment): { code: string; how: string } | undefined {
  for (let i = 1; i < words.length; i++) {
    const v = words[i]!.value;
    if (v === "-") break;
    if (v === "--") return undefined;
    if (!v.startsWith("-")) return undefined; // a script file: stdin is its data
    const c = /^-[A-Za-z]*c(.*)$/.exec(v);
    if (c) {
      const code = c[1] || words[i + 1]?.value;
      return code === undefined ? undefined : { code, how: "inline python" };
    }
    if (/^-[A-Za-z]*m/.test(v)) return undefined;
    if (v === "-W" || v === "-X") i++;
  }
  const code = inlineStdin(f);
  return code === undefined ? undefined : { code, how: "a python heredoc" };
}

/** Top-level arguments of the call whose `(` ends just before `from`. */
function callArguments(code: string, from: number): string[] {
  const args: string[] = [];
  let depth = 0;
  let current = "";
  for (let i = from; i < code.length && i < from + 2000; i++) {
    const c = code[i]!;
    if (c === "'" || c === '"') {
      let j = i + 1;
      while (j < code.length && code[j] !== c) j += code[j] === "\\" ? 2 : 1;
      current += code.slice(i, j + 1);
      i = j;
      continue;
    }
    if ("([{".includes(c)) depth++;
    else if (")]}".includes(c)) {
      if (depth === 0) {
        args.push(current.trim());
        return args;
      }
      depth--;
    } else if (c === "," && depth === 0) {
      args.push(current.trim());
      current = "";
      continue;
    }
    current += c;
  }
  return args;
}

/** A string literal of open() mode letters that writes, appends or creates. */
function isWriteMode(expr: string): boolean {
  const lit = /^[bBuUrR]?(['"])([rwxabt+U]*)\1$/.exec(expr.trim());
  return lit !== null && /[wax]/.test(lit[2]!);
}

export function pythonWritesFile(code: string): boolean {
  if (/\.write_(?:text|bytes)\s*\(/.test(code)) return true;
  for (const m of code.matchAll(/\bopen\s*\(/g)) {
    const args = callArguments(code, m.index + m[0].length);
    const mode = args.find((a) => /^mode\s*=/.test(a))?.replace(/^mode\s*=\s*/, "") ?? args[1];
    if (mode !== undefined && isWriteMode(mode)) return true;
  }
  return false;
}

function pythonRule(verb: string | undefined, words: readonly Word[], f: Fragment, active: ReadonlySet<string>): ShellRefusal | undefined {
  if (verb === undefined || !/^python(?:\d+(?:\.\d+)?)?$/.test(verb) || !active.has("write")) return undefined;
  const inline = pythonCode(words, f);
  if (!inline || !pythonWritesFile(inline.code)) return undefined;
  return refusal("python_write", `writing a file from ${inline.how}`, "write", WRITE_WHY);
}

function redirectRule(cmd: SimpleCommand, active: ReadonlySet<string>): ShellRefusal | undefined {
  if (!active.has("write")) return undefined;
  const file = cmd.redirects.map(writtenFile).find((x) => x !== undefined && isCodeLikePath(x));
  if (file === undefined) return undefined;
  return refusal("redirect_code_file", `writing ${file} with a shell redirect`, "write", WRITE_WHY);
}

// ---------------------------------------------------------------------------
// Read-side routing and simple single-file reads

interface Display {
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
function fileDisplay(words: readonly Word[]): Display | undefined {
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
function plainCommand(cmd: SimpleCommand): boolean {
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

/**
 * The path when the whole command is one simple read of one file (`cat F`,
 * `head -n N F`, `tail F`, `sed -n 'a,bp' F`, `nl F`), for the stale-file guard.
 */
export function simpleSingleFileRead(cmd: string): string | undefined {
  const only = soleCommand(cmd);
  return only ? fileDisplay(only.words)?.path : undefined;
}

interface RouteStep {
  tool: RoutedTool;
  /** Suggested arguments for the tool, when they can be stated exactly enough. */
  args?: Record<string, string | number>;
}

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

function grepStep(verb: string, args: readonly string[]): RouteStep | undefined {
  const o = scanOptions(args, GREP_SPEC);
  if (!o || !(o.flags.has("r") || o.flags.has("R") || verb === "rgrep")) return undefined;
  const patterns = o.valued.get("e") ?? o.operands.slice(0, 1);
  const paths = o.valued.has("e") ? o.operands : o.operands.slice(1);
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

function rgStep(args: readonly string[]): RouteStep | undefined {
  const o = scanOptions(args, RG_SPEC);
  if (!o) return undefined;
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

function agStep(args: readonly string[]): RouteStep | undefined {
  const o = scanOptions(args, AG_SPEC);
  if (!o) return undefined;
  const style: PatternStyle = {
    syntax: o.flags.has("Q") ? "fixed" : "extended",
    ignoreCase: o.flags.has("i"),
    smartCase: !o.flags.has("s"), // ag is smart-case unless told otherwise
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

function gitGrepStep(args: readonly string[]): RouteStep | undefined {
  const o = scanOptions(args, GIT_GREP_SPEC);
  if (!o) return undefined;
  const patterns = o.valued.get("e") ?? o.operands.slice(0, 1);
  const paths = o.valued.has("e") ? o.operands : o.operands.slice(1);
  const style: PatternStyle = {
    syntax: o.flags.has("F") ? "fixed" : o.flags.has("E") || o.flags.has("P") ? "extended" : "basic",
    ignoreCase: o.flags.has("i"),
    word: o.flags.has("w"),
  };
  return searchStep(patterns, paths, style);
}

/** A glob for files named like `name` at any depth (or at the top, for maxdepth 1). */
function globPattern(name: string, anyDepth: boolean): string {
  return anyDepth && !name.includes("/") && !name.startsWith("**") ? `**/${name}` : name;
}

function globStep(paths: readonly string[], pattern: string | undefined): RouteStep | undefined {
  if (paths.length > 1) return undefined;
  if (pattern === undefined) return { tool: "glob" };
  const args: Record<string, string> = { pattern };
  if (paths[0] !== undefined && paths[0] !== ".") args.path = paths[0];
  return { tool: "glob", args };
}

/** `find [PATH] [-name P | -iname P | -type T | -maxdepth N | -o | ( ) ...]` with no action. */
function findStep(args: readonly string[]): RouteStep | undefined {
  let i = 0;
  const paths: string[] = [];
  while (i < args.length && !args[i]!.startsWith("-") && args[i] !== "(" && args[i] !== "!") paths.push(args[i++]!);
  const names: string[] = [];
  let maxdepth: number | undefined;
  let exact = true; // the expression maps onto one glob pattern
  for (; i < args.length; i++) {
    const a = args[i]!;
    switch (a) {
      case "-name":
      case "-iname":
      case "-path":
      case "-ipath":
      case "-wholename":
      case "-type":
      case "-maxdepth":
      case "-mindepth": {
        const v = args[++i];
        if (v === undefined) return undefined;
        if (a === "-name") names.push(v);
        else if (a === "-type") {
          if (!/^[fdl](?:,[fdl])*$/.test(v)) return undefined;
          if (v !== "f") exact = false;
        } else if (a === "-maxdepth" && /^\d+$/.test(v)) maxdepth = Number(v);
        else exact = false;
        break;
      }
      case "-not":
      case "!":
      case "-o":
      case "-or":
      case "(":
      case ")":
        exact = false;
        break;
      case "-a":
      case "-and":
      case "-print":
        break;
      default:
        return undefined; // -exec, -delete, -newer, -size, -prune, -printf ...
    }
  }
  const pattern = exact && names.length <= 1 ? globPattern(names[0] ?? "*", maxdepth !== 1) : undefined;
  return globStep(paths, pattern);
}

function lsStep(args: readonly string[]): RouteStep | undefined {
  let recursive = false;
  const paths: string[] = [];
  for (const a of args) {
    if (a === "--recursive") recursive = true;
    else if (/^-[A-Za-z1]+$/.test(a)) recursive ||= a.includes("R");
    else if (a.startsWith("-")) return undefined;
    else paths.push(a);
  }
  return recursive ? globStep(paths, "**/*") : undefined;
}

const TREE_SPEC: OptionSpec = {
  flags: "adfFiCn",
  valued: "LIP",
  long: { noreport: "noreport", dirsfirst: "dirsfirst" },
  longValued: {},
};

function treeStep(args: readonly string[]): RouteStep | undefined {
  const o = scanOptions(args, TREE_SPEC);
  if (!o) return undefined;
  if (o.flags.has("d") || o.valued.has("I")) return globStep(o.operands, undefined);
  const only = o.valued.get("P");
  return globStep(o.operands, only?.length === 1 ? globPattern(only[0]!, true) : "**/*");
}

function routeStep(cmd: SimpleCommand): RouteStep | undefined {
  if (!plainCommand(cmd)) return undefined;
  const shown = fileDisplay(cmd.words);
  if (shown) {
    const args: Record<string, string | number> = { path: shown.path };
    if (shown.offset) args.offset = shown.offset;
    if (shown.limit !== undefined) args.limit = shown.limit;
    return { tool: "read", args };
  }
  const verb = verbOf(cmd.words);
  const args = values(cmd.words.slice(1));
  switch (verb) {
    case "grep":
    case "egrep":
    case "fgrep":
    case "rgrep":
      return grepStep(verb, args);
    case "rg":
      return rgStep(args);
    case "ag":
      return agStep(args);
    case "git":
      return args[0] === "grep" ? gitGrepStep(args.slice(1)) : undefined;
    case "find":
      return findStep(args);
    case "ls":
      return lsStep(args);
    case "tree":
      return treeStep(args);
    default:
      return undefined;
  }
}

const ROUTE_REASONS: Record<RoutedTool, string> = {
  read: "simple file display",
  grep: "text search over files",
  glob: "path discovery",
};

/**
 * With `bash_redirect_read_side = true`: the dedicated tool for a command that
 * only displays a file, searches text or discovers paths. Every list item
 * must be one such command whose tool is active; a pipe stage reading stdin,
 * a count-only command, an unknown option or anything else keeps the whole
 * line in the shell.
 */
export function readSideRoute(cmd: string, activeTools: ReadonlySet<string>): ShellRoute | undefined {
  const p = parseShell(cmd);
  if (!p.parseable || p.keywords.length || p.substitutions.length || !p.items.length) return undefined;
  const steps: RouteStep[] = [];
  for (const item of p.items) {
    const { stages, negated } = item.pipeline;
    if (item.op === "&" || negated || stages.length !== 1) return undefined;
    const step = routeStep(stages[0]!);
    if (!step || !activeTools.has(step.tool)) return undefined;
    steps.push(step);
  }
  const tools = [...new Set(steps.map((s) => s.tool))];
  const named = tools.length === 1 ? `the ${tools[0]} tool` : `the ${tools.join(" and ")} tools`;
  const reasons = tools.map((t) => ROUTE_REASONS[t]).join("; ");
  const calls = steps.filter((s) => s.args).map((s) => `${s.tool} ${JSON.stringify(s.args)}`);
  const suggestion = calls.length ? ` Try: ${calls.join("; ")}` : "";
  return {
    tool: steps[0]!.tool,
    message: `ERROR: shell_routed: use ${named} for this (${reasons}); it returns paged, structured results.${suggestion}`,
  };
}

// ---------------------------------------------------------------------------
// Chord: promotion to background jobs and the output-preservation reminder

const LOOP_KEYWORDS = new Set(["while", "until", "for", "select"]);

const GIT_QUERIES = new Set([
  "status", "log", "diff", "show", "rev-parse", "describe", "ls-files", "ls-tree", "cat-file", "blame",
  "shortlog", "reflog", "rev-list", "merge-base", "name-rev", "for-each-ref", "show-ref", "symbolic-ref",
  "grep", "check-ignore", "check-attr", "var", "version", "whatchanged", "diff-tree", "diff-files",
  "diff-index", "count-objects", "show-branch",
]);
const GIT_VALUED_GLOBALS = new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path"]);
const LISTING_FLAGS = /^(?:-l|--list|--contains|--no-contains|--merged|--no-merged|--points-at|--show-current)(?:=|$)/;
// Flags that make `git branch` / `git tag` change refs instead of listing them.
const REF_CHANGING_FLAGS = {
  branch: /^(?:-[dDmMcCfu]|--(?:delete|move|copy|force|set-upstream-to|unset-upstream|edit-description|track|no-track)(?:=|$))/,
  tag: /^(?:-[dasumfF]|--(?:delete|annotate|sign|local-user|message|file|force)(?:=|$))/,
};

/** `git status`, `git log ...`, `git branch`, `git config --get k`: quick and read-only. */
function isShortGitQuery(words: readonly Word[]): boolean {
  const args = values(words.slice(1));
  let i = 0;
  while (i < args.length && args[i]!.startsWith("-")) i += GIT_VALUED_GLOBALS.has(args[i]!) ? 2 : 1;
  const sub = args[i];
  const rest = args.slice(i + 1);
  if (sub === undefined) return false;
  if (GIT_QUERIES.has(sub)) return true;
  const operands = rest.filter((a) => !a.startsWith("-"));
  switch (sub) {
    case "branch":
    case "tag":
      return !rest.some((a) => REF_CHANGING_FLAGS[sub].test(a)) && (!operands.length || rest.some((a) => LISTING_FLAGS.test(a)));
    case "remote":
      return rest.every((a) => a === "-v" || a === "--verbose") || rest[0] === "get-url";
    case "config":
      return rest.some((a) => /^(?:--get|--get-all|--get-regexp|-l|--list)$/.test(a)) || operands.length === 1;
    case "stash":
      return rest[0] === "list" || rest[0] === "show";
    case "worktree":
      return rest[0] === "list";
    default:
      return false; // clone, fetch, pull, push, submodule, gc, fsck, repack, bundle, filter-branch, and all else
  }
}

/**
 * True when a foreground command may not be promoted to a background job: it
 * is made only of deliberate waits (`sleep`) and short git queries, or it does
 * not parse. Loops can run for ever, so any loop keeps the command promotable.
 */
export function isNonPromotable(cmd: string): boolean {
  return nonPromotable(cmd, 0);
}

function nonPromotable(cmd: string, depth: number): boolean {
  const p = parseShell(cmd);
  if (!p.parseable) return true;
  if (p.keywords.some((k) => LOOP_KEYWORDS.has(k))) return false;
  for (const c of commandsOf(p)) {
    if (!c.words.length) continue; // group stand-ins, bare assignments and redirections run nothing themselves
    const verb = verbOf(c.words);
    if (verb !== "sleep" && !(verb === "git" && isShortGitQuery(c.words))) return false;
  }
  return depth >= MAX_NESTING || p.substitutions.every((s) => nonPromotable(s, depth + 1));
}

const OUTPUT_FILTERS = new Set(["tail", "head", "grep", "egrep", "fgrep", "rg"]);

/**
 * True when a pipeline sends a command's output through tail, head or grep in
 * a later stage: whatever the filter drops never reaches the saved output.
 */
export function needsPreservationReminder(cmd: string): boolean {
  return filtered(cmd, 0);
}

function filtered(cmd: string, depth: number): boolean {
  const p = parseShell(cmd);
  if (!p.parseable) return false;
  const piped = p.items.some(({ pipeline }) =>
    pipeline.stages.some((stage, i) => i > 0 && OUTPUT_FILTERS.has(verbOf(stage.words) ?? "")),
  );
  return piped || (depth < MAX_NESTING && p.substitutions.some((s) => filtered(s, depth + 1)));
}

export const PRESERVATION_REMINDER =
  "Note: this command's output went through tail, grep or head, so the lines they dropped were never " +
  "saved in the output log, and the pipeline's exit status may be the filter's rather than the check's. " +
  "Next time, run the command on its own and read or grep its saved output instead.";

// ---------------------------------------------------------------------------
// Exit-code meanings

/** Exit-1 meanings for commands where 1 is an answer, not a failure. */
const EXIT_ONE_MEANINGS = new Map<string, string>([
  ["grep", "no matches"],
  ["egrep", "no matches"],
  ["fgrep", "no matches"],
  ["rg", "no matches"],
  ["ripgrep", "no matches"],
  ["ag", "no matches"],
  ["diff", "files differ"],
  ["cmp", "files differ"],
  ["find", "errors during traversal (consult stderr)"],
  ["test", "condition is false"],
  ["[", "condition is false"],
]);

/**
 * The meaning of exit 1 for a single-verb command: one command, no pipeline,
 * list, negation, compound keyword or substitution, so the status is its own.
 */
export function exitMeaning(cmd: string, code: number): string | undefined {
  if (code !== 1) return undefined;
  const p = parseShell(cmd);
  if (!p.parseable || p.keywords.length || p.substitutions.length || p.items.length !== 1) return undefined;
  const item = p.items[0]!;
  if (item.op === "&" || item.pipeline.negated || item.pipeline.stages.length !== 1) return undefined;
  const verb = verbOf(item.pipeline.stages[0]!.words);
  return verb === undefined ? undefined : EXIT_ONE_MEANINGS.get(verb);
}
