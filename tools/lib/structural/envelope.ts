// The result envelopes of the structural tools: `<TOOL status="ok" … v="1">`,
// a body, `</TOOL>`; failures as `status="error" error_kind="K"` around one
// `ERROR: …` line, so a reader can branch on the status attribute alone.

import { createHash } from "node:crypto";
import { xmlEscape } from "../search-envelope.js";

export type Attr = [name: string, value: string | number | boolean | undefined];

const ENVELOPE_VERSION = "1";

function open(tool: string, attrs: readonly Attr[]): string {
  const parts = attrs
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}="${xmlEscape(String(v))}"`);
  return `<${tool} ${[...parts, `v="${ENVELOPE_VERSION}"`].join(" ")}>`;
}

export function envelope(tool: string, attrs: readonly Attr[], body: readonly string[]): string {
  return [open(tool, [["status", "ok"], ...attrs]), ...body, `</${tool}>`].join("\n");
}

/** `error` is the whole `ERROR: …` text. */
export function errorEnvelope(tool: string, kind: string, attrs: readonly Attr[], error: string): string {
  return [open(tool, [["status", "error"], ["error_kind", kind], ...attrs]), error, `</${tool}>`].join("\n");
}

export const sha256Hex = (data: string | Uint8Array): string => createHash("sha256").update(data).digest("hex");

const PREVIEW_CHARS = 80;

/** A match's text as one short line: its first line, blanks collapsed, `…` where cut. */
export function shortPreview(text: string): string {
  const lines = text.split("\n");
  let first = lines[0]!.replace(/\s+/g, " ").trim();
  const more = lines.length > 1 && lines.slice(1).some((l) => l.trim() !== "");
  if (first.length > PREVIEW_CHARS) return `${first.slice(0, PREVIEW_CHARS - 1)}…`;
  if (more) first += " …";
  return first === "" ? '""' : first;
}
