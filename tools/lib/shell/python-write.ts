// The python_write refusal: inline python (`python -c ...`, a python
// here-doc) that opens a file for writing or calls write_text/write_bytes.

import type { Word } from "../../../core/shell/index.js";
import { inlineStdin, refusal, WRITE_WHY, type Fragment, type ShellRefusal } from "./common.js";

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

export function pythonRule(verb: string | undefined, words: readonly Word[], f: Fragment, active: ReadonlySet<string>): ShellRefusal | undefined {
  if (verb === undefined || !/^python(?:\d+(?:\.\d+)?)?$/.test(verb) || !active.has("write")) return undefined;
  const inline = pythonCode(words, f);
  if (!inline || !pythonWritesFile(inline.code)) return undefined;
  return refusal("python_write", `writing a file from ${inline.how}`, "write", WRITE_WHY);
}
