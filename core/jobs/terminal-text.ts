// A terminal's raw output on its way to the model: escape sequences cut by
// the end of what was read so far are kept for the next read (the cleaning
// itself is core/text's modelText), and a bounded buffer of unread text keeps
// the head and the tail when too much arrives between two reads.

// An escape sequence or a \r\n pair cut by the end of the data read so far:
// a bare ESC, a CSI still waiting for its final byte, an unterminated OSC
// (window titles), or a \r whose \n may follow.
const PARTIAL_TAIL = /(?:\x1b(?:\[[\x20-\x3f]*|\][^\x07\x1b]{0,256})?|\r)$/;

/** Splits `raw` into the part safe to clean now and a partial tail to keep for later. */
export function splitPartialTail(raw: string): [string, string] {
  const m = PARTIAL_TAIL.exec(raw.slice(-300));
  if (!m || m[0].length === 0) return [raw, ""];
  const cut = raw.length - m[0].length;
  return [raw.slice(0, cut), raw.slice(cut)];
}

/**
 * Cleaned text not yet read, in at most `budget` bytes: the first 40% as it
 * arrived and a rolling tail of the rest, counting exactly what falls between.
 * When no more than `budget` bytes arrive, all of them are kept.
 */
export class BoundedText {
  private head = Buffer.alloc(0);
  private tail = Buffer.alloc(0);
  private dropped = 0;
  private readonly headMax: number;
  private readonly tailMax: number;

  constructor(budget: number) {
    this.headMax = Math.floor(budget * 0.4);
    this.tailMax = budget - this.headMax;
  }

  /** Bytes received since the last take. */
  get size(): number {
    return this.head.length + this.tail.length + this.dropped;
  }

  push(text: string): void {
    if (text === "") return;
    let buf = Buffer.from(text, "utf8");
    if (this.tail.length === 0 && this.dropped === 0 && this.head.length < this.headMax) {
      const room = this.headMax - this.head.length;
      this.head = Buffer.concat([this.head, buf.subarray(0, room)]);
      buf = buf.subarray(room);
    }
    if (buf.length === 0) return;
    const tail = Buffer.concat([this.tail, buf]);
    const excess = Math.max(0, tail.length - this.tailMax);
    this.dropped += excess;
    this.tail = tail.subarray(excess);
  }

  /** The unread text (with a marker line where bytes were left out), then empties the buffer. */
  take(): { text: string; omittedBytes: number } {
    const { head, tail, dropped } = this;
    this.head = Buffer.alloc(0);
    this.tail = Buffer.alloc(0);
    this.dropped = 0;
    if (dropped === 0) return { text: Buffer.concat([head, tail]).toString("utf8"), omittedBytes: 0 };
    // The cuts may fall inside a multi-byte character: move them to character
    // boundaries and count the bytes that moves out, so the number stays exact.
    const headEnd = boundaryBefore(head);
    let tailStart = 0;
    while (tailStart < tail.length && isContinuation(tail[tailStart])) tailStart++;
    const omittedBytes = dropped + (head.length - headEnd) + tailStart;
    const headText = head.subarray(0, headEnd).toString("utf8");
    const tailText = tail.subarray(tailStart).toString("utf8");
    const sep = headText === "" || headText.endsWith("\n") ? "" : "\n";
    const text = `${headText}${sep}[... ${omittedBytes} bytes of output left out ...]\n${tailText}`;
    return { text, omittedBytes };
  }
}

const isContinuation = (byte: number | undefined) => byte !== undefined && (byte & 0xc0) === 0x80;

/** Length of `buf` without a trailing incomplete UTF-8 character. */
function boundaryBefore(buf: Buffer): number {
  // Find the lead byte of the last character and check it is whole.
  if (buf.length === 0) return 0;
  let i = buf.length - 1;
  while (i > 0 && isContinuation(buf[i])) i--;
  const lead = buf[i] ?? 0;
  const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return buf.length - i >= need ? buf.length : i;
}
