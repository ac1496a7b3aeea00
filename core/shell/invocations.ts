// Every program a command line runs, found statically: each simple command
// of every list, pipeline, group, loop and function body; inside command
// and process substitutions; behind wrappers (`sudo`, `env`, `timeout`,
// `xargs`, `find -exec`, …); inside the scripts given to shells. Each is
// named as bash would look it up (`/bin/rm`, `\rm`, `"rm"`, `r''m` are all
// `rm`). What the text cannot tell — `eval`, a program named by `$x` or
// `$(…)`, commands piped into a shell, an alias, a trap, inline code of an
// interpreter — is reported as unresolved, with the reason.

import { interpreterCode, isShell, shellCode, type CodeStep, type Feed } from "./inline-code.js";
import { parseShell } from "./parser.js";
import type { SimpleCommand, Word } from "./types.js";
import { HOLE, programName, wordTemplate, type Part } from "./word-template.js";
import { afterEnv, afterWrapper, WRAPPERS } from "./wrappers.js";
import { findCommands, parallelCommand, sessionScript, xargsCommand, type Placeholder } from "./runners.js";

export interface Invocation {
  /** The words as written, joined by spaces. */
  shown: string;
  /** The program as bash looks it up, when the text tells. */
  program?: string;
  /** The words from the program on. */
  words: readonly Word[];
  /** The program and its arguments as they may run: literal text and holes. */
  template: Part[];
  /** Arguments are appended at run time (`xargs rm`): the template may go on. */
  openEnded: boolean;
  /** Why what runs here cannot be known from the text; `code` for an interpreter's inline code. */
  unresolved?: { reason: string; code: boolean };
}

/** Deeper than this (substitutions in `bash -c` in substitutions…) is unresolved. */
const MAX_DEPTH = 8;
/** Wrapper chains longer than this are unresolved. */
const MAX_HOPS = 16;

interface Layer {
  /** Arguments appended at run time. */
  openEnded: boolean;
  /** Text filled in at run time (`{}` of find -exec, xargs -I). */
  placeholder?: Placeholder;
}

const PLAIN: Layer = { openEnded: false };
const NO_FEED: Feed = { piped: false, redirects: [] };

/** The programs `cmd` runs, in source order. */
export function invocationsOf(cmd: string): Invocation[] {
  const out: Invocation[] = [];
  walkScript(cmd, 0, out, PLAIN);
  return out;
}

function unresolvedAt(shown: string, reason: string, code = false): Invocation {
  return { shown, words: [], template: [HOLE], openEnded: true, unresolved: { reason, code } };
}

function walkScript(src: string, depth: number, out: Invocation[], layer: Layer): void {
  if (depth > MAX_DEPTH) {
    out.push(unresolvedAt(src, "nested too deeply to judge"));
    return;
  }
  const p = parseShell(src);
  for (const item of p.items) {
    item.pipeline.stages.forEach((stage, k) => walkCommand(stage, { piped: k > 0, redirects: stage.redirects }, depth, out, layer));
  }
  // bash runs the lines before a syntax error, so those are judged too; the rest cannot be.
  if (!p.parseable) out.push(unresolvedAt(src, `it does not parse (${p.error})`));
  for (const sub of p.substitutions) walkScript(sub, depth + 1, out, layer);
}

function walkCommand(c: SimpleCommand, feed: Feed, depth: number, out: Invocation[], layer: Layer): void {
  if (c.words.length) walkWords(c.words, feed, depth, out, layer);
}

function walkWords(start: readonly Word[], feed: Feed, depth: number, out: Invocation[], first: Layer): void {
  let words = start;
  let layer = first;
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    const inv = invocation(words, layer);
    out.push(inv);
    if (inv.unresolved) return;
    // A wrapper's input is its command's input (`… | sudo sh`).
    const next = step(inv.program!, words, feed, depth, out, layer);
    if (!next) return;
    words = next.words;
    layer = next.layer;
  }
  out.push(unresolvedAt(words.map((w) => w.raw).join(" "), "too many wrappers to follow"));
}

function invocation(words: readonly Word[], layer: Layer): Invocation {
  const shown = words.map((w) => w.raw).join(" ");
  const ph = layer.placeholder;
  const fill = (w: Word): Part[] => (ph ? ph.fill(wordTemplate(w)) : wordTemplate(w));
  const filled = ph?.in(words[0]!) === true;
  const program = filled ? undefined : programName(words[0]!);
  const base = { shown, words, openEnded: layer.openEnded };
  if (program === undefined) {
    const why = filled ? "the program is filled in at run time" : `the program is computed at run time (${words[0]!.raw})`;
    return { ...base, template: [HOLE], unresolved: { reason: why, code: false } };
  }
  const template: Part[] = [program];
  for (const w of words.slice(1)) template.push(" ", ...fill(w));
  return { ...base, program, template };
}

interface Next {
  words: readonly Word[];
  layer: Layer;
}

/** What the program at `words[0]` runs next, walking scripts it is given; undefined when nothing more. */
function step(program: string, words: readonly Word[], feed: Feed, depth: number, out: Invocation[], layer: Layer): Next | undefined {
  const deeper = (text: string, inner: Layer = PLAIN) => walkScript(text, depth + 1, out, inner);
  const code = (s: CodeStep | undefined): undefined => {
    if (s?.kind === "script") {
      if (layer.placeholder?.inText(s.text)) out.push(unresolvedAt(words.map((w) => w.raw).join(" "), "the script is filled in at run time"));
      else deeper(s.text);
    } else if (s?.kind === "unresolved") out.push(unresolvedAt(words.map((w) => w.raw).join(" "), s.reason, s.code));
    return undefined;
  };
  const shown = () => words.map((w) => w.raw).join(" ");
  const spec = WRAPPERS.get(program);
  if (spec) {
    const at = afterWrapper(words, spec);
    return at === undefined ? undefined : { words: words.slice(at), layer };
  }
  switch (program) {
    case "env": {
      const e = afterEnv(words);
      if (!e) return undefined;
      if ("at" in e) return { words: words.slice(e.at), layer };
      if (e.split.dynamic) return code({ kind: "unresolved", reason: "env -S splits a string built at run time", code: false });
      return code({ kind: "script", text: [e.split.value, ...words.slice(e.rest).map((w) => w.raw)].join(" ") });
    }
    case "busybox":
    case "toybox":
      return words.length > 1 ? { words: words.slice(1), layer } : undefined;
    case "eval":
      out.push(unresolvedAt(shown(), "eval runs a string as a command"));
      return undefined;
    case "alias":
      if (words.slice(1).some((w) => w.value.includes("="))) out.push(unresolvedAt(shown(), "an alias can make any name run any command"));
      return undefined;
    case "trap": {
      const args = words.slice(1).filter((w) => w.value !== "--");
      if (args.length >= 2 && !/^-[lp]$/.test(args[0]!.value) && args[0]!.value !== "-" && args[0]!.value !== "") {
        out.push(unresolvedAt(shown(), "trap runs a string as a command later"));
      }
      return undefined;
    }
    case "hash":
    case "enable":
      if (words.some((w) => w.value === (program === "hash" ? "-p" : "-f"))) {
        out.push(unresolvedAt(shown(), `${program} ${program === "hash" ? "-p" : "-f"} changes what a name runs`));
      }
      return undefined;
    case "source":
    case ".": {
      const file = words.find((w, i) => i > 0 && w.value !== "--");
      if (file && (file.dynamic || /^\/(?:dev|proc)\//.test(file.value))) out.push(unresolvedAt(shown(), `${program} reads commands from ${file.raw}`));
      return undefined;
    }
    case "find": {
      const found = findCommands(words);
      for (const chunk of found.execs) walkWords(chunk.words, NO_FEED, depth, out, { openEnded: false, placeholder: chunk.placeholder });
      if (found.deletes) {
        // Deleting what it finds is `rm` on each match, whatever allows find itself.
        out.push({ shown: "rm {} (find -delete)", program: "rm", words, template: ["rm ", HOLE], openEnded: true });
      }
      return undefined;
    }
    case "xargs": {
      const x = xargsCommand(words);
      return x && { words: x.words, layer: { openEnded: !x.placeholder, ...(x.placeholder ? { placeholder: x.placeholder } : {}) } };
    }
    case "parallel": {
      const p = parallelCommand(words);
      if (p.kind === "unresolved") return code(p);
      deeper(p.text, { openEnded: !p.placeholder.inText(p.text), placeholder: p.placeholder });
      return undefined;
    }
    case "watch":
    case "su":
    case "runuser":
    case "script":
    case "flock": {
      const s = sessionScript(program, words);
      if (s.kind === "words") return { words: s.words, layer };
      return code(s);
    }
  }
  if (isShell(program)) return code(shellCode(program, words, feed));
  return code(interpreterCode(program, words, feed));
}
