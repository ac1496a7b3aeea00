// Yuj's large-output sink: past the preview budget the model sees the head
// and the tail of a command's output, exactly how much was left out, and the
// saved file that holds it. Reads only the bytes it shows, and the line count
// comes from the job's log, so a command that printed gigabytes costs no
// memory and no re-reading here.

import { StringDecoder } from "node:string_decoder";
import type { Config } from "../../core/config/schema.js";
import type { LogRange, LogReader } from "../../core/jobs/job-log.js";
import { COLLAPSE_READ_LIMIT_BYTES, headAndTail } from "../../core/jobs/output-file.js";
import { xmlEscape } from "./search-envelope.js";
import { filterOutput } from "./output-filters.js";

/** Output up to this size is shown whole (after the filters). */
const SINK_THRESHOLD_BYTES = 16 * 1024;

/** A range of a job's log as readNew returned it. */
export interface OutputRange {
  from: number;
  to: number;
  /** Newlines in the range. */
  lines: number;
}

/**
 * [from, to) of a job's log as the model reads it (`text`) and as the person
 * watching is shown it (`shown`: the same lines, without the metadata
 * element meant for the model, and the file named in `fullOutputPath`).
 */
export interface SinkText {
  text: string;
  shown: string;
  fullOutputPath?: string;
}

/**
 * `maxChars` is the bound the whole result must fit in ([output].max_output_chars):
 * similar lines collapse once the output is over half of it or of what is shown whole.
 */
export function sinkView(log: LogReader, range: OutputRange, tools: Config["tools"], maxChars: number): SinkText {
  const size = range.to - range.from;
  const parts = log.kept(range.from, range.to);
  const kept = parts.reduce((n, p) => n + p.to - p.from, 0);
  // The filters run before the bound: output that collapses (a progress log,
  // a thousand similar download lines) into the budget is shown whole.
  if (kept === size && size <= COLLAPSE_READ_LIMIT_BYTES) {
    const raw = text(log.read(range.from, range.to));
    const bound = Math.min(SINK_THRESHOLD_BYTES, maxChars);
    const whole = filterOutput(raw, tools, bound).replace(/\n+$/, "");
    if (size <= SINK_THRESHOLD_BYTES || Buffer.byteLength(whole) <= SINK_THRESHOLD_BYTES) {
      // Similar lines differ (test names, numbers, hashes): once some are
      // collapsed away, say where all of them are, as a cut result does.
      const similarHidden = tools.collapse_similar_lines && whole !== filterOutput(raw, { ...tools, collapse_similar_lines: false }, bound).replace(/\n+$/, "");
      if (!similarHidden) return { text: whole, shown: whole };
      const meta = `<tool_result_meta collapsed="true" original_bytes="${size}" original_lines="${lineCount(log, range)}" full_path="${xmlEscape(log.path)}"/>`;
      const noted = `${whole}\n[similar lines collapsed — full output available via full_path attribute]\n${meta}`;
      // Under a bound too small for the note, the collapsed lines themselves matter more.
      if (noted.length > maxChars) return { text: whole, shown: whole };
      return { text: noted, shown: whole, fullOutputPath: log.path };
    }
  }
  const { head: headRange, tail: tailRange } = sinkEdges(parts, tools);
  const head = cleanEdge(text(log.read(headRange.from, headRange.to)), "end");
  const tail = cleanEdge(text(log.read(tailRange.from, tailRange.to)), "start");
  // Counted after the partial edge lines were dropped: exactly what is not shown.
  const omitted = size - Buffer.byteLength(head) - Buffer.byteLength(tail);
  const dropped = size - kept;
  const strip = (t: string) =>
    filterOutput(t, { ...tools, collapse_duplicate_lines: false, collapse_blank_lines: false, collapse_similar_lines: false });
  const where = dropped
    ? `${dropped} of them dropped from the saved file, which keeps the first and the last part ([output].max_job_log_bytes); the rest is available via full_path attribute`
    : "full output available via full_path attribute";
  const headText = strip(head).replace(/\n$/, "");
  const tailText = strip(tail).replace(/\n+$/, "");
  const modelText = [
    headText,
    `... [body truncated: ${omitted} of ${size} bytes omitted — ${where}] ...`,
    tailText,
    `<tool_result_meta truncated="true" original_bytes="${size}" original_lines="${lineCount(log, range)}"` +
      `${dropped ? ` dropped_bytes="${dropped}"` : ""} full_path="${xmlEscape(log.path)}"/>`,
  ].join("\n");
  const gone = dropped ? ` (${dropped} of them no longer in the saved file)` : "";
  const shown = [headText, `… ${omitted} of ${size} bytes not shown${gone} …`, tailText].join("\n");
  return { text: modelText, shown, fullOutputPath: log.path };
}

/** sink_head_bytes from the first kept part, sink_tail_bytes from the last, never overlapping. */
function sinkEdges(parts: readonly LogRange[], tools: Config["tools"]): { head: LogRange; tail: LogRange } {
  const { head } = headAndTail(parts, tools.sink_head_bytes);
  const { tail } = headAndTail(parts, tools.sink_tail_bytes);
  return { head, tail: { from: Math.max(tail.from, parts.length === 1 ? head.to : tail.from), to: tail.to } };
}

/** Lines of the range: its newlines, and a last line without one. */
function lineCount(log: LogReader, range: OutputRange): number {
  if (range.to <= range.from) return 0;
  const last = log.read(range.to - 1, range.to);
  return range.lines + (last.length === 1 && last[0] !== 10 ? 1 : 0);
}

function text(buf: Buffer): string {
  return new StringDecoder("utf8").end(buf);
}

/** Drops a partial line at the cut edge (when the piece has a line break at all). */
function cleanEdge(piece: string, edge: "start" | "end"): string {
  if (edge === "end") {
    const nl = piece.lastIndexOf("\n");
    return nl > 0 ? piece.slice(0, nl + 1) : piece;
  }
  const nl = piece.indexOf("\n");
  return nl >= 0 && nl < piece.length - 1 ? piece.slice(nl + 1) : piece;
}
