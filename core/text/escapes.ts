// Escape sequences that are removed rather than shown: the formatting a
// program meant for a terminal (what the model reads of it, the jobs panel's
// live tail), and what a renderer of our own emits beyond colour. Also the
// JSON yuj prints, kept terminal-safe without changing what it parses to.

import stripAnsi from "strip-ansi";
import { safeOutput, safeText } from "./safe.js";

/** Terminal formatting (colour, cursor moves, titles, hyperlinks) removed. */
export function stripEscapes(text: string): string {
  return stripAnsi(text);
}

/**
 * What the model reads of a program's terminal output: escape sequences
 * gone, \r\n a line end, a line redrawn with \r at its last state, and
 * every other control character (NUL, backspace, BEL, C1) shown as a
 * visible picture (␀, ␈) rather than dropped, so the model knows it is there.
 */
export function modelText(raw: string): string {
  return safeOutput(stripAnsi(raw));
}

const ANY_ESCAPE = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-Z\\-_]?/g;
const SGR = /^\x1b\[[0-9;]*m$/;

/**
 * The output of a renderer of ours (Markdown) over text that was made safe
 * first: colour codes kept, any other sequence it emitted (a hyperlink)
 * dropped, and whatever else it produced (an entity it decoded, `&#x202e;`)
 * shown by safeText's rules.
 */
export function keepSgrOnly(rendered: string): string {
  let out = "";
  let last = 0;
  for (const m of rendered.matchAll(ANY_ESCAPE)) {
    out += safeText(rendered.slice(last, m.index));
    if (SGR.test(m[0])) out += m[0];
    last = m.index + m[0].length;
  }
  return out + safeText(rendered.slice(last));
}

/** The same output without colour: every sequence dropped, the rest made safe. */
export function withoutEscapes(rendered: string): string {
  return safeText(stripAnsi(rendered));
}

// JSON.stringify escapes C0 controls but writes DEL, C1, the bidirectional and
// the invisible format characters as they are. Inside JSON they can only sit
// in strings, where \uXXXX is the same value: escaped, the document parses to
// exactly the same data and cannot act on a terminal it is printed to.
const JSON_UNSAFE = /[\x7f-\x9f\p{Cf}\p{Zl}\p{Zp}\u115f\u1160\u3164\uffa0\u{e0100}-\u{e01ef}]/gu;

/** Serialized JSON with the characters a terminal would act on or hide written as \u escapes. */
export function jsonForTerminal(json: string): string {
  return json.replace(JSON_UNSAFE, (ch) => {
    let out = "";
    for (let i = 0; i < ch.length; i++) out += `\\u${ch.charCodeAt(i).toString(16).padStart(4, "0")}`;
    return out;
  });
}
