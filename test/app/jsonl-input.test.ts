// The stdin reader of `--input jsonl`, over a real stream fed in arbitrary
// chunks: lines split anywhere, CRLF, a last line without its newline, and
// the length limit exactly at and just past it.

import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { MAX_OPERATION_BYTES, readOperations } from "../../app/jsonl-input.js";
import type { Operation } from "../../core/ops.js";

function reader() {
  const stream = new PassThrough();
  const ops: Array<[Operation, string]> = [];
  const problems: string[] = [];
  const input = readOperations(stream, { submit: (op, source) => void ops.push([op, source]), problem: (t) => void problems.push(t) });
  return { stream, ops, problems, input };
}

describe("reading operations from stdin", () => {
  it("takes lines split across chunks, CRLF ends, blank lines and a last line without a newline", async () => {
    const r = reader();
    const text = '{"type":"cancel"}\r\n\n{"type":"user_message",' + '"text":"hi"}\n{"type":"compact"}';
    for (let i = 0; i < text.length; i += 7) r.stream.write(text.slice(i, i + 7));
    r.stream.end();
    await r.input.closed;
    expect(r.ops).toEqual([
      [{ type: "cancel" }, "stdin line 1"],
      [{ type: "user_message", text: "hi" }, "stdin line 3"],
      [{ type: "compact" }, "stdin line 4"],
    ]);
    expect(r.problems).toEqual([]);
  });

  it("takes a line of exactly the limit and skips one byte more, going on after it", async () => {
    const r = reader();
    const line = (bytes: number) => {
      const head = '{"type":"user_message","text":"';
      return `${head}${"x".repeat(bytes - head.length - 2)}"}`;
    };
    r.stream.write(`${line(MAX_OPERATION_BYTES)}\n`);
    r.stream.write(`${line(MAX_OPERATION_BYTES + 1)}\n`);
    // Past the limit before its newline arrives: the rest is dropped as it comes.
    r.stream.write(line(MAX_OPERATION_BYTES * 2));
    r.stream.write('\n{"type":"cancel"}\n');
    r.stream.end();
    await r.input.closed;
    expect(r.ops.map(([op, source]) => [op.type, source])).toEqual([
      ["user_message", "stdin line 1"],
      ["cancel", "stdin line 4"],
    ]);
    expect(r.problems).toEqual([
      `stdin line 2: longer than ${MAX_OPERATION_BYTES} bytes; skipped (one operation is one line of JSON)`,
      `stdin line 3: longer than ${MAX_OPERATION_BYTES} bytes; skipped (one operation is one line of JSON)`,
    ]);
  });

  it("stops reading when closed, leaving what is still unread", async () => {
    const r = reader();
    r.stream.write('{"type":"cancel"}\n{"type":"comp');
    await new Promise((resolve) => setImmediate(resolve));
    r.input.close();
    await r.input.closed;
    expect(r.ops).toHaveLength(1);
    expect(r.stream.destroyed).toBe(true);
  });
});
