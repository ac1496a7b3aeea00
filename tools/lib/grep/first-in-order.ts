// The first N matches of a search in path order, in memory bounded by N
// rather than by the number of matches. ripgrep searches files in parallel
// and prints each file's matches together but files in any order, so the
// first N in path order are only known at the end; a million matches held
// until then cost hundreds of megabytes. Instead, each file's matches are
// offered as it ends, and what can no longer be among the first N is
// dropped as the search goes: only the total is kept of it.
//
// Why dropping is safe: a match's position in the final order can only grow
// as files arrive (a new file sorting before it pushes it back; nothing pulls
// it forward). So once at least N counted matches sort before a match, it is
// out for good. Every so often the kept files are sorted and everything at
// position N or later is dropped; the key of the first file dropped becomes
// a cut, and any later file at or past the cut is dropped on arrival.

export interface FileMatches<K, E> {
  key: K;
  /** In the order the file's search printed them. */
  entries: E[];
}

export interface FirstInOrderOptions<K, E> {
  /** How many counted entries are wanted (Infinity: all). */
  wanted: number;
  compareKeys(a: K, b: K): number;
  /** Whether an entry counts towards `wanted` (a match does; a context line does not). */
  counts(entry: E): boolean;
  /** The order of one file's entries, when it is not the order they were printed in. */
  compareEntries?(a: E, b: E): number;
}

export class FirstInOrder<K, E> {
  /** Counted entries of every file seen, dropped or not. */
  total = 0;
  private files: FileMatches<K, E>[] = [];
  private held = 0;
  private cut: K | undefined;

  constructor(private readonly opts: FirstInOrderOptions<K, E>) {}

  /** Whether a file with this key can still hold wanted entries: if not, pass only its count. */
  wants(key: K): boolean {
    return this.cut === undefined || this.opts.compareKeys(key, this.cut) < 0;
  }

  /**
   * One file's entries. `counted` is how many counted entries the file had,
   * which may be more than `entries` holds: a file needs to pass no more
   * than `wanted` counted entries and what comes before them.
   */
  add(key: K, entries: E[], counted: number): void {
    this.total += counted;
    if (!this.wants(key) || entries.length === 0) return;
    this.files.push({ key, entries });
    this.held += entries.length;
    // Pruning sorts what is held; doing it once the held entries have grown
    // well past the window keeps its cost a small share of the search.
    if (this.held > 4 * Math.min(this.opts.wanted, 1e6) + 4096) this.prune();
  }

  /** The files that hold the first `wanted` counted entries, in key order, each cut after its last wanted entry. */
  result(): FileMatches<K, E>[] {
    this.prune();
    return this.files;
  }

  private prune(): void {
    const { compareKeys, counts, wanted, compareEntries } = this.opts;
    // One group per file: a file printed twice is one file.
    const groups: FileMatches<K, E>[] = [];
    for (const file of this.files.sort((a, b) => compareKeys(a.key, b.key))) {
      const last = groups.at(-1);
      if (last && compareKeys(last.key, file.key) === 0) last.entries.push(...file.entries);
      else groups.push({ key: file.key, entries: [...file.entries] });
    }
    const kept: FileMatches<K, E>[] = [];
    let before = 0;
    for (const group of groups) {
      if (before >= wanted) {
        this.cut = group.key;
        break;
      }
      if (compareEntries && !isSorted(group.entries, compareEntries)) group.entries.sort(compareEntries);
      let end = 0;
      while (end < group.entries.length && before < wanted) if (counts(group.entries[end++]!)) before++;
      // Entries after the last wanted one are out too (a context line after it).
      if (before >= wanted) group.entries.length = end;
      kept.push(group);
    }
    this.files = kept;
    this.held = kept.reduce((n, f) => n + f.entries.length, 0);
  }
}

function isSorted<E>(xs: readonly E[], compare: (a: E, b: E) => number): boolean {
  for (let i = 1; i < xs.length; i++) if (compare(xs[i - 1]!, xs[i]!) > 0) return false;
  return true;
}
