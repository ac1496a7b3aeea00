// The git commands that open an editor or walk a person through hunks. With
// no terminal the editor cannot start, so each is named with the
// non-interactive form that does the same.

import { finding, type InteractiveFinding } from "./interactive.js";

/** git's own options that take the next word as their value. */
const GIT_VALUED = new Set(["-C", "-c", "--exec-path", "--git-dir", "--work-tree", "--namespace"]);

/** The subcommand and its arguments, past git's own options. */
export function subcommand(args: readonly string[], valued: ReadonlySet<string>): { sub: string; rest: string[] } | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--") return i + 1 < args.length ? { sub: args[i + 1]!, rest: args.slice(i + 2) } : undefined;
    if (valued.has(a)) i++;
    else if (!a.startsWith("-")) return { sub: a, rest: args.slice(i + 1) };
  }
  return undefined;
}

/** `-p`/`--patch` (or another pair) before `--`, alone or in a cluster of short flags. */
function hasFlag(args: readonly string[], short: string, long: string): boolean {
  for (const a of args) {
    if (a === "--") return false;
    if (long && (a === long || a.startsWith(`${long}=`))) return true;
    if (short && /^-[A-Za-z]+$/.test(a) && a.includes(short.slice(1))) return true;
  }
  return false;
}

/** -m, -F, -C (reuse message) or --no-edit: git commit needs no editor. */
function commitAvoidsEditor(args: readonly string[]): boolean {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--") break;
    if (["-m", "-F", "-C", "--message", "--file", "--reuse-message", "--no-edit"].includes(a)) return true;
    if (/^--(?:message|file|reuse-message)=/.test(a)) return true;
    const fixup = a === "--fixup" ? args[i + 1] : a.startsWith("--fixup=") ? a.slice(8) : undefined;
    if (fixup !== undefined && fixup !== "" && !/^(?:amend|reword):/.test(fixup)) return true;
    // A cluster of short flags: the value of -m/-F/-C may follow in the same word.
    // In a cluster of short flags (`-am`, `-CHEAD`) the first of these decides:
    // -m/-F/-C bring the message, -c reopens it in the editor.
    const first = /^-[A-Za-z]/.test(a) && !a.startsWith("--") ? /[mFCc]/.exec(a.slice(1))?.[0] : undefined;
    if (first !== undefined && first !== "c") return true;
  }
  return false;
}

/** A GIT_EDITOR or GIT_SEQUENCE_EDITOR set on the command that needs no person (`true`, `sed -i ...`). */
function editorIsScripted(env: ReadonlyMap<string, string>): boolean {
  return ["GIT_SEQUENCE_EDITOR", "GIT_EDITOR"].some((n) => {
    const v = env.get(n)?.trim();
    return v !== undefined && v !== "" && !/^(?:vi|vim|nvim|nano|emacs|pico)\b/.test(v);
  });
}

const PATCH_HINT = "Stage or restore explicit paths instead (`git add path`, `git restore path`), or write the change with the file tools.";

export function gitFinding(args: readonly string[], env: ReadonlyMap<string, string>, hasInput: boolean): InteractiveFinding | undefined {
  const found = subcommand(args, GIT_VALUED);
  if (!found) return undefined;
  const { sub, rest } = found;
  switch (sub) {
    case "commit":
      if (hasFlag(rest, "-p", "--patch") || hasFlag(rest, "", "--interactive")) {
        return finding("git commit --patch", "`git commit --patch` is an interactive patch workflow", "Stage the paths with `git add path`, then `git commit -m <message>`.");
      }
      if (commitAvoidsEditor(rest) || editorIsScripted(env)) return undefined;
      return finding(
        "git commit",
        "`git commit` without an explicit message or no-edit/reuse-message option opens an editor",
        "Use `git commit -m <message>`, `git commit -F <file>`, `git commit --amend --no-edit` or `git commit -C <commit>`.",
      );
    case "rebase":
      if ((hasFlag(rest, "-i", "--interactive") || rest.includes("--edit-todo")) && !editorIsScripted(env)) {
        return finding(
          "git rebase -i",
          "`git rebase -i` requires an editor",
          "Use a non-interactive form: `git rebase <base>`, or set GIT_SEQUENCE_EDITOR to a command that edits the todo list (GIT_SEQUENCE_EDITOR=\"sed -i ...\" git rebase -i ...).",
        );
      }
      return undefined;
    case "add":
    case "checkout":
    case "restore":
    case "reset":
      if (hasFlag(rest, "-p", "--patch") && !hasInput) return finding(`git ${sub} -p`, `\`git ${sub} -p\` is an interactive patch workflow`, PATCH_HINT);
      if (sub === "add" && hasFlag(rest, "-i", "--interactive")) return finding("git add -i", "`git add -i` is interactive", PATCH_HINT);
      return undefined;
    case "stash": {
      const action = rest.find((a) => !a.startsWith("-")) ?? "push";
      if ((action === "push" || action === "save") && hasFlag(rest, "-p", "--patch") && !hasInput) {
        return finding("git stash -p", "`git stash -p` is an interactive patch workflow", "Stash explicit paths instead: `git stash push -- path`.");
      }
      return undefined;
    }
    case "clean":
      return hasFlag(rest, "-i", "--interactive")
        ? finding("git clean -i", "`git clean -i` is interactive", "Preview with `git clean -n`, then remove explicit paths with `git clean -f -- path`.")
        : undefined;
    case "difftool":
    case "mergetool":
      return finding(`git ${sub}`, `\`git ${sub}\` launches an interactive tool`, "Use `git diff` to see changes, and resolve conflicts with the file tools.");
    default:
      return undefined;
  }
}
