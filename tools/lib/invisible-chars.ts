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
  removed: number;
}

/** Only the orphaned variation selectors removed (what a model's old text loses before matching). */
export function stripOrphanSelectors(text: string): Cleaned {
  const units = [...text];
  const kept = units.filter((_, i) => !isOrphanSelector(units, i));
  return { text: kept.join(""), removed: units.length - kept.length };
}

/** Every content-free character removed (what text to be written loses). */
export function stripInvisible(text: string): Cleaned {
  const units = [...text];
  const kept = units.filter((_, i) => !isOrphanSelector(units, i) && !isLooseZeroWidth(units, i) && !isFloatingMark(units, i));
  return { text: kept.join(""), removed: units.length - kept.length };
}

/** The note a result carries when characters were cleaned from the model's arguments. */
export function cleanedNote(removed: number): string {
  if (removed === 0) return "";
  return (
    `, cleaned ${removed} invisible character(s) from your arguments (zero-width marks, orphaned variation selectors ` +
    "or combining marks with no letter; they carry no content, leave them out of tool arguments)"
  );
}
