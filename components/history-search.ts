// Ctrl+R in the composer: a reverse incremental search through the sent
// messages. Pure: the search state and a key go in, the next state comes out.

export interface HistorySearch {
  query: string;
  /** The entry shown (an index into the history), or undefined: no entry matches. */
  index: number | undefined;
}

/** The newest entry before `before` that contains `query` (case-insensitive). */
function findOlder(history: readonly string[], query: string, before: number): number | undefined {
  const q = query.toLowerCase();
  for (let i = Math.min(before, history.length) - 1; i >= 0; i--) if (history[i]!.toLowerCase().includes(q)) return i;
  return undefined;
}

export function startSearch(history: readonly string[]): HistorySearch {
  return { query: "", index: history.length ? history.length - 1 : undefined };
}

/** A character typed: the query grows; the shown entry stays while it still matches. */
export function typeInSearch(history: readonly string[], s: HistorySearch, text: string): HistorySearch {
  const query = s.query + text;
  return { query, index: findOlder(history, query, (s.index ?? history.length - 1) + 1) };
}

/** Backspace: the query shrinks, and the search starts again from the newest entry. */
export function eraseInSearch(history: readonly string[], s: HistorySearch): HistorySearch {
  const query = Array.from(s.query).slice(0, -1).join("");
  return { query, index: findOlder(history, query, history.length) };
}

/** Ctrl+R again: the next older match (the same one when there is none older). */
export function searchOlder(history: readonly string[], s: HistorySearch): HistorySearch {
  if (s.index === undefined) return s;
  const older = findOlder(history, s.query, s.index);
  return older === undefined ? s : { ...s, index: older };
}
