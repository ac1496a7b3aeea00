// Yuj's "normal behaviour" when no rule matches (digest 4.1): allow, except
// the built-in approval gate of the Yuj snapshot. A shell command (bash,
// terminal_start, or input sent with terminal_io) asks when any segment of
// it runs
//   rm, git reset --hard, git clean, git checkout --, chmod, chown,
//   or cp / mv with a path outside the repository.
// Segments are every simple command of the line — each list item and
// pipeline stage, inside substitutions, `bash -c` scripts and `find -exec` —
// seen through wrappers such as sudo, env, xargs or timeout.

import { commandsOf, MAX_NESTING, parseShell, unwrap, verbOf, type Word } from "../shell/index.js";
import { cleanPath, type MatchTarget } from "./match-values.js";

/** Why the gate asks about this command, or undefined when it lets it run. */
export function approvalGateReason(cmd: string, cwd: string): string | undefined {
  return checkScript(cmd, cwd, 0);
}

/** The gate's reason for a call no rule matched; undefined means allow. */
export function yujDefaultAsk(target: MatchTarget, cwd: string): string | undefined {
  if (target.kind !== "command") return undefined;
  for (const value of target.values) {
    const reason = approvalGateReason(value, cwd);
    if (reason !== undefined) return reason;
  }
  return undefined;
}

function checkScript(cmd: string, cwd: string, depth: number): string | undefined {
  const p = parseShell(cmd);
  for (const c of commandsOf(p)) {
    const reason = checkCommand(c.words, cwd, depth);
    if (reason !== undefined) return reason;
  }
  if (depth >= MAX_NESTING) return undefined;
  for (const sub of p.substitutions) {
    const reason = checkScript(sub, cwd, depth + 1);
    if (reason !== undefined) return reason;
  }
  return undefined;
}

function checkCommand(all: readonly Word[], cwd: string, depth: number): string | undefined {
  const words = unwrap(all);
  const verb = verbOf(words);
  const args = words.slice(1).map((w) => w.value);
  switch (verb) {
    case "rm":
      return "destructive file deletion via rm";
    case "chmod":
      return "permission change via chmod";
    case "chown":
      return "ownership change via chown";
    case "git":
      return gitReason(args);
    case "cp":
    case "mv": {
      const outside = copyOperands(words.slice(1)).find((w) => leavesRepo(w, cwd));
      if (!outside) return undefined;
      return `${verb === "cp" ? "copy" : "move"} outside the repository via ${verb}: ${outside.value}`;
    }
  }
  if (depth >= MAX_NESTING || verb === undefined) return undefined;
  // `bash -c '...'` hides a whole script in one word.
  if (/^(?:ba|z|da|k)?sh$/.test(verb)) {
    const c = words.findIndex((w, i) => i > 0 && /^-[a-z]*c[a-z]*$/.test(w.value));
    const script = c > 0 ? words[c + 1] : undefined;
    return script ? checkScript(script.value, cwd, depth + 1) : undefined;
  }
  // `find ... -exec rm {} +` runs a command per match.
  if (verb === "find") {
    for (let i = 1; i < words.length; i++) {
      if (!/^-(?:exec|execdir|ok|okdir)$/.test(words[i]!.value)) continue;
      const end = words.findIndex((w, j) => j > i && (w.value === ";" || w.value === "+"));
      const reason = checkCommand(words.slice(i + 1, end < 0 ? words.length : end), cwd, depth + 1);
      if (reason !== undefined) return reason;
    }
  }
  return undefined;
}

const GIT_VALUED_GLOBALS = new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path", "--config-env"]);

function gitReason(args: readonly string[]): string | undefined {
  let i = 0;
  while (i < args.length && args[i]!.startsWith("-")) i += GIT_VALUED_GLOBALS.has(args[i]!) ? 2 : 1;
  const sub = args[i];
  const rest = args.slice(i + 1);
  if (sub === "reset" && rest.includes("--hard")) return "discarding uncommitted changes via git reset --hard";
  if (sub === "clean") return "deleting untracked files via git clean";
  if (sub === "checkout" && rest.includes("--")) return "discarding file changes via git checkout --";
  return undefined;
}

/** The path operands of cp/mv, the `-t DIR` target included. */
function copyOperands(words: readonly Word[]): Word[] {
  const out: Word[] = [];
  let options = true;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const v = w.value;
    if (options && v === "--") options = false;
    else if (options && (v === "-t" || v === "--target-directory")) {
      const dir = words[++i];
      if (dir) out.push(dir);
    } else if (options && v.startsWith("--target-directory=")) {
      out.push({ ...w, value: v.slice("--target-directory=".length) });
    } else if (options && (v === "-S" || v === "--suffix")) i++;
    else if (options && v.startsWith("-") && v !== "-") continue;
    else out.push(w);
  }
  return out;
}

/** A path outside the task directory — or one whose place cannot be known here (`~`, `$HOME/x`). */
function leavesRepo(w: Word, cwd: string): boolean {
  const v = w.value;
  if (v.startsWith("~") || (w.dynamic && v.startsWith("$"))) return true;
  return cleanPath(v, cwd).startsWith("/");
}
