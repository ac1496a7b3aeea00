// Rendered lines per card, so the transcript re-renders only what changed.
// The reducer replaces a card object whenever its content changes and keeps
// it otherwise, so identity is the fast check; a shallow comparison of its
// fields (all primitives) catches an equal card rebuilt elsewhere (a replay,
// a resumed view). A finished card is rendered once per width / fold / focus /
// colour / cwd and the same array is returned until one of them changes.

import type { Card } from "../../core/reducer.js";
import { foldAffects } from "./fold.js";
import { markdownGeneration } from "./markdown.js";
import { renderCard, type RenderOpts } from "./render.js";

export interface CardCache {
  /** The card's lines: from the cache when nothing that matters changed. */
  lines(card: Card, opts: RenderOpts): string[];
  /** Forget every card (a new session, a different view). */
  clear(): void;
  /** Forget cards no longer in the transcript (a retry dropped them). */
  retain(cards: readonly Card[]): void;
  /** Cards held, for tests and diagnostics. */
  readonly size: number;
}

interface Entry {
  card: Card;
  byOpts: Map<string, string[]>;
  /** The last lookup, checked field by field before any key is built. */
  last?: { opts: RenderOpts; generation: number; lines: string[] };
}

// A few variants per card: the current width and the previous one (a resize),
// focused and not. Older variants are dropped first.
const VARIANTS_PER_CARD = 6;

export function createCardCache(): CardCache {
  const entries = new Map<string, Entry>();
  const keyOf = (card: Card) => `${card.kind}#${card.num}`;

  return {
    lines(card, opts) {
      const key = keyOf(card);
      let entry = entries.get(key);
      if (!entry || (entry.card !== card && !sameFields(entry.card, card))) {
        // New content: every variant of the old one is stale.
        entry = { card, byOpts: new Map() };
        entries.set(key, entry);
      } else if (entry.card !== card) {
        entry.card = card;
      }
      // The common case on every frame: same card, same options as last time.
      const last = entry.last;
      const generation = markdownGeneration();
      if (last && last.generation === generation && sameOpts(last.opts, opts)) return last.lines;
      const ok = optsKey(card, opts, generation);
      let lines = entry.byOpts.get(ok);
      if (!lines) {
        lines = renderCard(card, opts);
        entry.byOpts.set(ok, lines);
        if (entry.byOpts.size > VARIANTS_PER_CARD) entry.byOpts.delete(entry.byOpts.keys().next().value as string);
      }
      entry.last = { opts: { ...opts }, generation, lines };
      return lines;
    },
    clear() {
      entries.clear();
    },
    retain(cards) {
      const keep = new Set(cards.map(keyOf));
      for (const k of entries.keys()) if (!keep.has(k)) entries.delete(k);
    },
    get size() {
      return entries.size;
    },
  };
}

function optsKey(card: Card, o: RenderOpts, generation: number): string {
  // Fold state only matters for a foldable card with more than a preview of
  // output: elsewhere it must not split the cache. The Markdown generation:
  // cards drawn as plain text before the engine loaded are drawn again.
  const folded = o.folded && foldAffects(card);
  return `${Math.floor(o.width)}|${folded ? 1 : 0}|${o.focused ? 1 : 0}|${o.color ? 1 : 0}|${generation}|${o.cwd}`;
}

function sameOpts(a: RenderOpts, b: RenderOpts): boolean {
  return a.width === b.width && a.folded === b.folded && a.focused === b.focused && a.color === b.color && a.cwd === b.cwd;
}

/** Cards hold only primitive fields, so a shallow comparison is exact. */
function sameFields(a: Card, b: Card): boolean {
  const ka = Object.keys(a) as (keyof Card)[];
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) if (a[k] !== b[k]) return false;
  return true;
}
