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
  /** Keys of lines that name no line number (a note about a file, a piece of a file name holding a newline). */
  private readonly notes = new Set<string>();

  /**
   * `perPage` undefined: every match, on one page. A file `hidden` says a
   * path rule keeps from reading is left out, and its matches do not count.
   * `lead` stands where the absolute cwd stood (`./`, as the reference
   * writes the cwd as `.`), on lines that had it.
   */
  constructor(
    private readonly page: number,
    private readonly perPage: number | undefined,
    hidden?: (file: string) => boolean,
    private readonly lead = "",
  ) {
    const notes = this.notes;
    this.collector = new FileCollector<string, Match>({
      wanted: perPage === undefined ? Infinity : page * perPage,
      // Match lines in path order, then the other lines by their text, as the reference sorts them.
      compareKeys: (a, b) => Number(notes.has(a)) - Number(notes.has(b)) || compareStrings(a, b),
      counts: () => true,
      compareEntries: (a, b) => a.n - b.n,
      ...(hidden ? { hidden: (file: string) => hidden(lead && file.startsWith(lead) ? file.slice(lead.length) : file) } : {}),
    });
  }

  /**
   * Lines as rg printed them; `prefix` (the absolute cwd and a separator) is
   * cut from each and `lead` put in its place. A line without it (the rest
   * of a file name that holds a newline) is kept as printed.
   */
  addText(text: string, prefix: string): void {
    for (let start = 0; start < text.length; ) {
      let end = text.indexOf("\n", start);
      if (end < 0) end = text.length;
      if (end > start) {
        if (end - start >= prefix.length && text.startsWith(prefix, start)) {
          if (this.lead) {
            const line = this.lead + text.slice(start + prefix.length, end);
            this.addLine(line, 0, line.length);
          } else this.addLine(text, start + prefix.length, end);
        } else this.addLine(text, start, end);
      }
      start = end + 1;
    }
  }

  /** A line whose path is relative to the cwd (the JS search's): `lead` goes in front of it. */
  addRelative(line: string): void {
    const full = this.lead + line;
    this.addLine(full, 0, full.length);
  }

  /** One `path:line:text` line: text[from, end). */
  addLine(text: string, from: number, end: number): void {
    const { keyEnd, n } = splitKey(text, from, end);
    const keyLen = (keyEnd < 0 ? end : keyEnd) - from;
    const file = this.collector.currentKey;
    if (file === undefined || file.length !== keyLen || !text.startsWith(file, from)) {
      const key = text.slice(from, from + keyLen);
      if (keyEnd < 0) this.notes.add(key);
      this.collector.open(key);
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
