// The recorded events of a measured task's sessions: the session's own
// trace and those of the workers and sub-agents it started (each has its
// trace in a folder under the session's), so the totals include children.

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export interface TraceRow {
  type: string;
  agentId: string;
  sessionId: string;
  seq: number;
  [field: string]: unknown;
}

/** Every trace.jsonl under the session folder, the session's own first. */
export function traceFilesUnder(dir: string): string[] {
  const found: string[] = [];
  const walk = (d: string) => {
    const own = join(d, "trace.jsonl");
    if (existsSync(own)) found.push(own);
    for (const entry of readdirSync(d, { withFileTypes: true })) if (entry.isDirectory()) walk(join(d, entry.name));
  };
  if (existsSync(dir)) walk(dir);
  return found;
}

/** The rows of one trace file, in order; a line that is not JSON (a torn last write) is left out. */
export function readTrace(file: string): TraceRow[] {
  const rows: TraceRow[] = [];
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (!line.trim()) continue;
    try {
      const row = JSON.parse(line) as TraceRow;
      if (typeof row.type === "string") rows.push(row);
    } catch {
      // A line the process was killed while writing: nothing to count in it.
    }
  }
  return rows;
}
