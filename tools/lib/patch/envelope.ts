// The result envelope of Yuj's patch tools: one line per file operation. The
// model reads the envelope; the view shows the same lines without it.

import { fail, ok, type ToolResult } from "../../../core/tool-types.js";
import type { OpSummary, PatchErrorKind } from "./plan.js";

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? "" : "s"}`;

/** The per-op line of a success envelope. */
export function summaryLine(s: OpSummary): string {
  switch (s.op.kind) {
    case "add":
      return `  added: ${s.display} (${plural(s.lines, "line")})`;
    case "delete":
      return `  deleted: ${s.display}`;
    case "update":
      if (s.moveDisplay !== undefined) return `  moved: ${s.display} -> ${s.moveDisplay} (${plural(s.hunks, "hunk")}, ~${s.removed}/+${s.added})`;
      return `  updated: ${s.display} (${plural(s.hunks, "hunk")}, ~${s.removed}/+${s.added})`;
  }
}

function envelopeOk(tag: string, countAttr: string, summaries: readonly OpSummary[]): string {
  return [`<${tag} ok="true" ${countAttr}="${summaries.length}" v="1">`, ...summaries.map(summaryLine), `</${tag}>`].join("\n");
}

function envelopeFail(tag: string, kind: PatchErrorKind, message: string): string {
  return `<${tag} ok="false" error_kind="${kind}" v="1">\nERROR: ${message}\n</${tag}>`;
}

/** A successful patch: the envelope for the model, its lines for the view. */
export function patchApplied(tag: string, countAttr: string, summaries: readonly OpSummary[]): ToolResult {
  return ok(envelopeOk(tag, countAttr, summaries), { kind: "text", text: summaries.map((x) => summaryLine(x).trim()).join("\n") });
}

/** A refused patch: nothing changed. */
export function patchRefused(tag: string, kind: PatchErrorKind, message: string): ToolResult {
  return fail(envelopeFail(tag, kind, message), { kind: "text", text: `ERROR: ${message}` });
}
