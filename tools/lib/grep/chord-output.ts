// How Chord grep words its matches: `path:line:text` for a match, `| path-
// line-text` for a context line, within a match cap and a byte budget.
// Context counts against the bytes only, and room stays reserved for the
// matches still to come (at most half the budget), so context never crowds
// them out; once context no longer fits, later matches are listed bare.

import type { GrepLine } from "./json.js";

export const GREP_MAX_MATCHES = 120;
const GREP_MAX_BYTES = 12 * 1024;
const CONTEXT_LINE_MAX_BYTES = 256;

export const CONTEXT_OMITTED_FOOTER =
  "\n\n(surrounding lines omitted for later matches to stay within 12 KiB; lower context_lines or narrow paths/includes/pattern to see them)";
const capFooter = (n: number) =>
  `\n\n(showing first ${n} matches within 12 KiB; narrow paths/includes/pattern for more precise results)`;

/** Quoted (JSON string) when a reader could not tell where the path ends. */
function quotePath(p: string): string {
  return /[\s:"\\|]|[\u0000-\u001f]|-\d+-/.test(p) || p.startsWith("|") ? JSON.stringify(p) : p;
}

function shorten(text: string): string {
  const buf = Buffer.from(text, "utf8");
  if (buf.length <= CONTEXT_LINE_MAX_BYTES) return text;
  let end = CONTEXT_LINE_MAX_BYTES;
  while (end > 0 && (buf[end]! & 0xc0) === 0x80) end--;
  return `${buf.subarray(0, end).toString("utf8")}...`;
}

/** `text` cut to at most `max` UTF-8 bytes on a character boundary, ending in `...`. */
function cutWithMarker(text: string, max: number): string {
  const buf = Buffer.from(text, "utf8");
  let end = max - 3;
  while (end > 0 && (buf[end]! & 0xc0) === 0x80) end--;
  return `${buf.subarray(0, end).toString("utf8")}...`;
}

const bytesOf = (s: string): number => Buffer.byteLength(s, "utf8") + 1;

/** For each line, the bytes of the matches after it that can still be shown. */
function reservations(lines: readonly GrepLine[]): number[] {
  const reserveAfter = new Array<number>(lines.length + 1).fill(0);
  let matches = lines.filter((l) => l.match).length;
  for (let i = lines.length - 1; i >= 0; i--) {
    const l = lines[i]!;
    const counted = l.match && matches-- <= GREP_MAX_MATCHES;
    reserveAfter[i] = reserveAfter[i + 1]! + (counted ? bytesOf(`${quotePath(l.file)}:${l.n}:${l.text}`) : 0);
  }
  return reserveAfter;
}

export interface ShownMatches {
  /** The body and its footers. */
  text: string;
  /** The matches shown. */
  shown: GrepLine[];
  /** Whether matches were left out (the cap or the budget). */
  capped: boolean;
}

/** Index after the run of context lines from `start` that leads, line after line in one file, to a match. */
function leadingRunEnd(lines: readonly GrepLine[], start: number): number {
  let end = start;
  while (end < lines.length && !lines[end]!.match && lines[end]!.file === lines[start]!.file) end++;
  return end;
}

function leadingBytes(lines: readonly GrepLine[], from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) n += bytesOf(`| ${quotePath(lines[i]!.file)}-${lines[i]!.n}-${shorten(lines[i]!.text)}`);
  return n;
}

/** The lines (with `context` > 0, context lines too) within the cap and the budget. */
export function budgetedMatches(lines: readonly GrepLine[], context: number): ShownMatches {
  const reserveAfter = reservations(lines);
  const reserve = (i: number) => Math.min(reserveAfter[i + 1]!, GREP_MAX_BYTES / 2);
  const out: string[] = [];
  const shown: GrepLine[] = [];
  let bytes = 0;
  let capped = false;
  let withContext = context > 0;
  let contextOmitted = false;
  let lastMatch: GrepLine | undefined;
  for (const [i, l] of lines.entries()) {
    const file = quotePath(l.file);
    if (l.match) {
      lastMatch = l;
      const text = `${file}:${l.n}:${l.text}`;
      if (shown.length === GREP_MAX_MATCHES || bytes + bytesOf(text) > GREP_MAX_BYTES) {
        // A first match that alone is over the budget still shows its prefix:
        // it tells the model more than an empty result.
        if (shown.length === 0) {
          out.push(cutWithMarker(text, GREP_MAX_BYTES - 1));
          shown.push(l);
        }
        capped = true;
        break;
      }
      out.push(text);
      shown.push(l);
      bytes += bytesOf(text);
      continue;
    }
    const text = `| ${file}-${l.n}-${shorten(l.text)}`;
    // Only the window in flight (the lines after a shown match) may end early:
    // the lines before the next match are shown whole or not at all.
    const trailing = lastMatch !== undefined && lastMatch.file === l.file && l.n > lastMatch.n && l.n - lastMatch.n <= context;
    if (withContext && !trailing) {
      const end = leadingRunEnd(lines, i);
      if (bytes + leadingBytes(lines, i, end) + reserve(end - 1) > GREP_MAX_BYTES) withContext = false;
    }
    if (withContext && bytes + bytesOf(text) + reserve(i) > GREP_MAX_BYTES) withContext = false;
    if (!withContext) {
      contextOmitted = true;
      continue;
    }
    out.push(text);
    bytes += bytesOf(text);
  }
  let text = out.join("\n");
  // The match footer first; the context note follows it on the next line.
  if (capped) text += capFooter(shown.length);
  if (contextOmitted) text += capped ? CONTEXT_OMITTED_FOOTER.replace(/^\n\n/, "\n") : CONTEXT_OMITTED_FOOTER;
  return { text, shown, capped };
}
