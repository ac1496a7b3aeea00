// Gathers a search's entries file by file, as the search prints them, into
// the first `wanted` counted entries in file order plus the total
// (FirstInOrder), holding only what can still be among them. Both grep
// output formats (lines.ts, json.ts) feed one of these: a file opens, its
// entries come, it ends when the next opens or the search ends.
//
// A file a path rule keeps from reading (`hidden`) is left out whole: its
// entries are neither shown nor counted. Within a file at most `wanted`
// counted entries are kept: the first in the file's order (`compareEntries`,
// else the order printed), so even entries printed out of order keep the
// right ones.

import { FirstInOrder, type FileMatches } from "./first-in-order.js";

export interface CollectOptions<K, E> {
  /** Counted entries wanted (Infinity: all). */
  wanted: number;
  compareKeys(a: K, b: K): number;
  /** Whether an entry counts towards `wanted` and the total (a match does; a context line does not). */
  counts(entry: E): boolean;
  /** The order within one file when it is not the printed order; every entry then counts. */
  compareEntries?(a: E, b: E): number;
  /** True for a file a path rule keeps from reading. */
  hidden?(key: K): boolean;
}

interface OpenFile<K, E> {
  key: K;
  entries: E[];
  /** Counted entries kept in `entries`. */
  kept: number;
  /** Counted entries seen in the file. */
  counted: number;
  /** The file can still hold wanted entries (else it is only counted). */
  wants: boolean;
  hidden: boolean;
}

export class FileCollector<K, E> {
  private readonly order: FirstInOrder<K, E>;
  private cur: OpenFile<K, E> | undefined;

  constructor(private readonly opts: CollectOptions<K, E>) {
    this.order = new FirstInOrder<K, E>(opts);
  }

  /** The key of the file being gathered, if one is open. */
  get currentKey(): K | undefined {
    return this.cur?.key;
  }

  /** Starts a file, ending the one before. */
  open(key: K): void {
    this.end();
    const hidden = this.opts.hidden?.(key) === true;
    this.cur = { key, entries: [], kept: 0, counted: 0, wants: !hidden && this.order.wants(key), hidden };
  }

  /** One entry of the open file. */
  add(entry: E): void {
    const f = this.cur;
    if (!f || f.hidden) return;
    const counted = this.opts.counts(entry);
    if (counted) f.counted++;
    if (!f.wants) return;
    const compare = this.opts.compareEntries;
    if (!compare) {
      // Past the file's first `wanted` counted entries nothing more of it can be shown.
      if (f.kept < this.opts.wanted) {
        f.entries.push(entry);
        if (counted) f.kept++;
      }
    } else if (f.entries.length < this.opts.wanted) {
      insertSorted(f.entries, entry, compare);
    } else if (compare(entry, f.entries[f.entries.length - 1]!) < 0) {
      f.entries.pop();
      insertSorted(f.entries, entry, compare);
    }
  }

  /** Ends the open file, if any. */
  end(): void {
    const f = this.cur;
    if (f && !f.hidden) this.order.add(f.key, f.entries, f.counted);
    this.cur = undefined;
  }

  /** The files holding the first `wanted` counted entries, in key order, and the total counted. */
  result(): { files: FileMatches<K, E>[]; total: number } {
    this.end();
    return { files: this.order.result(), total: this.order.total };
  }
}

/** Into a list kept sorted (the search's own order makes this an append). */
function insertSorted<E>(list: E[], entry: E, compare: (a: E, b: E) => number): void {
  let at = list.length;
  while (at > 0 && compare(list[at - 1]!, entry) > 0) at--;
  if (at === list.length) list.push(entry);
  else list.splice(at, 0, entry);
}
