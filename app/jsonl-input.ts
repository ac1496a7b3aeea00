// `--input jsonl`: operations (core/ops.ts) read from stdin, one JSON object
// a line, and handed to the session's controller as they arrive. A line that
// is not a valid operation is reported (an `error` event naming the line and
// what is wrong) and skipped; the stream goes on. When stdin ends, nobody is
// left to answer: the caller detaches the operator, so what waits pauses.

import { parseOperation, type Operation } from "../core/ops.js";

/** One operation is small; a longer line is a mistake (or a stream that is not JSONL) and is skipped unread. */
export const MAX_OPERATION_BYTES = 1024 * 1024;

export interface OperationInput {
  /** Resolves once stdin ended or `close()` was called. */
  closed: Promise<void>;
  /** Stops reading (the session is stopping). */
  close(): void;
}

export interface OperationSink {
  submit(op: Operation, source: string): void;
  /** A line that is not an operation: said, and skipped. */
  problem(text: string): void;
}

export function readOperations(stream: NodeJS.ReadableStream & { destroy?(): void }, sink: OperationSink): OperationInput {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let lineNo = 0;
  // Inside a line that grew past the limit: the rest of it is dropped.
  let skipping = false;
  let finish!: () => void;
  let ended = false;
  const closed = new Promise<void>((resolve) => (finish = resolve));

  const line = (bytes: Buffer) => {
    lineNo++;
    const text = bytes.toString("utf8").replace(/\r$/, "");
    if (!text.trim()) return;
    const parsed = parseOperation(text);
    if (parsed.ok) sink.submit(parsed.op, `stdin line ${lineNo}`);
    else sink.problem(`stdin line ${lineNo}: ${parsed.problem}`);
  };

  const tooLong = () => {
    lineNo++;
    sink.problem(`stdin line ${lineNo}: longer than ${MAX_OPERATION_BYTES} bytes; skipped (one operation is one line of JSON)`);
    pending = [];
    pendingBytes = 0;
  };

  const onData = (chunk: Buffer | string) => {
    let data = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    for (let nl = data.indexOf(10); nl >= 0; nl = data.indexOf(10)) {
      const head = data.subarray(0, nl);
      data = data.subarray(nl + 1);
      if (skipping) skipping = false;
      else if (pendingBytes + head.length > MAX_OPERATION_BYTES) tooLong();
      else {
        line(pendingBytes ? Buffer.concat([...pending, head]) : head);
        pending = [];
        pendingBytes = 0;
      }
    }
    if (skipping || data.length === 0) return;
    pending.push(data);
    pendingBytes += data.length;
    if (pendingBytes > MAX_OPERATION_BYTES) {
      tooLong();
      skipping = true;
    }
  };

  const end = () => {
    if (ended) return;
    ended = true;
    stream.off("data", onData);
    stream.off("end", end);
    stream.off("error", end);
    // A last line without its newline still counts.
    if (!skipping && pendingBytes) line(Buffer.concat(pending));
    pending = [];
    finish();
  };

  stream.on("data", onData);
  stream.on("end", end);
  stream.on("error", end);
  return {
    closed,
    close() {
      if (ended) return;
      skipping = true;
      end();
      stream.destroy?.();
    },
  };
}
