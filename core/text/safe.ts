// The one set of rules for showing text yuj did not write itself (the model's
// words, tool arguments and results, command output, file names, config
// values, stored sessions) on a terminal. Every renderer, the TUI's and the
// plain-text ones, passes such text through here first, so nothing in it can
// act on the terminal (move the cursor, clear the screen, retitle the window,
// ring the bell) or hide or reorder what the reader sees:
//
// - C0 controls but \n and \t show as their Unicode control pictures
//   (ESC → ␛, BEL → ␇, NUL → ␀, backspace → ␈, a lone CR → ␍), DEL as ␡. An
//   escape sequence thus reads as text (`␛]0;title␇`) and does nothing.
// - \r\n is a line end. A lone \r is shown, because a terminal would let the
//   text after it overwrite the text before it; only program output (see
//   safeOutput) keeps a redrawn line's last state, as a terminal shows it.
// - C1 controls (0x80–0x9f: 0x9b starts a sequence on some terminals), the
//   bidirectional controls (they reorder what is read: "Trojan source"), the
//   zero-width and other format characters (they make two different strings
//   look alike), line/paragraph separators, blank fillers and the invisible
//   tag and variation-selector planes show as ⟨U+XXXX⟩.
// - Two uses of invisible characters are ordinary and kept: a zero-width
//   joiner between two emoji (👨‍👩‍👧) and the tag characters of a flag (🏴 of
//   England, Scotland, Wales).

import { expandTabs } from "./width.js";
import { keepLastRedraws } from "./output-lines.js";

/** Characters the rules above make visible: the controls (but \n and \t), format characters, separators, fillers. */
const HIDDEN_CLASS = "[\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f\\p{Cf}\\p{Zl}\\p{Zp}\\u115f\\u1160\\u3164\\uffa0\\u{e0100}-\\u{e01ef}]";
const HIDDEN = new RegExp(HIDDEN_CLASS, "gu");
const NEEDS_WORK = new RegExp(HIDDEN_CLASS, "u");
const NOT_PLAIN = /[^\x20-\x7e\n\t]/;

const ZWJ = 0x200d;
const BLACK_FLAG = 0x1f3f4;
const isTag = (cp: number) => cp >= 0xe0020 && cp <= 0xe007f;
const PICTOGRAPH = /^\p{Extended_Pictographic}$/u;
// An emoji's skin tone or presentation selector may sit between it and a joiner.
const isModifier = (cp: number) => cp === 0xfe0f || (cp >= 0x1f3fb && cp <= 0x1f3ff);

/** How one hidden character is shown: a control picture, or ⟨U+XXXX⟩. */
function shownAs(ch: string): string {
  const cp = ch.codePointAt(0)!;
  if (cp < 0x20) return String.fromCharCode(0x2400 + cp);
  if (cp === 0x7f) return "\u2421";
  return `⟨U+${cp.toString(16).toUpperCase().padStart(4, "0")}⟩`;
}

/**
 * Untrusted text made safe to print: every character the rules above name
 * is shown instead of sent; \n and \t stay (expandTabs for laid-out text).
 * Text that needs nothing comes back as the same string.
 */
export function safeText(text: string): string {
  // Printable ASCII is the common case, and a plain class scans it several times faster.
  if (!NOT_PLAIN.test(text) || !NEEDS_WORK.test(text)) return text;
  const s = text.includes("\r\n") ? text.replace(/\r\n/g, "\n") : text;
  return s.replace(HIDDEN, (ch: string, at: number) => (ordinaryInvisible(s, at, ch) ? ch : shownAs(ch)));
}

/**
 * Output a program wrote for a terminal: a line it redrew with \r (a
 * progress bar) keeps the last state a terminal would have left, then the
 * rules of safeText apply.
 */
export function safeOutput(text: string): string {
  return safeText(keepLastRedraws(text));
}

/** The ordinary invisible characters: a joiner inside an emoji sequence, a flag's tags. */
function ordinaryInvisible(s: string, at: number, ch: string): boolean {
  const cp = ch.codePointAt(0)!;
  if (cp === ZWJ) return pictographBefore(s, at) && PICTOGRAPH.test(codePointAt(s, at + 1));
  if (isTag(cp)) return inFlag(s, at);
  return false;
}

function codePointAt(s: string, i: number): string {
  const cp = s.codePointAt(i);
  return cp === undefined ? "" : String.fromCodePoint(cp);
}

/** The code point that ends just before index `end`, and where it starts. */
function before(s: string, end: number): { ch: string; at: number } | undefined {
  if (end <= 0) return undefined;
  const low = s.charCodeAt(end - 1);
  const at = low >= 0xdc00 && low <= 0xdfff && end >= 2 ? end - 2 : end - 1;
  return { ch: codePointAt(s, at), at };
}

function pictographBefore(s: string, at: number): boolean {
  let prev = before(s, at);
  for (let skips = 0; prev && isModifier(prev.ch.codePointAt(0)!) && skips < 2; skips++) prev = before(s, prev.at);
  return prev !== undefined && PICTOGRAPH.test(prev.ch);
}

/** A tag character inside 🏴 + tags + cancel tag (U+E007F), the form of a subdivision flag. */
function inFlag(s: string, at: number): boolean {
  let start = at;
  for (let prev = before(s, start); prev && isTag(prev.ch.codePointAt(0)!); prev = before(s, start)) start = prev.at;
  const base = before(s, start);
  if (!base || base.ch.codePointAt(0) !== BLACK_FLAG) return false;
  for (let i = at; i < s.length; ) {
    const cp = s.codePointAt(i)!;
    if (cp === 0xe007f) return true;
    if (!isTag(cp)) return false;
    i += 2;
  }
  return false;
}

/** One line for a header, label or table cell: newlines shown as ↵, tabs as a space. */
export function oneLine(text: string): string {
  return safeText(text).replace(/\t/g, " ").replace(/\n+/g, " ↵ ").trim();
}

/** Untrusted text for a laid-out screen (cards, panels): safeText with tabs expanded. */
export function screenText(text: string): string {
  return expandTabs(safeText(text));
}

/** Program output for a laid-out screen: safeOutput with tabs expanded. */
export function screenOutput(text: string): string {
  return expandTabs(safeOutput(text));
}

/**
 * Control characters but \n and \t removed, not shown: for text that is
 * data rather than display (what the model reads of a terminal, what the
 * composer keeps of typed input).
 */
export function dropControls(text: string): string {
  return text.replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/g, "");
}
