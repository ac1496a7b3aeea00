// Model prose as terminal lines: Markdown through marked + marked-terminal
// once a text is final, plain wrapped text while it still streams (parsing
// Markdown on every delta would cost O(n) per token and reflow the card as
// half-written syntax closes). Results are cached by (text, width, colour).
//
// marked-terminal pulls in highlight.js with every grammar: about 0.4 s to
// import, more than the TUI's whole first frame. So the engine is loaded on
// first use (or by loadMarkdown()); until it is there, prose renders as plain
// text and markdownGeneration() stays 0. When it arrives the generation moves
// on (card caches key on it) and onMarkdownReady listeners are called so the
// transcript can redraw.

import type { Marked as MarkedClass, MarkedExtension, Tokens } from "marked";
import { keepSgrOnly, stripEscapes, withoutEscapes } from "../../core/text/escapes.js";
import { screenText } from "../../core/text/safe.js";
import { wrapLine } from "../../core/text/wrap.js";
import { palette } from "./paint.js";

interface Engine {
  Marked: typeof MarkedClass;
  markedTerminal: (typeof import("marked-terminal"))["markedTerminal"];
  supportsLanguage: (name: string) => boolean;
}

let engine: Engine | undefined;
let loading: Promise<void> | undefined;
let generation = 0;
const listeners = new Set<() => void>();

/** Loads the Markdown engine once; later calls return the same promise. */
export function loadMarkdown(): Promise<void> {
  loading ??= Promise.all([import("marked"), import("marked-terminal"), import("cli-highlight")]).then(
    ([marked, terminal, highlight]) => {
      // cli-highlight is CommonJS: Node gives it named exports, an esbuild
      // bundle only a default. Without it, code blocks are left unhighlighted.
      type Supports = (name: string) => boolean;
      const hl = highlight as { supportsLanguage?: Supports; default?: { supportsLanguage?: Supports } };
      engine = {
        Marked: marked.Marked,
        markedTerminal: terminal.markedTerminal,
        supportsLanguage: hl.supportsLanguage ?? hl.default?.supportsLanguage ?? (() => false),
      };
      generation++;
      for (const l of [...listeners]) l();
    },
    // Without the engine, prose stays plain text: still readable, never fatal.
    () => undefined,
  );
  return loading;
}

/** 0 until the engine is loaded, then 1: part of every rendered-card key. */
export function markdownGeneration(): number {
  return generation;
}

/** Called once when Markdown starts rendering; returns an unsubscribe. */
export function onMarkdownReady(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const CODE_INDENT = "  ";
const instances = new Map<string, MarkedClass>();

/** One Marked per (width, colour): the extension bakes both in. */
function markedFor(e: Engine, width: number, color: boolean): MarkedClass {
  const key = `${width}:${color}`;
  let m = instances.get(key);
  if (m) return m;
  const p = palette(color);
  const same = (s: string) => s;
  // Our own style functions rather than marked-terminal's chalk defaults, so
  // colour follows opts.color and not whether this process has a TTY.
  const terminal = e.markedTerminal({
    code: p.yellow,
    blockquote: (s: string) => p.gray(p.italic(s)),
    html: p.gray,
    heading: (s: string) => p.green(p.bold(s)),
    firstHeading: (s: string) => p.magenta(p.bold(s)),
    // Its own rule is as wide as the process's terminal, not the card.
    hr: () => p.gray("─".repeat(Math.max(1, width))),
    listitem: same,
    table: same,
    paragraph: same,
    strong: p.bold,
    em: p.italic,
    codespan: p.yellow,
    del: (s: string) => p.dim(p.strike(s)),
    link: p.blue,
    href: (s: string) => p.blue(p.underline(s)),
    // We wrap ourselves (display width, hanging indents for list items);
    // marked-terminal's reflow counts UTF-16 units and loses list indents.
    reflowText: false,
    width,
    tab: CODE_INDENT.length,
    emoji: false,
    tableOptions: { style: color ? { head: ["bold"], border: ["gray"] } : { head: [], border: [] } },
  }, { ignoreIllegals: true });
  const overrides: MarkedExtension = {
    renderer: {
      // Written out as "text (url)": an OSC 8 hyperlink (which marked-terminal
      // emits when it thinks stdout supports them) is stripped below as a
      // non-colour escape and would lose the address.
      link(token: Tokens.Link) {
        const text = this.parser.parseInline(token.tokens);
        const href = p.blue(p.underline(token.href));
        return stripEscapes(text) === token.href ? href : `${text} (${href})`;
      },
      // A list item's text comes as a text token holding inline tokens;
      // marked-terminal prints its raw source, so `**bold**` and `code`
      // kept their markers inside lists. Rendered inline here.
      text(token: Tokens.Text | Tokens.Escape) {
        if ("tokens" in token && token.tokens?.length) return this.parser.parseInline(token.tokens);
        return false;
      },
      // Highlight only a named, known language (return false hands the block
      // to marked-terminal). Auto-detection tries every grammar (100+ ms for a
      // short block) and an unknown name makes highlight.js print a warning
      // to the console, i.e. across the TUI.
      code(token: Tokens.Code) {
        // marked-terminal passes the whole info string ("ts title=x") on.
        const lang = (token.lang ?? "").trim();
        if (color && lang !== "" && !/\s/.test(lang) && e.supportsLanguage(lang)) return false;
        return `${CODE_INDENT}${token.text.split("\n").join(`\n${CODE_INDENT}`)}\n\n`;
      },
    },
  };
  m = new e.Marked(terminal, overrides);
  instances.set(key, m);
  return m;
}

const CACHE_MAX = 256;
const cache = new Map<string, string[]>();

/** Final prose rendered as Markdown, every line at most `width` columns. */
export function renderMarkdown(text: string, width: number, color: boolean): string[] {
  const w = Math.max(1, width);
  if (!engine) {
    void loadMarkdown();
    return plainLines(text, w);
  }
  const key = `${color ? 1 : 0}:${w}\n${text}`;
  const hit = cache.get(key);
  if (hit) {
    // Refresh its place: the cache drops the least recently used first.
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const lines = markdownLines(engine, text, w, color);
  cache.set(key, lines);
  if (cache.size > CACHE_MAX) cache.delete(cache.keys().next().value as string);
  return lines;
}

function markdownLines(e: Engine, text: string, width: number, color: boolean): string[] {
  let out: string;
  try {
    // Controls are made visible before parsing, so the only escapes in the
    // output are the ones the renderer added; those are filtered to SGR, and
    // what it decoded from an entity (`&#x202e;`) is made safe again.
    out = markedFor(e, width, color).parse(screenText(text), { async: false });
  } catch {
    return plainLines(text, width);
  }
  out = color ? keepSgrOnly(out) : withoutEscapes(out);
  const lines: string[] = [];
  let blank = 0;
  for (const raw of out.split("\n")) {
    const line = raw.trimEnd();
    if (stripEscapes(line) === "") {
      blank++;
      continue;
    }
    // One blank line between blocks however many the renderer left.
    if (blank > 0 && lines.length > 0) lines.push("");
    blank = 0;
    for (const row of wrapLine(line, width)) lines.push(row);
  }
  return lines;
}

/** Plain text, terminal-safe and wrapped: no Markdown. */
export function plainLines(text: string, width: number): string[] {
  const body = screenText(text).trimEnd();
  if (body === "") return [];
  const out: string[] = [];
  for (const line of body.split("\n")) for (const row of wrapLine(line, Math.max(1, width))) out.push(row);
  return out;
}

// A streaming text only grows, so the wrapped rows of its complete lines are
// kept and only the unfinished last line is wrapped again on each delta. The
// memo is keyed by card: the reducer only ever appends to a streaming card's
// text, so a matching key, width and tail sample mean the head is unchanged
// (comparing the whole head would flatten and scan the text on every delta).
let streamMemo: { key: string | number; width: number; head: string; rows: string[] } | undefined;
const SAMPLE = 64;

/** Streaming prose (`key` names the card): plain wrapped text, incrementally. */
export function renderStreaming(text: string, width: number, key: string | number = ""): string[] {
  const w = Math.max(1, width);
  const cut = text.lastIndexOf("\n") + 1;
  let rows: string[];
  const m = streamMemo;
  const n = m?.head.length ?? 0;
  const same =
    m !== undefined &&
    m.key === key &&
    m.width === w &&
    cut >= n &&
    text.slice(Math.max(0, n - SAMPLE), n) === m.head.slice(-SAMPLE);
  if (same) {
    rows = cut === n ? m.rows : m.rows.concat(rawRows(text.slice(n, cut), w));
  } else {
    rows = rawRows(text.slice(0, cut), w);
  }
  streamMemo = { key, width: w, head: cut === n && same ? m.head : text.slice(0, cut), rows };
  const all = rows.concat(rawRows(text.slice(cut).trimEnd(), w));
  // Trailing blank rows would make the card jump as the next words arrive.
  let end = all.length;
  while (end > 0 && all[end - 1] === "") end--;
  let start = 0;
  while (start < end && all[start] === "") start++;
  return start === 0 && end === all.length ? all : all.slice(start, end);
}

/** Rows of complete lines ("a\nb\n") or of one partial line ("c"). */
function rawRows(chunk: string, width: number): string[] {
  if (chunk === "") return [];
  const lines = screenText(chunk.endsWith("\n") ? chunk.slice(0, -1) : chunk).split("\n");
  const out: string[] = [];
  for (const line of lines) for (const row of wrapLine(line, width)) out.push(row);
  return out;
}
