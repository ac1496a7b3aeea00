// What the person is shown of a structural tool's result: the data its
// envelope carries, laid out by kind (matches, a diff, rows), never the
// `<structural_search …>` envelope the model reads.

import type { DisplayOf, ToolDisplay } from "../../../core/tool-types.js";

/** A refusal: its `ERROR: …` line alone. */
export const errorDisplay = (error: string): ToolDisplay => ({ kind: "text", text: error });

// A match line as scan-file writes it: `path:line:column bytes=[a,b) digest=D (node_type) preview`.
const MATCH_LINE = /^(.*):(\d+):(\d+) bytes=\[\d+,\d+\) digest=\S+ (.*)$/;

/** One match line as the view shows it: the file, the line, the node type and its text. */
export function matchOfLine(line: string): DisplayOf<"matches">["matches"][number] {
  const m = MATCH_LINE.exec(line);
  return m ? { path: m[1]!, line: Number(m[2]), text: m[4]! } : { path: line };
}

export interface ListPage {
  total: number;
  page: number;
  nextPage: number;
  hint?: string;
}

export function matchesDisplay(matches: DisplayOf<"matches">["matches"], p: ListPage): ToolDisplay {
  return { kind: "matches", matches, total: p.total, page: p.page, nextPage: p.nextPage, ...(p.hint ? { hint: p.hint } : {}) };
}

/**
 * A one-file rewrite as a diff: `diff` is a unified diff of the file (its
 * `---`/`+++` header lines are left out: the display names the file).
 */
export function rewriteDisplay(path: string, diff: string, note: string): ToolDisplay {
  const hunks = diff
    .split("\n")
    .filter((l, i, all) => !(/^(---|\+\+\+) /.test(l) && !all.slice(0, i).some((x) => x.startsWith("@@"))))
    .join("\n");
  return { kind: "diff", files: [{ path, op: "update", hunks }], note };
}
