// Programs that run other commands in their own way: `find -exec`/`-delete`,
// `xargs`, GNU `parallel`, and those that hand a string to a shell (`watch`,
// `su -c`, `script -c`, `flock -c`). Each gives back the command it runs,
// with the text it fills in at run time (`{}`) marked as such.

import type { CodeStep } from "./inline-code.js";
import type { Word } from "./types.js";
import { HOLE, type Part } from "./word-template.js";

/** Text a runner substitutes at run time (`{}`, xargs -I's string). */
export interface Placeholder {
  in(w: Word): boolean;
  inText(text: string): boolean;
  /** The word's template with every occurrence turned into a hole. */
  fill(parts: readonly Part[]): Part[];
}

function placeholder(token: string | RegExp): Placeholder {
  const re = typeof token === "string" ? new RegExp(token.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "g") : new RegExp(token.source, "g");
  const test = (s: string) => {
    re.lastIndex = 0;
    return re.test(s);
  };
  return {
    in: (w) => test(w.value),
    inText: test,
    fill: (parts) =>
      parts.flatMap((p) => {
        if (p === HOLE || !test(p)) return [p];
        const pieces = p.split(re);
        return pieces.flatMap((piece, i) => (i === 0 ? [piece] : [HOLE, piece])).filter((x) => x !== "");
      }),
  };
}

const BRACES = placeholder("{}");

/** The commands of `-exec`, `-execdir`, `-ok`, `-okdir`, and whether `-delete` is there. */
export function findCommands(words: readonly Word[]): { execs: Array<{ words: Word[]; placeholder: Placeholder }>; deletes: boolean } {
  const execs: Array<{ words: Word[]; placeholder: Placeholder }> = [];
  let deletes = false;
  for (let i = 1; i < words.length; i++) {
    const v = words[i]!.value;
    if (v === "-delete") deletes = true;
    if (!/^-(?:exec|execdir|ok|okdir)$/.test(v)) continue;
    const end = words.findIndex((w, j) => j > i && (w.value === ";" || w.value === "+"));
    const chunk = words.slice(i + 1, end < 0 ? words.length : end);
    if (chunk.length) execs.push({ words: chunk, placeholder: BRACES });
    i = end < 0 ? words.length : end;
  }
  return { execs, deletes };
}

const XARGS_VALUED = new Set(["-n", "-P", "-d", "-E", "-L", "-s", "-a", "--max-args", "--max-procs", "--delimiter", "--arg-file", "--max-lines", "--max-chars", "--eof", "--process-slot-var"]);

/** The command xargs runs (words from stdin appended, or put in place of its replace string); undefined for the default `echo`. */
export function xargsCommand(words: readonly Word[]): { words: readonly Word[]; placeholder?: Placeholder } | undefined {
  let replace: string | undefined;
  let i = 1;
  while (i < words.length) {
    const v = words[i]!.value;
    if (v === "--") {
      i++;
      break;
    }
    if (!v.startsWith("-") || v === "-") break;
    if (v === "-I") {
      replace = words[i + 1]?.value;
      i += 2;
    } else if (v.startsWith("-I")) {
      replace = v.slice(2);
      i++;
    } else if (v === "-i" || v === "--replace") {
      replace = "{}";
      i++;
    } else if (v.startsWith("-i") || v.startsWith("--replace=")) {
      replace = v.startsWith("-i") ? v.slice(2) : v.slice("--replace=".length);
      i++;
    } else i += XARGS_VALUED.has(v.split("=")[0]!) && !v.includes("=") ? 2 : 1;
  }
  if (i >= words.length) return undefined;
  return { words: words.slice(i), ...(replace ? { placeholder: placeholder(replace) } : {}) };
}

const PARALLEL_VALUED = new Set([
  "-j", "--jobs", "-J", "-S", "--sshlogin", "-a", "--arg-file", "-d", "--delimiter", "-E", "-I", "-n", "-N", "-L",
  "--colsep", "-C", "--joblog", "--results", "--tmpdir", "--workdir", "--wd", "--timeout", "--retries", "--halt", "-s",
  "--max-chars", "--env", "--delay", "--sshloginfile", "--basefile", "--return", "--tag-string", "--rpl",
]);

/** GNU parallel hands its command, joined into one line, to a shell; `{…}` are the arguments. */
export function parallelCommand(words: readonly Word[]): { kind: "unresolved"; reason: string; code: boolean } | { kind: "script"; text: string; placeholder: Placeholder } {
  let i = 1;
  while (i < words.length && words[i]!.value.startsWith("-") && !words[i]!.value.startsWith(":::")) {
    const v = words[i]!.value;
    i += PARALLEL_VALUED.has(v) ? 2 : 1;
  }
  const end = words.findIndex((w, j) => j >= i && /^::::?\+?$/.test(w.value));
  const command = words.slice(i, end < 0 ? words.length : end);
  if (!command.length) return { kind: "unresolved", reason: "parallel runs commands it reads from its input", code: false };
  if (command.some((w) => w.dynamic)) return { kind: "unresolved", reason: "the command given to parallel is built at run time", code: false };
  return { kind: "script", text: command.map((w) => w.value).join(" "), placeholder: placeholder(/\{[^{}\s]*\}/) };
}

type SessionStep = CodeStep | { kind: "words"; words: readonly Word[] };

const joined = (words: readonly Word[]): CodeStep =>
  words.some((w) => w.dynamic)
    ? { kind: "unresolved", reason: "the command is built at run time", code: false }
    : { kind: "script", text: words.map((w) => w.value).join(" ") };

/** `watch CMD…` and `-c STRING` of su, runuser, script and flock: a string run by a shell. */
export function sessionScript(program: string, words: readonly Word[]): SessionStep {
  const valued = new Set(
    program === "watch"
      ? ["-n", "--interval", "-q", "--equexit"]
      : program === "flock"
        ? ["-w", "--wait", "--timeout", "-E", "--conflict-exit-code"]
        : ["-s", "--shell", "-g", "--group", "-G", "--supp-group", "-w", "--whitelist-environment", "-E", "--echo", "-o", "--output-limit", "-T", "--log-timing", "-I", "-O", "-B", "--log-in", "--log-out", "--log-io"],
  );
  let exec = false;
  const operands: Word[] = [];
  // `runuser -u USER [--] COMMAND…` runs the command itself.
  let user = false;
  // The words from watch's (or runuser -u's) first operand, or flock's second (after the lock file), are the command.
  const commandAt = () => (program === "watch" || user ? 0 : program === "flock" ? 1 : Infinity);
  for (let i = 1; i < words.length; i++) {
    const w = words[i]!;
    const v = w.value;
    if (operands.length > commandAt()) {
      operands.push(w);
      continue;
    }
    // `-c STRING`, also at the end of a cluster (`script -qc 'rm x'`); watch's -c is colour.
    if (program !== "watch" && (v === "--command" || /^-[A-Za-z]*c$/.test(v))) return words[i + 1] ? joined([words[i + 1]!]) : { kind: "done" };
    if (v.startsWith("--command=")) return joined([{ ...w, value: v.slice("--command=".length) }]);
    if (v === "-x" || v === "--exec") exec = true;
    if (program === "runuser" && (v === "-u" || v === "--user")) {
      user = true;
      i++;
      continue;
    }
    if (v === "--") {
      operands.push(...words.slice(i + 1));
      break;
    }
    if (v.startsWith("-") && v !== "-") {
      if (valued.has(v)) i++;
      continue;
    }
    operands.push(w);
  }
  if (program === "watch") return operands.length === 0 ? { kind: "done" } : exec ? { kind: "words", words: operands } : joined(operands);
  // flock FILE COMMAND…: the command follows the lock file; su/runuser/script without -c run an interactive shell.
  if (program === "flock" && operands.length > 1) return { kind: "words", words: operands.slice(1) };
  if (user && operands.length) return { kind: "words", words: operands };
  return { kind: "done" };
}
