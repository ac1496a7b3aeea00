// Characters that carry no content of their own and that models leak into
// the text they send: zero-width spaces and joiners, the word joiner, soft
// hyphens and byte-order marks inside the text, variation selectors left
// behind when an emoji's base was dropped, and combining marks with no letter
// to sit on (a tokenizer artifact: "## ̄3.2.1"). A file never holds them where
// the model put them, so they defeat matching; written into a file they plant
// invisible bytes. Matching folds them out; text to be written loses them,
// and the result says how many were cleaned.

const ZERO_WIDTH = new Set(["\u200b", "\u200c", "\u200d", "\u2060", "\u00ad", "\ufeff"]);
const KEYCAP = "\u20e3";
const PICTOGRAPH = /\p{Extended_Pictographic}/u;
/** A symbol a variation selector may follow: an emoji, or a non-ASCII symbol (⚠, ©, ←). */
const SELECTABLE = /[\p{Extended_Pictographic}\p{So}\p{Sm}]/u;
/** Emoji skin-tone modifiers, which sit between an emoji and a joiner. */
const isModifier = (c: string): boolean => c >= "\u{1f3fb}" && c <= "\u{1f3ff}";
const MARK = /\p{M}/u;
const LETTER = /\p{L}/u;

const isSelector = (c: string): boolean => c >= "\ufe00" && c <= "\ufe0f";

/** Folded out of comparisons wherever they are: zero-width runes and variation selectors. */
export function isIgnorable(c: string): boolean {
  return ZERO_WIDTH.has(c) || isSelector(c);
}

/** A combining mark that is part of the emoji machinery (selectors, the keycap), not a diacritic. */
const isEmojiMark = (c: string): boolean => isSelector(c) || c === KEYCAP;

/**
 * Whether the combining mark at `i` has no letter to combine with: it starts
 * the text, or the character under it (skipping ignorables and earlier marks,
 * so stacked diacritics stay) is not a letter.
 */
export function isOrphanMark(units: readonly string[], i: number): boolean {
  return markBase(units, i, (base) => !LETTER.test(base));
}

/**
 * Whether the combining mark at `i` sits on nothing visible: it starts the
 * text or follows a space. Text to be written keeps a mark on any visible
 * character (an overline on a digit is content); only these are dropped.
 */
function isFloatingMark(units: readonly string[], i: number): boolean {
  return markBase(units, i, (base) => /\s/.test(base));
}

/** For a combining mark at `i`: whether its base (skipping ignorables and earlier marks) is absent or one `orphanOn` accepts. */
function markBase(units: readonly string[], i: number, orphanOn: (base: string) => boolean): boolean {
  const c = units[i]!;
  if (!MARK.test(c) || isEmojiMark(c)) return false;
  for (let j = i - 1; j >= 0; j--) {
    const prev = units[j]!;
    if (isIgnorable(prev) || MARK.test(prev)) continue;
    return orphanOn(prev);
  }
  return true;
}

/**
 * A selector that follows no emoji or non-ASCII symbol (nor a keycap base:
 * a digit, `#` or `*` with the keycap after it) has nothing to select.
 */
function isOrphanSelector(units: readonly string[], i: number): boolean {
  if (!isSelector(units[i]!)) return false;
  let j = i - 1;
  while (j >= 0 && isSelector(units[j]!)) j--;
  const prev = units[j];
  if (prev !== undefined && prev > "\x7f" && SELECTABLE.test(prev) && j === i - 1) return false;
  return !(prev !== undefined && j === i - 1 && /[0-9#*]/.test(prev) && units[i + 1] === KEYCAP);
}

/**
 * A zero-width joiner between two pictographs (after the first one's
 * selector or skin tone) builds one emoji and stays, and a byte-order mark
 * that opens the text is its encoding; any other zero-width rune is loose.
 */
function isLooseZeroWidth(units: readonly string[], i: number): boolean {
  const c = units[i]!;
  if (!ZERO_WIDTH.has(c)) return false;
  if (c === "\ufeff") return i > 0;
  if (c !== "\u200d") return true;
  let j = i - 1;
  while (j >= 0 && (isSelector(units[j]!) || isModifier(units[j]!) || (ZERO_WIDTH.has(units[j]!) && units[j] !== "\u200d"))) j--;
  const next = units[i + 1];
  return !(j >= 0 && PICTOGRAPH.test(units[j]!) && next !== undefined && PICTOGRAPH.test(next));
}

export interface Cleaned {
  text: string;
  /** The characters taken out, in order. */
  removed: string[];
}

function strip(text: string, drop: (units: readonly string[], i: number) => boolean): Cleaned {
  const units = [...text];
  const removed: string[] = [];
  const kept = units.filter((c, i) => (drop(units, i) ? (removed.push(c), false) : true));
  return { text: kept.join(""), removed };
}

/**
 * What a model's old text loses before matching: orphaned variation
 * selectors and loose zero-width runes. Next to a space they would otherwise
 * keep it significant on the model's side while the file's clean text folds
 * it (`return \u200b0` against `return 0`).
 */
export function stripForMatching(text: string): Cleaned {
  return strip(text, (units, i) => isOrphanSelector(units, i) || isLooseZeroWidth(units, i));
}

/** Every content-free character removed (what text to be written loses). */
export function stripInvisible(text: string): Cleaned {
  return strip(text, (units, i) => isOrphanSelector(units, i) || isLooseZeroWidth(units, i) || isFloatingMark(units, i));
}

const codePoint = (c: string): string => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;

/**
 * Characters by code point and count, in code-point order so the same
 * leak always reads the same: `U+200B×2, U+FE0F×1 (invisible formatting
 * characters that carry no content; do not include them in tool arguments)`.
 */
export function describeInvisible(removed: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const c of removed) counts.set(c, (counts.get(c) ?? 0) + 1);
  const which = [...counts]
    .sort(([a], [b]) => a.codePointAt(0)! - b.codePointAt(0)!)
    .map(([c, n]) => `${codePoint(c)}×${n}`)
    .join(", ");
  return `${which} (invisible formatting characters that carry no content; do not include them in tool arguments)`;
}

/** The note a result carries when characters were cleaned from the model's arguments. */
export function cleanedNote(removed: readonly string[]): string {
  if (removed.length === 0) return "";
  return `, cleaned ${removed.length} invisible character(s) from your arguments: ${describeInvisible(removed)}`;
}

/** The same report as a line of its own, naming what was cleaned (`the patch text`, `your content`); empty when nothing was. */
export function cleanedLine(removed: readonly string[], from: string): string {
  if (removed.length === 0) return "";
  return `Note: cleaned ${removed.length} invisible character(s) from ${from}: ${describeInvisible(removed)}`;
}

/** A control character text tools do not write (tab, line breaks, vertical tab and form feed are text). */
const CONTROL = /[\u0000-\u0008\u000e-\u001f\u007f]/u;

/**
 * Why text to be written is refused for a control character (NUL, BEL,
 * ESC …), or undefined: the file tools write text, and such bytes belong in
 * a command that writes them on purpose. `allowed` holds text whose control
 * characters may stay (the old text an edit replaces).
 */
export function controlCharRefusal(what: string, text: string, allowed = ""): string | undefined {
  const units = [...text];
  const at = units.findIndex((c) => CONTROL.test(c) && !allowed.includes(c));
  if (at < 0) return undefined;
  const line = units.slice(0, at).filter((c) => c === "\n").length + 1;
  return (
    `${what} contains control character ${codePoint(units[at]!)} at line ${line}; the file tools write text only: ` +
    "write such bytes with a shell command (printf, or a script) instead"
  );
}
