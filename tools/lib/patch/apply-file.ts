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
  const fast = applyExact(text, hunks);
  if (fast) return fast;
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
  return { ok: true, text: spliceText(text, lines, finalNewline, splices), hunks: hunks.length, removed, added, normalised };
}

/**
 * `fromLines` of `lines` with the splices made (they are in order and do not
 * overlap), built from slices of `text` rather than by splicing and joining
 * every line again: on a large file most lines are unchanged, and copying
 * them one by one dominated the time of a one-line patch.
 */
function spliceText(text: string, lines: readonly string[], finalNewline: boolean, splices: readonly Splice[]): string {
  // Runs of result lines, each joined by "\n"; every run holds at least one line.
  const runs: string[] = [];
  let outLines = 0;
  let line = 0; // next unchanged line to copy
  let offset = 0; // where `line` starts in `text`
  const copyUpTo = (stop: number) => {
    if (stop <= line) return;
    let end = offset;
    for (let i = line; i < stop; i++) end += lines[i]!.length + 1;
    runs.push(text.slice(offset, end - 1));
    outLines += stop - line;
    line = stop;
    offset = end;
  };
  const skipTo = (stop: number) => {
    for (let i = line; i < stop; i++) offset += lines[i]!.length + 1;
    line = Math.max(line, stop);
  };
  for (const s of splices) {
    copyUpTo(s.start);
    skipTo(s.end);
    if (s.insert.length > 0) {
      runs.push(s.insert.join("\n"));
      outLines += s.insert.length;
    }
  }
  copyUpTo(lines.length);
  if (outLines === 0) return "";
  return runs.join("\n") + (finalNewline ? "\n" : "");
}

/**
 * The common case without splitting the file into lines (on a file of
 * megabytes, creating every line string and collecting them afterwards was
 * most of a one-line patch's time): every hunk has no end-of-file anchor,
 * its `@@` scopes occur exactly (the first line holding each, in turn, as
 * `findScopes` reads them), it removes or keeps at least one line and leaves
 * at least one, and its old lines occur exactly, line-aligned, where `locate`
 * would pick them (the only match after the previous hunk and scopes, or the
 * nearest to the hint). Anything else answers undefined and takes the line-based path, which
 * gives the same result here, so this only decides how fast it is found.
 */
function applyExact(text: string, hunks: readonly Hunk[]): ApplyResult | undefined {
  if (text === "") return undefined;
  // Lines end where their joined text ends: a final newline starts no line.
  const joinedEnd = text.endsWith("\n") ? text.length - 1 : text.length;
  const pieces: string[] = [];
  let copied = 0; // text before this offset is in `pieces`
  let cursorLine = 0; // the line after the previous hunk
  let cursorOffset = 0; // where cursorLine starts
  let removed = 0;
  let added = 0;
  for (const hunk of hunks) {
    if (hunk.eof) return undefined;
    const old = oldLines(hunk);
    const insert = hunk.lines.filter((l) => l.kind !== "-").map((l) => l.text);
    if (old.length === 0 || insert.length === 0) return undefined;
    // A "line" holding a newline never equals a file line, but its joined text could match.
    if (hunk.lines.some((l) => l.text.includes("\n"))) return undefined;
    const needle = old.join("\n");
    // An empty needle "occurs" everywhere, even past the end: leave it to the line path.
    if (needle === "") return undefined;
    let line = cursorLine;
    let counted = cursorOffset;
    // Lines before `offset` (which only grows within a hunk) counted on from the last call.
    const lineOf = (offset: number) => {
      for (let nl = text.indexOf("\n", counted); nl >= 0 && nl < offset; nl = text.indexOf("\n", nl + 1)) line++, (counted = nl + 1);
      return line;
    };
    let fromOffset = cursorOffset;
    for (const scope of hunk.scopes) {
      // A scope is found in one line; a miss goes on to the normalised search there.
      if (scope === "" || scope.includes("\n")) return undefined;
      const at = text.indexOf(scope, fromOffset);
      if (at < 0) return undefined;
      const nl = text.indexOf("\n", at);
      if (nl < 0) return undefined;
      fromOffset = nl + 1;
    }
    // Every line-aligned occurrence at or after the scopes, with its line index.
    const found: Array<{ line: number; offset: number }> = [];
    for (let at = text.indexOf(needle, fromOffset); at >= 0; at = text.indexOf(needle, at + 1)) {
      const end = at + needle.length;
      if (end > joinedEnd) break;
      if (at > 0 && text.charCodeAt(at - 1) !== 10) continue;
      if (end < joinedEnd && text.charCodeAt(end) !== 10) continue;
      found.push({ line: lineOf(at), offset: at });
    }
    if (found.length === 0) return undefined;
    let pick = found.length === 1 ? found[0] : undefined;
    if (!pick && hunk.hint !== undefined) {
      const hint = hunk.hint;
      const dist = found.map((f) => Math.abs(f.line - hint));
      const best = Math.min(...dist);
      if (dist.filter((d) => d === best).length === 1) pick = found[dist.indexOf(best)];
    }
    if (!pick) return undefined;
    pieces.push(text.slice(copied, pick.offset), insert.join("\n"));
    copied = pick.offset + needle.length;
    cursorLine = pick.line + old.length;
    cursorOffset = copied + 1;
    removed += hunk.lines.filter((l) => l.kind === "-").length;
    added += hunk.lines.filter((l) => l.kind === "+").length;
  }
  pieces.push(text.slice(copied));
  return { ok: true, text: pieces.join(""), hunks: hunks.length, removed, added, normalised: 0 };
}
