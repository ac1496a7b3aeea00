// Shells and interpreters given code on the command line or on their input.
// A shell's code is shell code: when its text is known (`bash -c 'rm x'`,
// a literal here-document) it is read as a script in turn; when the run
// builds it (`bash -c "$cmd"`, `… | sh`) nothing can be said about it. An
// interpreter's inline code (`python -c`, `perl -e`, `node -e`, an awk
// program that runs commands) can do anything a command can, and is never
// read. A script or program file is judged by the command's name alone.

import type { Redirect, Word } from "./types.js";

/** Where a command's standard input comes from. */
export interface Feed {
  piped: boolean;
  redirects: readonly Redirect[];
}

export type CodeStep =
  | { kind: "script"; text: string }
  | { kind: "unresolved"; reason: string; code: boolean }
  | { kind: "done" };

const DONE: CodeStep = { kind: "done" };
const unresolved = (reason: string, code = false): CodeStep => ({ kind: "unresolved", reason, code });

export const isShell = (name: string): boolean => /^(?:ba|da|z|k|mk|a|fi|tc|c|ya|po|rba)?sh$/.test(name);

/** A path whose content is another command's output, never a file on disk. */
const streamPath = (w: Word): boolean => w.dynamic || /^\/(?:dev|proc)\//.test(w.value);

/** `sh [options] [-c SCRIPT | FILE | (stdin)]`. */
export function shellCode(name: string, words: readonly Word[], feed: Feed): CodeStep {
  let i = 1;
  let inline = false;
  let stdin = false;
  while (i < words.length) {
    const v = words[i]!.value;
    if (v === "--" || v === "-") {
      i++;
      break;
    }
    if (v === "--rcfile" || v === "--init-file") i += 2;
    else if (v === "--command" || v === "-C") {
      inline = true;
      i++;
    } else if (v.startsWith("--command=")) return known(words[i]!, v.slice("--command=".length), name);
    else if (v.startsWith("--")) i++;
    else if (/^[-+][A-Za-z]+$/.test(v)) {
      if (v[0] === "-" && v.includes("c")) inline = true;
      if (v[0] === "-" && v.includes("s")) stdin = true;
      // `-o pipefail`, `-O extglob`: each o/O takes the next word.
      i += 1 + [...v].filter((c) => c === "o" || c === "O").length;
    } else break;
  }
  if (inline) {
    const script = words[i];
    return script ? known(script, script.value, name) : DONE;
  }
  const operand = words[i];
  if (operand && !stdin) return streamPath(operand) ? unresolved(`${name} reads its script from ${operand.raw}`) : DONE;
  return fromInput(name, feed, false);
}

function known(word: Word, text: string, name: string): CodeStep {
  return word.dynamic ? unresolved(`the script given to ${name} is built at run time (${word.raw})`) : { kind: "script", text };
}

/** Code a shell or interpreter reads from its standard input. */
function fromInput(name: string, feed: Feed, code: boolean): CodeStep {
  for (const r of [...feed.redirects].reverse()) {
    if (r.fd !== undefined && r.fd !== 0) continue;
    if (r.op === "<<" || r.op === "<<-") {
      if (code) return unresolved(`code fed to ${name} in a here-document`, true);
      const body = r.body ?? "";
      // An unquoted body is expanded first, so its text is only known at run time.
      if (!r.target.quoted && /[$`]/.test(body)) return unresolved(`the here-document fed to ${name} expands at run time`);
      return { kind: "script", text: body };
    }
    if (r.op === "<<<") {
      if (code) return unresolved(`code fed to ${name} in a here-string`, true);
      return r.target.dynamic ? unresolved(`the here-string fed to ${name} is built at run time`) : { kind: "script", text: r.target.value };
    }
    if (r.op === "<" || r.op === "<>") return streamPath(r.target) ? unresolved(`${name} reads code from ${r.target.raw}`, code) : DONE;
    if (r.op === "<&") return unresolved(`${name} reads code from descriptor ${r.target.value}`, code);
  }
  return feed.piped ? unresolved(`commands piped into ${name}`, code) : DONE;
}

interface Interpreter {
  name: RegExp;
  /** Options whose value is code (`-c`, `--eval`). */
  inline: readonly string[];
  /** Letters that mean inline code inside a cluster (`perl -ne`). */
  letters: string;
  /** Options that take the next word as a value. */
  valued: readonly string[];
  /** Options that name a module or file to run: the code is not inline. */
  program?: readonly string[];
}

const INTERPRETERS: readonly Interpreter[] = [
  { name: /^(?:python|pypy)[0-9.]*$/, inline: ["-c"], letters: "c", valued: ["-W", "-X", "-Q"], program: ["-m"] },
  { name: /^perl[0-9.]*$/, inline: ["-e", "-E"], letters: "eE", valued: [] },
  { name: /^j?ruby[0-9.]*$/, inline: ["-e"], letters: "e", valued: ["-I", "-r", "-E", "-C", "-F"] },
  {
    name: /^(?:node|nodejs|bun)$/,
    inline: ["-e", "--eval", "-p", "--print"],
    letters: "ep",
    valued: ["-r", "--require", "--import", "--loader", "--experimental-loader", "-C", "--conditions", "--env-file"],
  },
  { name: /^php[0-9.]*$/, inline: ["-r", "-R", "-B", "-E"], letters: "r", valued: ["-c", "-d", "-z"] },
  { name: /^(?:lua|luajit)[0-9.]*$/, inline: ["-e"], letters: "e", valued: ["-l"] },
  { name: /^(?:Rscript|R)$/, inline: ["-e"], letters: "", valued: [] },
  { name: /^julia$/, inline: ["-e", "--eval", "-E", "--print"], letters: "", valued: [] },
  { name: /^osascript$/, inline: ["-e"], letters: "", valued: [] },
  { name: /^(?:pwsh|powershell)$/, inline: ["-c", "-command", "-encodedcommand", "-ec", "-e"], letters: "", valued: [] },
  { name: /^(?:tclsh|wish)[0-9.]*$/, inline: [], letters: "", valued: [] },
];

/** For an interpreter: whether its code is inline (unresolved) or a file (done); undefined for other programs. */
export function interpreterCode(name: string, words: readonly Word[], feed: Feed): CodeStep | undefined {
  if (/^(?:g|m|n)?awk$/.test(name)) return awkCode(name, words);
  if (name === "deno") return words[1]?.value === "eval" ? unresolved("deno eval runs inline code", true) : DONE;
  const spec = INTERPRETERS.find((s) => s.name.test(name));
  if (!spec) return undefined;
  const inlineCode = unresolved(`${name} runs inline code`, true);
  for (let i = 1; i < words.length; i++) {
    const v = words[i]!.value;
    if (v === "-") return fromInput(name, { ...feed, piped: true }, true);
    if (v === "--") return words[i + 1] ? DONE : fromInput(name, feed, true);
    if (!v.startsWith("-")) return DONE;
    const option = v.split("=")[0]!;
    if (spec.inline.includes(option) || spec.inline.includes(option.toLowerCase())) return inlineCode;
    if (/^-[A-Za-z]+$/.test(v) && [...v.slice(1)].some((c) => spec.letters.includes(c))) return inlineCode;
    if (spec.program?.includes(v)) return DONE;
    if (spec.valued.includes(v)) i++;
  }
  return fromInput(name, feed, true);
}

/** awk: the program text is the first operand unless `-f FILE` gives it. */
function awkCode(name: string, words: readonly Word[]): CodeStep {
  let fromFile = false;
  const programs: Word[] = [];
  let i = 1;
  for (; i < words.length; i++) {
    const v = words[i]!.value;
    if (v === "--") {
      i++;
      break;
    }
    if (v === "-f" || v === "--file" || v === "-E" || v === "--exec") {
      fromFile = true;
      i++;
    } else if (v === "-e" || v === "--source") programs.push(words[++i] ?? words[i - 1]!);
    else if (v === "-F" || v === "-v" || v === "--assign" || v === "--field-separator") i++;
    else if (!v.startsWith("-") || v === "-") break;
  }
  if (!fromFile && !programs.length && words[i]) programs.push(words[i]!);
  for (const p of programs) {
    if (p.dynamic) return unresolved(`the ${name} program is built at run time`, true);
    // system() and `|` run commands; `||` is only a logical or.
    if (/\bsystem\s*\(/.test(p.value) || p.value.replace(/\|\|/g, "").includes("|")) {
      return unresolved(`the ${name} program runs commands`, true);
    }
  }
  return DONE;
}
