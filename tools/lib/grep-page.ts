// Yuj grep's matches, `path:line:text`, gathered as ripgrep prints them into
// one page of the (path, line) order plus the total, holding only what that
// page and the pages before it need (FirstInOrder), never every match.
//
// A line's file is the text before its first `:<digits>:`; lines of one
// file come together and in line order from rg, so a file ends when the next
// line names another. Within a file at most `wanted` lines are kept — the
// lowest line numbers, so even lines out of order keep the right ones.

import { FirstInOrder } from "./first-in-order.js";

interface Match {
  line: string;
  n: number;
}

const compareStrings = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export interface GrepPage {
  total: number;
  page: number;
  lines: string[];
  nextPage: number;
}

export class GrepPageCollector {
  private readonly order: FirstInOrder<string, Match>;
  private readonly wanted: number;
  private file: string | undefined;
  /** Whether the current file can still be on the page (else it is only counted). */
  private wants = true;
  /** The current file is hidden by a path rule: neither shown nor counted. */
  private skipped = false;
  private kept: Match[] = [];
  private counted = 0;

  /**
   * `perPage` undefined: every match, on one page. A file `hidden` says a
   * path rule keeps from reading is left out, and its matches do not count.
   */
  constructor(
    private readonly page: number,
    private readonly perPage: number | undefined,
    private readonly hidden?: (file: string) => boolean,
  ) {
    this.wanted = perPage === undefined ? Infinity : page * perPage;
    this.order = new FirstInOrder<string, Match>({
      wanted: this.wanted,
      compareKeys: compareStrings,
      counts: () => true,
      compareEntries: (a, b) => a.n - b.n,
    });
  }

  /** Lines as rg printed them; `prefix` (the absolute cwd and a separator) is cut from each. */
  addText(text: string, prefix: string): void {
    for (let start = 0; start < text.length; ) {
      let end = text.indexOf("\n", start);
      if (end < 0) end = text.length;
      if (end > start) {
        const from = end - start >= prefix.length && text.startsWith(prefix, start) ? start + prefix.length : start;
        this.addLine(text, from, end);
      }
      start = end + 1;
    }
  }

  /** One `path:line:text` line: text[from, end). */
  addLine(text: string, from: number, end: number): void {
    // The key: the earliest `:` followed by digits and another `:`.
    let keyEnd = -1;
    let n = 0;
    for (let c = text.indexOf(":", from); c >= 0 && c < end; c = text.indexOf(":", c + 1)) {
      let d = c + 1;
      let v = 0;
      for (; d < end; d++) {
        const code = text.charCodeAt(d);
        if (code < 48 || code > 57) break;
        v = v * 10 + (code - 48);
      }
      if (d > c + 1 && d < end && text.charCodeAt(d) === 58) {
        keyEnd = c;
        n = v;
        break;
      }
    }
    const keyLen = (keyEnd < 0 ? end : keyEnd) - from;
    if (this.file === undefined || this.file.length !== keyLen || !text.startsWith(this.file, from)) {
      this.endFile();
      this.file = text.slice(from, from + keyLen);
      this.skipped = this.hidden?.(this.file) === true;
      this.wants = this.order.wants(this.file);
    }
    if (this.skipped) return;
    this.counted++;
    if (!this.wants) return;
    if (this.kept.length < this.wanted) {
      this.keep({ line: text.slice(from, end), n });
    } else if (n < this.kept[this.kept.length - 1]!.n) {
      this.kept.pop();
      this.keep({ line: text.slice(from, end), n });
    }
  }

  result(): GrepPage {
    this.endFile();
    const all: string[] = [];
    for (const f of this.order.result()) for (const m of f.entries) all.push(m.line);
    const total = this.order.total;
    if (this.perPage === undefined) return { total, page: 1, lines: all, nextPage: 0 };
    const start = (this.page - 1) * this.perPage;
    return {
      total,
      page: this.page,
      lines: all.slice(start, start + this.perPage),
      nextPage: start + this.perPage < total ? this.page + 1 : 0,
    };
  }

  /** Into `kept`, which stays sorted by line number (rg's order makes this an append). */
  private keep(m: Match): void {
    let at = this.kept.length;
    while (at > 0 && this.kept[at - 1]!.n > m.n) at--;
    if (at === this.kept.length) this.kept.push(m);
    else this.kept.splice(at, 0, m);
  }

  private endFile(): void {
    if (this.file !== undefined && !this.skipped) this.order.add(this.file, this.kept, this.counted);
    this.file = undefined;
    this.kept = [];
    this.counted = 0;
  }
}

/** The page number a request means: pages are 1-based and anything below 1 means page 1. */
export const pageNumber = (requested: number | undefined): number => Math.max(1, Math.trunc(requested ?? 1));
