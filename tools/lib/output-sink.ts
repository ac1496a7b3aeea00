// Yuj's large-output sink: past the preview budget the model sees the head
// and the tail of a command's output, exactly how much was left out, and the
// saved file that holds all of it. Reads only the bytes it shows, so a
// command that printed gigabytes costs no memory here.

import { open } from "node:fs/promises";
import { StringDecoder } from "node:string_decoder";
import type { Config } from "../../core/config/schema.js";
import { xmlEscape } from "./search-envelope.js";
import { filterOutput } from "./output-filters.js";

/** Output up to this size is shown whole (after the filters). */
export const SINK_THRESHOLD_BYTES = 16 * 1024;

export interface OutputRange {
  file: string;
  from: number;
  to: number;
}

/** The model's view of [from, to) of an output file. */
export async function sinkView(range: OutputRange, tools: Config["tools"]): Promise<string> {
  const size = range.to - range.from;
  if (size <= SINK_THRESHOLD_BYTES) {
    return filterOutput(await readText(range.file, range.from, size), tools).replace(/\n+$/, "");
  }
  const headBytes = Math.min(tools.sink_head_bytes, size);
  const tailBytes = Math.min(tools.sink_tail_bytes, size - headBytes);
  const head = cleanEdge(await readText(range.file, range.from, headBytes), "end");
  const tail = cleanEdge(await readText(range.file, range.to - tailBytes, tailBytes), "start");
  // Counted after the partial edge lines were dropped: exactly what is not shown.
  const omitted = size - Buffer.byteLength(head) - Buffer.byteLength(tail);
  const lines = await countLines(range.file, range.from, range.to);
  const strip = (t: string) => filterOutput(t, { ...tools, collapse_duplicate_lines: false, collapse_blank_lines: false });
  return [
    strip(head).replace(/\n$/, ""),
    `... [body truncated: ${omitted} of ${size} bytes omitted — full output available via full_path attribute] ...`,
    strip(tail).replace(/\n+$/, ""),
    `<tool_result_meta truncated="true" original_bytes="${size}" original_lines="${lines}" full_path="${xmlEscape(range.file)}"/>`,
  ].join("\n");
}

async function readText(file: string, from: number, length: number): Promise<string> {
  if (length <= 0) return "";
  const fh = await open(file, "r");
  try {
    const buf = Buffer.alloc(length);
    const { bytesRead } = await fh.read(buf, 0, length, from);
    return new StringDecoder("utf8").end(buf.subarray(0, bytesRead));
  } finally {
    await fh.close();
  }
}

/** Drops a partial line at the cut edge (when the piece has a line break at all). */
function cleanEdge(text: string, edge: "start" | "end"): string {
  if (edge === "end") {
    const nl = text.lastIndexOf("\n");
    return nl > 0 ? text.slice(0, nl + 1) : text;
  }
  const nl = text.indexOf("\n");
  return nl >= 0 && nl < text.length - 1 ? text.slice(nl + 1) : text;
}

/** Counts lines in [from, to) with a small fixed buffer. */
async function countLines(file: string, from: number, to: number): Promise<number> {
  const fh = await open(file, "r");
  try {
    const buf = Buffer.alloc(1 << 20);
    let lines = 0;
    let last = 10;
    for (let pos = from; pos < to; ) {
      const { bytesRead } = await fh.read(buf, 0, Math.min(buf.length, to - pos), pos);
      if (bytesRead === 0) break;
      for (let i = buf.indexOf(10, 0); i !== -1 && i < bytesRead; i = buf.indexOf(10, i + 1)) lines++;
      last = buf[bytesRead - 1]!;
      pos += bytesRead;
    }
    // A last line without a newline still counts.
    return last === 10 ? lines : lines + 1;
  } finally {
    await fh.close();
  }
}
