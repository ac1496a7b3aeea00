// Server-sent events out of a byte stream, as the HTML standard parses them:
// lines end in LF, CRLF or a lone CR; `event:` names the event, `data:` lines
// join with "\n", lines starting with ":" are comments, a blank line sends the
// event. Bytes may be split anywhere (inside a character, between CR and LF).

export interface SseMessage {
  /** The `event:` field; null when the event named none. */
  event: string | null;
  data: string;
}

export class SseParser {
  private decoder = new TextDecoder();
  private buffer = "";
  private event: string | null = null;
  private data: string[] = [];
  private hasData = false;

  /** The events completed by `chunk`. */
  push(chunk: Uint8Array): SseMessage[] {
    return this.lines(this.decoder.decode(chunk, { stream: true }), false);
  }

  /** The stream ended: an event without its blank line is dropped, as the standard says. */
  end(): SseMessage[] {
    return this.lines(this.decoder.decode(), true);
  }

  private lines(text: string, last: boolean): SseMessage[] {
    this.buffer += text;
    const out: SseMessage[] = [];
    let start = 0;
    for (;;) {
      const cr = this.buffer.indexOf("\r", start);
      const lf = this.buffer.indexOf("\n", start);
      const end = cr === -1 ? lf : lf === -1 ? cr : Math.min(cr, lf);
      if (end === -1) break;
      // A CR at the end of what came so far may be the first half of a CRLF.
      if (end === cr && cr === this.buffer.length - 1 && !last) break;
      const line = this.buffer.slice(start, end);
      start = end + (end === cr && this.buffer[cr + 1] === "\n" ? 2 : 1);
      const message = this.line(line);
      if (message) out.push(message);
    }
    this.buffer = this.buffer.slice(start);
    return out;
  }

  private line(line: string): SseMessage | undefined {
    if (line === "") return this.dispatch();
    if (line.startsWith(":")) return undefined;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") this.event = value;
    else if (field === "data") {
      this.data.push(value);
      this.hasData = true;
    }
    // `id` and `retry` mean nothing to a single streamed response.
    return undefined;
  }

  private dispatch(): SseMessage | undefined {
    const message = { event: this.event, data: this.data.join("\n") };
    const any = this.hasData || this.event !== null;
    this.event = null;
    this.data = [];
    this.hasData = false;
    return any ? message : undefined;
  }
}
