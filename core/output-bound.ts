// The one place tool output is bounded. Past the limit the model sees the head
// and the tail, joined by a line that says how much was cut and where the
// whole text was saved, so it can read or grep the rest instead of rerunning.

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface BoundOptions {
  maxChars: number;
  /** Share of the kept text taken from the head (the rest from the tail). */
  headRatio: number;
  /** Directory the full text is saved in. */
  saveDir: string;
  /** File name stem, e.g. the call id. */
  name: string;
}

export interface Bounded {
  text: string;
  fullOutputPath?: string;
}

export function boundOutput(text: string, opts: BoundOptions): Bounded {
  if (text.length <= opts.maxChars) return { text };
  mkdirSync(opts.saveDir, { recursive: true });
  const fullOutputPath = join(opts.saveDir, `${safeName(opts.name)}.txt`);
  writeFileSync(fullOutputPath, text);

  const headBudget = Math.floor(opts.maxChars * opts.headRatio);
  const tailBudget = opts.maxChars - headBudget;
  const head = cutAtLineEnd(text.slice(0, headBudget));
  const tail = cutAtLineStart(text.slice(text.length - tailBudget));
  const omitted = text.length - head.length - tail.length;
  const omittedLines = countLines(text.slice(head.length, text.length - tail.length));
  const marker =
    `[... ${omitted} chars omitted (${omittedLines} lines); ` +
    `full output (${text.length} chars) saved to ${fullOutputPath} — read or grep it for the rest ...]`;
  return { text: `${head}\n${marker}\n${tail}`, fullOutputPath };
}

/** Drops a partial last line, unless that would drop everything. */
function cutAtLineEnd(s: string): string {
  const nl = s.lastIndexOf("\n");
  return nl > 0 ? s.slice(0, nl) : s;
}

/** Drops a partial first line, unless that would drop everything. */
function cutAtLineStart(s: string): string {
  const nl = s.indexOf("\n");
  return nl >= 0 && nl < s.length - 1 ? s.slice(nl + 1) : s;
}

function countLines(s: string): number {
  if (!s) return 0;
  let n = 1;
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) === 10) n++;
  return n;
}

function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 80) || "output";
}
