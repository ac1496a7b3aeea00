// Characters that carry no content of their own and that models leak into
// the text they send: zero-width spaces and joiners, variation selectors left
// behind when an emoji's base was dropped, and combining marks with no letter
// to sit on (a tokenizer artifact: "## ̄3.2.1"). A file never holds them where
// the model put them, so they defeat matching; written into a file they plant
// invisible bytes. Matching folds them out; text to be written loses them,
// and the result says how many were cleaned.

const ZERO_WIDTH = new Set(["\u200b", "\u200c", "\u200d", "\u2060"]);
const KEYCAP = "\u20e3";
const PICTOGRAPH = /\p{Extended_Pictographic}/u;
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

/** A selector that follows no emoji (nor a keycap base) has nothing to select. */
function isOrphanSelector(units: readonly string[], i: number): boolean {
  if (!isSelector(units[i]!)) return false;
  const prev = units[i - 1];
  if (prev !== undefined && PICTOGRAPH.test(prev)) return false;
  return !(prev !== undefined && /[0-9#*]/.test(prev) && units[i + 1] === KEYCAP);
}

/** A zero-width joiner between two pictographs builds one emoji and stays; any other zero-width rune is loose. */
function isLooseZeroWidth(units: readonly string[], i: number): boolean {
  const c = units[i]!;
  if (!ZERO_WIDTH.has(c)) return false;
  if (c !== "\u200d") return true;
  let j = i - 1;
  while (j >= 0 && isSelector(units[j]!)) j--;
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
 * The note a result carries when characters were cleaned from the model's
 * arguments, naming each by code point and count (`U+200B×2`) so the model
 * can tell which ones it keeps leaking.
 */
export function cleanedNote(removed: readonly string[]): string {
  if (removed.length === 0) return "";
  const counts = new Map<string, number>();
  for (const c of removed) counts.set(c, (counts.get(c) ?? 0) + 1);
  const which = [...counts].map(([c, n]) => `${codePoint(c)}×${n}`).join(", ");
  return (
    `, cleaned ${removed.length} invisible character(s) from your arguments (${which}: zero-width marks, orphaned variation selectors ` +
    "or combining marks with no letter; they carry no content, leave them out of tool arguments)"
  );
}
