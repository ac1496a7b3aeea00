// Yuj grep's output format: rg's `path:line:text` lines (the JS fallback
// prints the same), gathered into one page of the (path, line) order plus
// the total. rg's own line format is kept rather than its JSON: it is what
// the model is shown, byte for byte, warnings for binary files included.
//
// A line's file is the text before its first `:<digits>:`; lines of one
// file come together from rg, so a file ends when the next line names
// another.

import { FileCollector } from "./collect.js";

/** rg's flags for this format. */
export const LINE_FLAGS: readonly string[] = ["-n", "--no-heading", "--with-filename", "--color", "never"];

interface Match {
  line: string;
  n: number;
}

const compareStrings = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export interface GrepPage {
  total: number;
  page: number;
  /** The page's lines as rg printed them. */
  lines: string[];
  /** The same lines, split: the file, the line number, the text (a line rg printed about a file has only the first). */
  matches: Array<{ path: string; line?: number; text?: string }>;
  nextPage: number;
}

export class LinePage {
  private readonly collector: FileCollector<string, Match>;

  /**
   * `perPage` undefined: every match, on one page. A file `hidden` says a
   * path rule keeps from reading is left out, and its matches do not count.
   */
  constructor(
    private readonly page: number,
    private readonly perPage: number | undefined,
    hidden?: (file: string) => boolean,
  ) {
    this.collector = new FileCollector<string, Match>({
      wanted: perPage === undefined ? Infinity : page * perPage,
      compareKeys: compareStrings,
      counts: () => true,
      compareEntries: (a, b) => a.n - b.n,
      ...(hidden ? { hidden } : {}),
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
    const { keyEnd, n } = splitKey(text, from, end);
    const keyLen = (keyEnd < 0 ? end : keyEnd) - from;
    const file = this.collector.currentKey;
    if (file === undefined || file.length !== keyLen || !text.startsWith(file, from)) {
      this.collector.open(text.slice(from, from + keyLen));
    }
    this.collector.add({ line: text.slice(from, end), n });
  }

  result(): GrepPage {
    const { files, total } = this.collector.result();
    const all: Array<{ file: string; m: Match }> = [];
    for (const f of files) for (const m of f.entries) all.push({ file: f.key, m });
    const start = this.perPage === undefined ? 0 : (this.page - 1) * this.perPage;
    const shown = this.perPage === undefined ? all : all.slice(start, start + this.perPage);
    return {
      total,
      page: this.perPage === undefined ? 1 : this.page,
      lines: shown.map((x) => x.m.line),
      matches: shown.map(({ file, m }) => (m.n < 0 ? { path: m.line } : { path: file, line: m.n, text: textAfterKey(m.line, file) })),
      nextPage: this.perPage !== undefined && start + this.perPage < total ? this.page + 1 : 0,
    };
  }
}

/** The text of a `path:line:text` line after its path and line number. */
function textAfterKey(line: string, file: string): string {
  const rest = line.slice(file.length);
  const m = /^:\d+:/.exec(rest);
  return m ? rest.slice(m[0].length) : rest;
}

/** Where the file name ends: the earliest `:` followed by digits and another `:`, and those digits. */
function splitKey(text: string, from: number, end: number): { keyEnd: number; n: number } {
  for (let c = text.indexOf(":", from); c >= 0 && c < end; c = text.indexOf(":", c + 1)) {
    let d = c + 1;
    let v = 0;
    for (; d < end; d++) {
      const code = text.charCodeAt(d);
      if (code < 48 || code > 57) break;
      v = v * 10 + (code - 48);
    }
    if (d > c + 1 && d < end && text.charCodeAt(d) === 58) return { keyEnd: c, n: v };
  }
  // No line number: a line rg prints about a file (a binary file that matches).
  return { keyEnd: -1, n: -1 };
}

/** The page number a request means: pages are 1-based and anything below 1 means page 1. */
export const pageNumber = (requested: number | undefined): number => Math.max(1, Math.trunc(requested ?? 1));
