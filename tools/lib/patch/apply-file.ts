// Applying one file's hunks to its text. Hunks are located in order (each
// after the previous one's match, below its `@@` scopes), then spliced in
// bottom-up so earlier indices stay valid. The text is LF and BOM-free
// (tools/lib/text-file.ts decodes and re-encodes, keeping CRLF and BOM).

import { formatCandidates, locate, normaliseLine } from "./locate.js";
import { oldLines, type Hunk } from "./v4a-parse.js";

export type HunkErrorKind = "hunk_not_found" | "hunk_ambiguous" | "scope_not_found";

export type ApplyResult =
  | { ok: true; text: string; hunks: number; removed: number; added: number; normalised: number }
  | { ok: false; kind: HunkErrorKind; hunk: number; message: string };

interface Splice {
  start: number;
  end: number;
  insert: string[];
}

/** Lines of LF text, and whether it ends with a newline (an empty file counts as ending with one). */
export function toLines(text: string): { lines: string[]; finalNewline: boolean } {
  if (text === "") return { lines: [], finalNewline: true };
  const lines = text.split("\n");
  const finalNewline = lines[lines.length - 1] === "";
  if (finalNewline) lines.pop();
  return { lines, finalNewline };
}

export function fromLines(lines: readonly string[], finalNewline: boolean): string {
  if (lines.length === 0) return "";
  return lines.join("\n") + (finalNewline ? "\n" : "");
}

/** Finds the line after the nested `@@` scopes, or the scope that is missing. */
function findScopes(lines: readonly string[], scopes: readonly string[], from: number): { ok: true; next: number } | { ok: false; scope: string } {
  let cur = from;
  for (const scope of scopes) {
    let at = -1;
    for (let i = cur; i < lines.length && at < 0; i++) if (lines[i]!.includes(scope)) at = i;
    if (at < 0) {
      const want = normaliseLine(scope);
      for (let i = cur; i < lines.length && at < 0; i++) if (normaliseLine(lines[i]!).includes(want)) at = i;
    }
    if (at < 0) return { ok: false, scope };
    cur = at + 1;
  }
  return { ok: true, next: cur };
}

/**
 * Applies `hunks` to `text` (LF). `path` only names the file in messages.
 * Nothing is changed on a failure; the message carries repair candidates.
 */
export function applyHunks(text: string, hunks: readonly Hunk[], path: string): ApplyResult {
  const { lines, finalNewline } = toLines(text);
  const splices: Splice[] = [];
  let cursor = 0;
  let removed = 0;
  let added = 0;
  let normalised = 0;
  for (const [n, hunk] of hunks.entries()) {
    const label = `hunk ${n + 1}${hunks.length > 1 ? ` of ${hunks.length}` : ""} (patch line ${hunk.line})`;
    let from = cursor;
    if (hunk.scopes.length > 0) {
      const scoped = findScopes(lines, hunk.scopes, cursor);
      if (!scoped.ok) {
        return { ok: false, kind: "scope_not_found", hunk: n + 1, message: `${path}: ${label}: scope '@@ ${scoped.scope}' not found${cursor > 0 ? ` after line ${cursor}` : ""}` };
      }
      from = scoped.next;
    }
    const old = oldLines(hunk);
    let start: number;
    if (old.length === 0) {
      // Pure insertion: at the hint, after the scope, or at the end of the file.
      start = hunk.eof ? lines.length : hunk.hint !== undefined ? Math.min(Math.max(hunk.hint, from), lines.length) : hunk.scopes.length > 0 ? from : lines.length;
    } else {
      const found = locate(lines, old, hunk.hint === undefined ? { from, eof: hunk.eof } : { from, eof: hunk.eof, hint: hunk.hint });
      if (!found.ok) {
        const what =
          found.kind === "ambiguous"
            ? `${label}: old lines match ${found.candidates.length} places${from > 0 ? ` after line ${from}` : ""}; add context lines or an '@@' scope so they match once`
            : `${label}: old lines not found${hunk.eof ? " at the end of the file" : ""}${from > 0 ? ` after line ${from}` : ""}`;
        return {
          ok: false,
          kind: found.kind === "ambiguous" ? "hunk_ambiguous" : "hunk_not_found",
          hunk: n + 1,
          message: `${path}: ${what}\n${formatCandidates(path, found.candidates, found.kind === "ambiguous")}`,
        };
      }
      start = found.index;
      if (found.normalised) normalised++;
    }
    // Context lines keep the file's own text (a normalised match may differ in spacing).
    const insert: string[] = [];
    let at = start;
    for (const l of hunk.lines) {
      if (l.kind === " ") insert.push(lines[at++]!);
      else if (l.kind === "-") {
        at++;
        removed++;
      } else {
        insert.push(l.text);
        added++;
      }
    }
    splices.push({ start, end: start + old.length, insert });
    cursor = start + old.length;
  }
  const out = [...lines];
  for (const s of [...splices].reverse()) out.splice(s.start, s.end - s.start, ...s.insert);
  return { ok: true, text: fromLines(out, finalNewline), hunks: hunks.length, removed, added, normalised };
}
