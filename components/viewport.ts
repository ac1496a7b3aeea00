// The visible window of the transcript. Cards are rendered to lines only
// when they are in or next to the window (and then cached by the card
// cache), so a 5,000-card session costs no more per frame than a short one.

import type { Card } from "../core/reducer.js";
import type { CardCache } from "./cards/cache.js";
import { defaultFolded, isFoldable } from "./cards/fold.js";

export interface ViewportOptions {
  width: number;
  height: number;
  /** Lines scrolled up from the bottom. */
  scroll: number;
  /** Card number to keep in view, if any. */
  focus?: number;
  folds: ReadonlyMap<number, boolean>;
  cwd: string;
  color: boolean;
  cache: CardCache;
}

export interface Viewport {
  lines: string[];
  /** The scroll actually used (moved to keep the focused card in view, clamped at the top). */
  scroll: number;
  /** True when older lines exist above the window. */
  more: boolean;
}

const SPACER: readonly string[] = [""];

function folded(card: Card, folds: ReadonlyMap<number, boolean>): boolean {
  if (!isFoldable(card)) return false;
  return folds.get(card.num) ?? defaultFolded(card);
}

export function viewport(cards: readonly Card[], o: ViewportOptions): Viewport {
  const linesOf = (card: Card) =>
    o.cache.lines(card, { width: o.width, folded: folded(card, o.folds), focused: card.num === o.focus, cwd: o.cwd, color: o.color });

  // Walk from the newest card back until the window (plus the scroll, plus
  // the focused card) is covered.
  const collected: (readonly string[])[] = [];
  let count = 0;
  let focusStart = -1; // line offset from the bottom where the focused card starts
  let focusEnd = -1;
  let scroll = o.scroll;
  for (let i = cards.length - 1; i >= 0; i--) {
    const card = cards[i]!;
    // A blank line under each card keeps them apart (shared, never copied).
    const lines = linesOf(card);
    collected.push(SPACER, lines);
    if (card.num === o.focus) {
      focusEnd = count + 1;
      focusStart = count + 1 + lines.length;
    }
    count += lines.length + 1;
    const needFocus = o.focus !== undefined && focusStart < 0 && cards[0]!.num <= o.focus;
    if (count >= scroll + o.height && !needFocus) break;
  }
  if (focusStart >= 0) {
    // Keep the whole focused card in view when it fits, else its top.
    if (focusEnd < scroll) scroll = focusEnd;
    if (focusStart > scroll + o.height) scroll = Math.max(focusEnd, focusStart - o.height);
  }
  const all = collected.reverse().flat();
  const maxScroll = Math.max(0, all.length - o.height);
  scroll = Math.min(scroll, maxScroll);
  const end = all.length - scroll;
  const start = Math.max(0, end - o.height);
  const lines = all.slice(start, end);
  while (lines.length < o.height) lines.unshift("");
  return { lines, scroll, more: start > 0 || collected.length < cards.length * 2 };
}
