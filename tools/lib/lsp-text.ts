// How language-server answers read in a tool result: an edited file's
// diagnostics (one line each, `[E] line:col [code] message`, one-based as a
// compiler prints them), and the lsp tool's locations and symbols
// (`path:line:col  preview`, zero-based like the tool's own inputs, so a
// result can be fed straight back into another lsp call).

import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import type { SeverityName } from "../../core/lsp/config.js";
import type { LspAnswer } from "../../core/lsp/manager.js";
import type { CheckedDiagnostics } from "../../core/lsp/client.js";
import { SEVERITY_RANK, symbolKindName, type Diagnostic, type DocumentSymbol, type Location, type LocationLink, type SymbolInformation } from "../../core/lsp/protocol.js";

const LETTER = ["E", "E", "W", "I", "H"] as const;
/** Diagnostics listed per file; the rest are counted. */
const MAX_DIAGNOSTICS = 20;
const PREVIEW_CHARS = 120;

/** Diagnostics at `min` or more severe; a diagnostic without a severity counts as an error. */
function atLeast(diagnostics: readonly Diagnostic[], min: SeverityName): Diagnostic[] {
  const limit = SEVERITY_RANK[min];
  return diagnostics
    .filter((d) => (d.severity ?? 1) <= limit)
    .sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
}

function diagnosticLine(d: Diagnostic): string {
  const at = `${d.range.start.line + 1}:${d.range.start.character + 1}`;
  const code = d.code === undefined || d.code === "" ? "" : ` [${d.code}]`;
  const message = d.message.replace(/\s*\n\s*/g, " ").trim();
  return `[${LETTER[d.severity ?? 1]}] ${at}${code} ${message}`;
}

const BELOW = [
  [2, "warning", "warnings"],
  [3, "information", "information"],
  [4, "hint", "hints"],
] as const;

/**
 * How many diagnostics the severity setting left out, by kind (` (1 warning
 * below it)`): the model learns they exist without their text, as the
 * reference counts warnings beside errors.
 */
function belowNote(diagnostics: readonly Diagnostic[], min: SeverityName): string {
  const parts: string[] = [];
  for (const [rank, one, many] of BELOW) {
    if (rank <= SEVERITY_RANK[min]) continue;
    const n = diagnostics.filter((d) => d.severity === rank).length;
    if (n) parts.push(`${n} ${n === 1 ? one : many}`);
  }
  return parts.length ? ` (${parts.join(", ")} below it)` : "";
}

/** The report an edit's result gets for one file. */
export function diagnosticsReport(display: string, answer: LspAnswer<CheckedDiagnostics>, min: SeverityName, timeoutS: number): string {
  if (answer.kind === "none") return "";
  const head = `Diagnostics (${answer.server}) ${display}:`;
  switch (answer.kind) {
    case "ok": {
      const shown = atLeast(answer.value.diagnostics, min);
      const unconfirmed = answer.value.settled ? "" : ` (the server had not confirmed them within ${timeoutS} s)`;
      const scope = `at severity ${min} or above${belowNote(answer.value.diagnostics, min)}${unconfirmed}`;
      if (shown.length === 0) return `${head} none ${scope}`;
      const lines = shown.slice(0, MAX_DIAGNOSTICS).map(diagnosticLine);
      if (shown.length > MAX_DIAGNOSTICS) lines.push(`… ${shown.length - MAX_DIAGNOSTICS} more`);
      return [`${head} ${shown.length} ${scope}`, ...lines].join("\n");
    }
    case "timeout":
      return `${head} none arrived within ${timeoutS} s ([lsp].timeout_s); the edit is kept`;
    case "failed":
      return `${head} unavailable: ${answer.reason}; the edit is kept`;
    case "cancelled":
      return `${head} not waited for (cancelled)`;
  }
}

/** A location as the lsp tool prints it: path relative to the project when inside it. */
export interface ShownLocation {
  file: string;
  line: number;
  character: number;
}

export function toShown(loc: Location | LocationLink): ShownLocation | undefined {
  const uri = "targetUri" in loc ? loc.targetUri : loc.uri;
  const range = "targetUri" in loc ? loc.targetSelectionRange : loc.range;
  if (!uri?.startsWith("file:") || !range) return undefined;
  return { file: fileURLToPath(uri), line: range.start.line, character: range.start.character };
}

export function relativeOrAbsolute(cwdReal: string, file: string): string {
  const rel = path.relative(cwdReal, file);
  return rel === "" || rel.startsWith("..") || path.isAbsolute(rel) ? file : rel;
}

/** `path:line:col  preview`; the preview only for files inside the project (the file tools' rule). */
export function locationLine(cwdReal: string, loc: ShownLocation, lines: (file: string) => string[] | undefined): string {
  const shown = relativeOrAbsolute(cwdReal, loc.file);
  const inside = shown !== loc.file || loc.file === cwdReal;
  const text = inside ? lines(loc.file)?.[loc.line] : undefined;
  const preview = text === undefined ? "" : `  ${clip(text.trim())}`;
  return `${shown}:${loc.line}:${loc.character}${preview}`;
}

/** Reads each file once per result. */
export function lineCache(): (file: string) => string[] | undefined {
  const cache = new Map<string, string[] | undefined>();
  return (file) => {
    if (!cache.has(file)) {
      try {
        cache.set(file, fs.readFileSync(file, "utf8").split(/\r?\n/));
      } catch {
        cache.set(file, undefined);
      }
    }
    return cache.get(file);
  };
}

/** Symbols as an outline: `path:line:col  kind name`, nested ones indented under their parent. */
export function symbolLines(display: string, symbols: ReadonlyArray<DocumentSymbol | SymbolInformation>): string[] {
  const out: string[] = [];
  const walk = (list: readonly DocumentSymbol[], depth: number) => {
    for (const s of list) {
      const at = s.selectionRange?.start ?? s.range.start;
      const detail = s.detail ? ` ${clip(s.detail.replace(/\s+/g, " "))}` : "";
      out.push(`${display}:${at.line}:${at.character}  ${"  ".repeat(depth)}${symbolKindName(s.kind)} ${s.name}${detail}`);
      if (s.children?.length) walk(s.children, depth + 1);
    }
  };
  const nested = symbols.filter((s): s is DocumentSymbol => "range" in s && !("location" in s));
  if (nested.length === symbols.length) walk(nested, 0);
  else {
    for (const s of symbols as SymbolInformation[]) {
      const at = s.location.range.start;
      const within = s.containerName ? ` (in ${s.containerName})` : "";
      out.push(`${display}:${at.line}:${at.character}  ${symbolKindName(s.kind)} ${s.name}${within}`);
    }
  }
  return out;
}

function clip(s: string): string {
  return s.length > PREVIEW_CHARS ? `${s.slice(0, PREVIEW_CHARS - 1)}…` : s;
}
