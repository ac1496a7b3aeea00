// tree-sitter parses a JavaScript string and counts in UTF-16 code units;
// the tools report UTF-8 bytes, the unit of the file on disk. This maps one
// to the other for one text, line by line: the byte offset of every line
// start is computed once, and a position within a line is counted from there.

export interface BytePosition {
  /** 0-based byte offset in the file. */
  offset: number;
  /** 1-based line. */
  line: number;
  /** 1-based UTF-8 byte column. */
  column: number;
}

function utf8Length(text: string, from: number, to: number): number {
  let bytes = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < to) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3; // other BMP characters, and a lone surrogate (written as U+FFFD)
  }
  return bytes;
}

export class ByteMap {
  /** UTF-16 index of each line start (lines end at "\n", as tree-sitter counts rows). */
  private readonly starts: number[] = [0];
  /** Byte offset of each line start. */
  private readonly byteStarts: number[] = [0];

  constructor(private readonly text: string) {
    for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) {
      const prev = this.starts.length - 1;
      this.byteStarts.push(this.byteStarts[prev]! + utf8Length(text, this.starts[prev]!, i + 1));
      this.starts.push(i + 1);
    }
  }

  /** The line (0-based) holding UTF-16 index `index`. */
  private lineOf(index: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= index) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  at(index: number): BytePosition {
    const line = this.lineOf(index);
    const within = utf8Length(this.text, this.starts[line]!, index);
    return { offset: this.byteStarts[line]! + within, line: line + 1, column: within + 1 };
  }

  /** The whole line (0-based row) without its newline. */
  lineText(row: number): string {
    const start = this.starts[row] ?? this.text.length;
    const next = this.starts[row + 1];
    return this.text.slice(start, next === undefined ? this.text.length : next - 1).replace(/\r$/, "");
  }
}
