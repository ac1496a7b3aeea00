// Yuj write-side refusals: when an active dedicated tool owns
// an operation (write, edit, apply_patch, udiff), a shell fragment that does
// it anyway is stopped and the tool is named; a rule is inert while its tool
// is inactive. Every fragment is checked: each stage of each list item,
// command substitutions, `bash -c` scripts and `find -exec` commands.

import { parseShell, unwrap, verbOf, type SimpleCommand, type Word } from "../../../core/shell/index.js";
import {
  inlineInput,
  inlineStdin,
  isCodeLikePath,
  isDevice,
  isOutsideProject,
  MAX_NESTING,
  refusal,
  stdinRedirect,
  values,
  writtenFile,
  WRITE_WHY,
  type Fragment,
  type ShellRefusal,
} from "./common.js";
import { pythonRule } from "./python-write.js";

/**
 * What the rules need beyond the command: the tools the model has, and which
 * targets lie outside the project. The dedicated tools write only inside the
 * project, so a scratch file written elsewhere (`cat > /tmp/x.py`) is not
 * theirs to take: refusing it would name a tool that refuses it in turn.
 */
interface RuleScope {
  active: ReadonlySet<string>;
  outside: (file: string) => boolean;
}

const NOWHERE_OUTSIDE = (): boolean => false;

const EDIT_TOOLS = ["edit", "apply_patch", "udiff"] as const;
const EDIT_WHY: Record<(typeof EDIT_TOOLS)[number], string> = {
  edit: "a pattern edit can silently change the wrong lines or none; edit reports when the text is not found",
  apply_patch: "it checks every hunk before changing the file and reports what did not match",
  udiff: "it checks every hunk before changing the file and reports what did not match",
};

/**
 * The first write-side rule the command breaks, checking every fragment: each
 * stage of each list item, command substitutions, and `bash -c` scripts.
 * Commands that do not parse are still checked up to the error, because bash
 * runs the lines before it.
 */
export function shellRefusal(cmd: string, activeTools: ReadonlySet<string>, projectDir?: string): ShellRefusal | undefined {
  const outside = projectDir === undefined ? NOWHERE_OUTSIDE : (file: string) => isOutsideProject(file, projectDir);
  return refuseScript(cmd, { active: activeTools, outside }, 0);
}

function refuseScript(cmd: string, scope: RuleScope, depth: number): ShellRefusal | undefined {
  const p = parseShell(cmd);
  for (const item of p.items) {
    const { stages } = item.pipeline;
    for (let index = 0; index < stages.length; index++) {
      const found = refuseFragment({ cmd: stages[index]!, stages, index }, scope, depth);
      if (found) return found;
    }
  }
  if (depth >= MAX_NESTING) return undefined;
  for (const sub of p.substitutions) {
    const found = refuseScript(sub, scope, depth + 1);
    if (found) return found;
  }
  return undefined;
}

function refuseFragment(f: Fragment, scope: RuleScope, depth: number): ShellRefusal | undefined {
  const words = unwrap(f.cmd.words);
  const verb = verbOf(words);
  const found =
    cdRule(verb, words) ??
    inPlaceRule(verb, words, scope) ??
    catWriteRule(verb, words, f, scope) ??
    teeRule(verb, words, f, scope) ??
    pythonRule(verb, words, f, scope.active) ??
    redirectRule(f.cmd, scope) ??
    authoredRedirectRule(verb, f.cmd, scope);
  if (found || depth >= MAX_NESTING) return found;
  // `bash -c '...'` hides a whole script in one word.
  if (verb !== undefined && /^(?:ba|z|da|k)?sh$/.test(verb)) {
    const c = words.findIndex((w, i) => i > 0 && /^-[a-z]*c[a-z]*$/.test(w.value));
    const script = c > 0 ? words[c + 1] : undefined;
    if (script) return refuseScript(script.value, scope, depth + 1);
  }
  // `find ... -exec sed -i ... {} +` runs a command per match.
  if (verb === "find") {
    for (let i = 1; i < words.length; i++) {
      if (!/^-(?:exec|execdir|ok|okdir)$/.test(words[i]!.value)) continue;
      const end = words.findIndex((w, j) => j > i && (w.value === ";" || w.value === "+"));
      const inner = words.slice(i + 1, end < 0 ? words.length : end);
      const hit = inPlaceRule(verbOf(inner), inner, scope);
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

/** gawk's in-place extension: `-i inplace`, `-iinplace`, `--include=inplace`, `--include inplace`. */
function awkInPlace(args: readonly string[]): boolean {
  const loads = (lib: string | undefined) => lib !== undefined && /^inplace(?:\.awk)?$/.test(lib);
  return args.some((a, i) =>
    a === "-i" || a === "--include" ? loads(args[i + 1]) : a.startsWith("--include=") ? loads(a.slice(10)) : a.startsWith("-i") && loads(a.slice(2)),
  );
}

function inPlaceRule(verb: string | undefined, words: readonly Word[], scope: RuleScope): ShellRefusal | undefined {
  const args = values(words.slice(1));
  const hit =
    verb === "sed" || verb === "gsed"
      ? sedInPlace(args)
      : verb === "perl" || verb === "ruby"
        ? scriptInPlace(args)
        : verb === "awk" || verb === "gawk"
          ? awkInPlace(args)
          : false;
  if (!hit) return undefined;
  const files = inPlaceTargets(args);
  if (files.length > 0 && files.every(scope.outside)) return undefined;
  const tool = EDIT_TOOLS.find((t) => scope.active.has(t));
  if (!tool) return undefined;
  const how = verb === "awk" || verb === "gawk" ? `${verb} -i inplace` : `${verb} -i`;
  return refusal("in_place_edit", `in-place edit with ${how}`, tool, EDIT_WHY[tool]);
}

/**
 * The files an in-place edit changes: its arguments after the program text
 * (the first plain argument, unless `-e`/`-f` gave the program).
 */
function inPlaceTargets(args: readonly string[]): string[] {
  const plain: string[] = [];
  let programGiven = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "-e" || a === "-f" || a === "--expression" || a === "--file") {
      programGiven = true;
      i++;
    } else if (/^-[A-Za-z]*[ef]$/.test(a) && !a.startsWith("--")) {
      programGiven = true;
      i++;
    } else if (a.startsWith("--expression=") || a.startsWith("--file=")) programGiven = true;
    else if (!a.startsWith("-")) plain.push(a);
  }
  return programGiven ? plain : plain.slice(1);
}

/** `cat > f`, `cat >> f`, `cat <<EOF > f`: cat authoring a file from inline or no input. */
function catWriteRule(verb: string | undefined, words: readonly Word[], f: Fragment, scope: RuleScope): ShellRefusal | undefined {
  if (verb !== "cat" || !scope.active.has("write")) return undefined;
  const readsFiles = words.slice(1).some((w) => !w.value.startsWith("-"));
  if (readsFiles) return undefined; // concatenating or copying files is not authoring
  const input = stdinRedirect(f.cmd);
  const authored = input ? inlineInput(f.cmd) !== undefined : f.index === 0;
  if (!authored) return undefined;
  const file = f.cmd.redirects.map(writtenFile).find((x) => x !== undefined && !scope.outside(x));
  if (file === undefined) return undefined;
  return refusal("cat_write", `writing ${file} with cat`, "write", WRITE_WHY);
}

/**
 * `tee` saving a command's output to a log is fine; tee writing a code-like
 * file, or any file from text typed inline, is authoring and belongs to write.
 */
function teeRule(verb: string | undefined, words: readonly Word[], f: Fragment, scope: RuleScope): ShellRefusal | undefined {
  if (verb !== "tee" || !scope.active.has("write")) return undefined;
  const files: string[] = [];
  let options = true;
  for (const w of words.slice(1)) {
    if (options && w.value === "--") options = false;
    else if (options && w.value.startsWith("-") && w.value !== "-") continue;
    else if (!isDevice(w.value) && !scope.outside(w.value)) files.push(w.value);
  }
  const file = files.find(isCodeLikePath) ?? (inlineStdin(f) !== undefined ? files[0] : undefined);
  if (file === undefined) return undefined;
  return refusal("tee_write", `writing ${file} with tee`, "write", WRITE_WHY);
}

function redirectRule(cmd: SimpleCommand, scope: RuleScope): ShellRefusal | undefined {
  if (!scope.active.has("write")) return undefined;
  const file = cmd.redirects.map(writtenFile).find((x) => x !== undefined && isCodeLikePath(x) && !scope.outside(x));
  if (file === undefined) return undefined;
  return refusal("redirect_code_file", `writing ${file} with a shell redirect`, "write", WRITE_WHY);
}

/** Commands whose only output is the text written in the command itself. */
const AUTHORS = new Set(["echo", "printf"]);

/**
 * `echo value > out.txt`, `printf ... >> notes.md`, a bare `> file`: the text
 * typed into the command becomes the file, whatever its name. A program's
 * output saved to a file (`make > build.log`) is not authoring, nor is a
 * value only the running shell knows (`echo $! > pid`).
 */
function authoredRedirectRule(verb: string | undefined, cmd: SimpleCommand, scope: RuleScope): ShellRefusal | undefined {
  if (!scope.active.has("write") || cmd.group !== undefined) return undefined;
  if (verb !== undefined && !AUTHORS.has(verb)) return undefined;
  // `echo $! > pid` records a value known only at run time: nothing is authored.
  const text = cmd.words.slice(1).filter((w) => !w.value.startsWith("-"));
  if (verb !== undefined && text.length > 0 && text.every((w) => w.dynamic)) return undefined;
  // A target only known at run time may be a device (`> "$LOG"` with LOG=/dev/null).
  const file = cmd.redirects
    .filter((r) => !r.target.dynamic)
    .map(writtenFile)
    .find((x) => x !== undefined && !scope.outside(x));
  if (file === undefined) return undefined;
  return refusal("redirect_write", `writing ${file} with a shell redirect`, "write", WRITE_WHY);
}
