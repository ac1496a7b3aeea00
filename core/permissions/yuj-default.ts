// Yuj's "normal behaviour" when no rule matches: allow, except the built-in
// approval gate, which asks when any program a shell command runs is
//   rm, git reset --hard, git clean, git checkout --, chmod, chown,
//   or cp / mv with a path outside the repository,
// or when what it runs cannot be known from its text (eval, a program named
// by `$x`, commands piped into a shell, …). Programs are found as the rules
// find them (core/shell/invocations.ts): each list item and pipeline stage,
// inside substitutions and `bash -c` scripts, behind wrappers such as sudo,
// env, xargs or timeout, and `find -exec`/`-delete`. An interpreter's inline
// code (`python -c`) is not asked about: the gate judges shell commands, and
// explicit deny and ask rules are where such code is fenced.

import { invocationsOf, type Invocation } from "../shell/invocations.js";
import type { Word } from "../shell/index.js";
import { cleanPath } from "./clean-path.js";

/** Why the gate asks about this command, or undefined when it lets it run. */
export function approvalGateReason(cmd: string, cwd: string): string | undefined {
  return gateReason(invocationsOf(cmd), cwd);
}

/** The gate's reason for the first of these programs it asks about. */
export function gateReason(invocations: readonly Invocation[], cwd: string): string | undefined {
  for (const inv of invocations) {
    const reason = invocationReason(inv, cwd);
    if (reason !== undefined) return reason;
  }
  return undefined;
}

function invocationReason(inv: Invocation, cwd: string): string | undefined {
  if (inv.unresolved) return inv.unresolved.code ? undefined : `what the command runs cannot be known from its text: ${inv.unresolved.reason}`;
  const words = inv.words;
  const args = words.slice(1).map((w) => w.value);
  switch (inv.program) {
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
      return `${inv.program === "cp" ? "copy" : "move"} outside the repository via ${inv.program}: ${outside.value}`;
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
