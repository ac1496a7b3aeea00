// Where a Chord `edit` old_string most likely sits when it is not in the
// file: the run of file lines, as many as old_string has, most similar to it.
// Windows are seeded by old_string's lines that the file has (the rarest
// first), so a block deep in a large file is found as readily as one at the
// top, and every seeded window is scored before the best is chosen, never the
// first in file order. Bounded: this runs only on the failure path.

import { similarity } from "../edit-candidates.js";

export interface ClosestWindow {
  /** 1-based first line of the window. */
  line: number;
  /** The window's lines, joined. */
  text: string;
  similarity: number;
  /** Characters to change to turn one into the other (of the compared prefixes). */
  distance: number;
  /** The window has fewer lines than old_string and the file goes on after it. */
  short?: boolean;
}

/** Character comparisons spent scoring windows before the search stops. */
const SCORE_BUDGET = 40_000_000;
/** Only this close a window is worth showing. */
const MIN_SIMILARITY = 0.5;

export function closestWindow(text: string, oldStr: string): ClosestWindow | undefined {
  const want = oldStr.replace(/\n$/, "");
  const oldLines = want.split("\n");
  const fileLines = text.replace(/\n$/, "").split("\n");
  const n = oldLines.length;
  if (n > fileLines.length || want.trim() === "") return undefined;

  const where = new Map<string, number[]>();
  fileLines.forEach((l, i) => {
    const key = l.trim();
    const list = where.get(key);
    if (list) list.push(i);
    else where.set(key, [i]);
  });
  // Each old line the file has seeds the windows that would put it in place; rarest first.
  const seeds = oldLines
    .map((l, k) => ({ k, hits: where.get(l.trim()) ?? [] }))
    .filter((s) => s.hits.length > 0)
    .sort((a, b) => a.hits.length - b.hits.length);
  const starts = new Set<number>();
  for (const { k, hits } of seeds) for (const h of hits) starts.add(Math.min(Math.max(h - k, 0), fileLines.length - n));
  // No line in common: every window competes, as far as the budget reaches.
  if (starts.size === 0) for (let s = 0; s + n <= fileLines.length; s++) starts.add(s);

  let best: ClosestWindow | undefined;
  let spent = 0;
  for (const s of [...starts].sort((a, b) => a - b)) {
    const window = fileLines.slice(s, s + n).join("\n");
    const cost = Math.min(want.length, 2000) * Math.min(window.length, 2000);
    if (spent + cost > SCORE_BUDGET) break;
    spent += cost;
    const sim = similarity(want, window);
    if (!best || sim > best.similarity) {
      const longest = Math.max(Math.min(want.length, 2000), Math.min(window.length, 2000));
      best = { line: s + 1, text: window, similarity: sim, distance: Math.round((1 - sim) * longest) };
    }
  }
  return best && best.similarity >= MIN_SIMILARITY ? best : undefined;
}
