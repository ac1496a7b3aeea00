// Applying one file's hunks to its text. Hunks are located in order (each
// after the previous one's match, below its `@@` scopes), then spliced in.
// Every line keeps its own ending: untouched and context lines keep theirs,
// an added line takes the ending of the line it replaces (or of the line it
// is inserted before, or of the line before when it goes at the end), and a
// line that had no ending gets the one before it once it is no longer last.

import { firstEnding, splitKeepingEndings, terminateLines, type LineEnding } from "../line-endings.js";
import { tolerantLineReplace } from "../punctuation-fold.js";
import { missingHunkCause } from "./chord-hunk-cause.js";
import { expectedLineDescription } from "./hunk-diagnosis.js";
import { formatCandidates, locate, normaliseLine, type MatchTier } from "./locate.js";
import { udiffLocateFailure } from "./udiff-failure.js";
import { oldLines, type Hunk } from "./v4a-parse.js";

export type HunkErrorKind = "hunk_not_found" | "hunk_ambiguous" | "scope_not_found";

export type ApplyResult =
  | { ok: true; text: string; hunks: number; removed: number; added: number; tolerant: number }
  | { ok: false; kind: HunkErrorKind; hunk: number; message: string };

export interface ApplyOptions {
  /** Chord: try punctuation-tolerant matching, splice changes into the file's own characters, Chord's wording. */
  chord?: boolean;
  /** The result ends with a newline (V4A); otherwise the last line ends as the patch says (unified diff). */
  finalNewline: boolean;
  /** Yuj `udiff`: a failed hunk is told as the edit tool tells a miss, with its `<candidates>` block. */
  unifiedDiff?: boolean;
}

interface Splice {
  start: number;
  end: number;
  lines: string[];
  endings: LineEnding[];
  order: number;
  /** Context lines the hunk ends with: the next hunk may begin on them. */
  trailingContext: number;
}

/** Finds the nested `@@` scopes: the line after them, and the line the last one is on. */
function findScopes(lines: readonly string[], scopes: readonly string[], from: number): { ok: true; next: number; at: number } | { ok: false; scope: string } {
  let cur = from;
  let at = -1;
  for (const scope of scopes) {
    at = -1;
    for (let i = cur; i < lines.length && at < 0; i++) if (lines[i]!.includes(scope)) at = i;
    if (at < 0) {
      const want = normaliseLine(scope);
      for (let i = cur; i < lines.length && at < 0; i++) if (normaliseLine(lines[i]!).includes(want)) at = i;
    }
    if (at < 0) return { ok: false, scope };
    cur = at + 1;
  }
  return { ok: true, next: cur, at };
}

/**
 * Applies `hunks` to `text` (as decoded, line endings included). `path`
 * only names the file in messages. Nothing is changed on a failure; the
 * message carries repair candidates.
 */
export function applyHunks(text: string, hunks: readonly Hunk[], path: string, options: ApplyOptions): ApplyResult {
  const { lines, endings } = splitKeepingEndings(text);
  const fallback = firstEnding(endings);
  const splices: Splice[] = [];
  let cursor = 0;
  let removed = 0;
  let added = 0;
  let tolerant = 0;
  for (const [n, hunk] of hunks.entries()) {
    let from = cursor;
    const old = oldLines(hunk);
    if (hunk.scopes.length > 0) {
      const scoped = findScopes(lines, hunk.scopes, cursor);
      if (!scoped.ok) {
        const label = hunkLabel(n, hunks.length, hunk, options);
        const within = hunk.scopes.indexOf(scoped.scope) > 0 ? " within prior @@ scope" : cursor > 0 ? ` after line ${cursor}` : "";
        return { ok: false, kind: "scope_not_found", hunk: n + 1, message: `${path}: ${label}: @@ scope header not found${within}: '@@ ${scoped.scope}' (${anchorWords(scoped.scope)} was not found)` };
      }
      // A hunk that repeats its header as its first context line starts at the header's line.
      const last = hunk.scopes[hunk.scopes.length - 1]!;
      from = old.length > 0 && normaliseLine(old[0]!) === normaliseLine(last) ? scoped.at : scoped.next;
    }
    let start: number;
    let tier: MatchTier = "exact";
    const pureAppend = old.length === 0 && hunk.hint === undefined && (hunk.eof || hunk.scopes.length === 0);
    if (old.length === 0) {
      start = pureAppend ? lines.length : hunk.hint !== undefined ? Math.min(Math.max(hunk.hint, from), lines.length) : from;
    } else {
      let found = locate(lines, old, { from, eof: hunk.eof, punctuation: options.chord, firstExact: options.chord });
      const prev = splices.at(-1);
      if (!found.ok && options.chord && prev && hunk.scopes.length === 0) {
        // Chord lets consecutive hunks share context: the second may start on the first one's last context lines.
        const back = Math.min(prev.trailingContext, contextRun(hunk.lines));
        const retry = back > 0 ? locate(lines, old, { from: from - back, eof: hunk.eof, punctuation: true, firstExact: true }) : found;
        if (retry.ok && retry.index < from) {
          trimSharedContext(prev, from - retry.index);
          found = retry;
        }
      }
      if (!found.ok) return { ok: false, ...locateFailure(lines, old, hunks, n, from, found, path, options) };
      start = found.index;
      tier = found.tier;
      // Chord, as the reference: lines equal once their ends are trimmed match silently (its whitespace layers); only a
      // match that needed more (re-spaced runs, punctuation) is the tolerant match its note names.
      if (tier !== "exact" && !(options.chord && tier === "whitespace" && old.every((l, k) => l.trim() === lines[start + k]!.trim()))) tolerant++;
    }
    const out = spliceLines(lines, endings, hunk, start, options.chord === true && tier !== "exact");
    removed += out.removed;
    added += out.added;
    splices.push({ start, end: start + old.length, lines: out.lines, endings: out.endings, order: n, trailingContext: contextRun([...hunk.lines].reverse()) });
    // Appending at the end does not move later hunks' search past the whole file.
    if (!pureAppend) cursor = start + old.length;
  }
  const out = assemble(text, lines, endings, splices, options.finalNewline, fallback);
  return { ok: true, text: out, hunks: hunks.length, removed, added, tolerant };
}

/** How many context lines `lines` starts with. */
function contextRun(lines: readonly { kind: string }[]): number {
  const n = lines.findIndex((l) => l.kind !== " ");
  return n < 0 ? lines.length : n;
}

/** Hands the last `count` (context) lines of a splice to the hunk that starts on them. */
function trimSharedContext(splice: Splice, count: number): void {
  splice.end -= count;
  splice.lines.splice(-count);
  splice.endings.splice(-count);
}

/** The hunk's replacement for the file lines at `start`, each with its ending. */
function spliceLines(lines: readonly string[], endings: readonly LineEnding[], hunk: Hunk, start: number, keepFileChars: boolean) {
  const outLines: string[] = [];
  const outEndings: LineEnding[] = [];
  let at = start;
  let removed = 0;
  let added = 0;
  // The lines removed since the last context line: the added lines that follow replace them.
  let run: Array<{ file: string; model: string; ending: LineEnding }> = [];
  let plus = 0;
  const endingBefore = (i: number): LineEnding => {
    for (let k = i; k >= 0; k--) if (endings[k] !== "") return endings[k]!;
    return firstEnding(endings);
  };
  for (const l of hunk.lines) {
    if (l.kind === " ") {
      outLines.push(lines[at]!);
      outEndings.push(endings[at]!);
      at++;
      run = [];
      plus = 0;
    } else if (l.kind === "-") {
      if (plus > 0) {
        run = [];
        plus = 0;
      }
      run.push({ file: lines[at]!, model: l.text, ending: endings[at]! });
      at++;
      removed++;
    } else {
      const replaced = run[Math.min(plus, run.length - 1)];
      const paired = plus < run.length ? run[plus] : undefined;
      plus++;
      added++;
      outLines.push(keepFileChars && paired ? tolerantLineReplace(paired.file, paired.model, l.text) : l.text);
      let ending: LineEnding = replaced ? replaced.ending : at < lines.length ? endings[at]! : endingBefore(at - 1);
      if (ending === "") ending = endingBefore(at - 1);
      outEndings.push(l.noNewline ? "" : ending);
    }
  }
  return { lines: outLines, endings: outEndings, removed, added };
}

type Segment = { copy: [number, number] } | { lines: string[]; endings: LineEnding[] };

/**
 * The file with the splices made, in file order (insertions at one place in
 * hunk order). Unchanged runs of lines are copied from `text` as they are:
 * on a file of megabytes, rebuilding every line cost most of a one-line patch.
 */
function assemble(text: string, lines: readonly string[], endings: readonly LineEnding[], splices: Splice[], finalNewline: boolean, fallback: LineEnding): string {
  const sorted = [...splices].sort((a, b) => a.start - b.start || a.end - b.end || a.order - b.order);
  const segments: Segment[] = [];
  let line = 0;
  for (const s of sorted) {
    if (s.start > line) segments.push({ copy: [line, s.start] });
    if (s.lines.length > 0) segments.push({ lines: s.lines, endings: [...s.endings] });
    line = Math.max(line, s.end);
  }
  if (line < lines.length) segments.push({ copy: [line, lines.length] });
  const offsets: number[] = new Array(lines.length + 1);
  let at = 0;
  for (let i = 0; i < lines.length; i++) {
    offsets[i] = at;
    at += lines[i]!.length + endings[i]!.length;
  }
  offsets[lines.length] = at;
  // A line without an ending that is no longer last takes the ending before it; the last one too with finalNewline.
  let before: LineEnding = fallback;
  const parts: string[] = [];
  for (const [k, seg] of segments.entries()) {
    const last = k === segments.length - 1;
    if ("copy" in seg) {
      const [from, to] = seg.copy;
      parts.push(text.slice(offsets[from], offsets[to]));
      const end = endings[to - 1]!;
      if (end === "" && (!last || finalNewline)) {
        const prev = to - 2 >= from ? endings[to - 2]! : before;
        parts.push(prev === "" ? fallback : prev);
        before = prev === "" ? fallback : prev;
      } else if (end !== "") before = end;
      continue;
    }
    const e = seg.endings;
    terminateLines(e, !last || finalNewline, before);
    for (let i = 0; i < e.length; i++) parts.push(seg.lines[i]!, e[i]!);
    if (e[e.length - 1] !== "") before = e[e.length - 1]!;
  }
  return parts.join("");
}

function hunkLabel(n: number, total: number, hunk: Hunk, options: ApplyOptions): string {
  if (options.chord) return `hunk not found (${n + 1}/${total}) at patch line ${hunk.line}`;
  return `hunk ${n + 1}${total > 1 ? ` of ${total}` : ""} (patch line ${hunk.line})`;
}

function locateFailure(
  lines: readonly string[],
  old: readonly string[],
  hunks: readonly Hunk[],
  n: number,
  from: number,
  found: Extract<ReturnType<typeof locate>, { ok: false }>,
  path: string,
  options: ApplyOptions,
): { kind: HunkErrorKind; hunk: number; message: string } {
  const hunk = hunks[n]!;
  const ambiguous = found.kind === "ambiguous";
  const where = found.candidates.map((c) => c.line).join(", ");
  const parts: string[] = [];
  if (options.unifiedDiff) return udiffLocateFailure(n, hunks.length, hunk, found, path, from);
  if (options.chord) {
    parts.push(ambiguous ? `hunk ambiguous (${n + 1}/${hunks.length}) at patch line ${hunk.line}` : hunkLabel(n, hunks.length, hunk, options));
    // A blank context line is a line of the file, not a stand-in for lines left out.
    if (hunk.lines.some((l) => l.kind === " " && l.text.trim() === "")) {
      parts.push("whitespace-only context lines are literal source lines; the leading space marks context, so do not use them as omitted-line placeholders");
    }
    if (ambiguous) {
      const how = found.tier === "exact" ? "the old lines match" : "punctuation/whitespace-tolerant matching is ambiguous";
      // Chord names the first three places and marks that there are more; the spans below show them.
      const lines = found.candidates.map((c) => c.line);
      const named = lines.length > 3 ? `${lines.slice(0, 3).join(", ")}, …` : lines.join(", ");
      parts.push(`${how} at lines ${named}; add context lines or an '@@' header so they match once`);
    } else {
      const expected = expectedLineDescription(old);
      if (expected) parts.push(expected);
      const earlier = from > 0 ? locate(lines, old, { from: 0, eof: hunk.eof, punctuation: true }) : undefined;
      if (earlier?.ok && earlier.index < from) {
        parts.push(`matching context exists earlier at line ${earlier.index + 1}, but hunks must follow file order`);
      } else {
        parts.push(...missingHunkCause(lines, old, from, hunk.eof));
      }
    }
    parts.push("do not retry the same hunk unchanged");
    if (n > 0) {
      parts.push(
        `note: hunks 1..${n} matched successfully in memory but were not applied because this hunk failed, so keep all hunks 1..${hunks.length} together when rebuilding this operation`,
      );
    }
  } else {
    const label = hunkLabel(n, hunks.length, hunk, options);
    parts.push(
      ambiguous
        ? `${label}: old lines match ${found.candidates.length} positions ${hunk.scopes.length > 0 ? "within @@ scope" : from > 0 ? `in file after line ${from}` : "in file"} (lines ${where}); add context lines or an '@@' scope so they match once`
        : `${label}: old lines not found${hunk.eof ? " at the end of the file" : ""}${from > 0 ? ` after line ${from}` : ""}`,
    );
  }
  // Chord: an End of File hunk can only match the file's tail, so a span above it is no place to copy from.
  const tail = lines.length - old.length;
  const shown = options.chord && hunk.eof && !ambiguous ? found.candidates.filter((c) => c.line - 1 >= tail) : found.candidates;
  return {
    kind: ambiguous ? "hunk_ambiguous" : "hunk_not_found",
    hunk: n + 1,
    message: `${path}: ${parts.join("; ")}\n${formatCandidates(path, shown, ambiguous)}`,
  };
}

/** `@@ header anchor "name"`: the name a scope header declares (a function, class, …), else the header. */
function anchorWords(scope: string): string {
  const declared = /([A-Za-z_$][\w$]*)\s*[(<:{]/.exec(scope.replace(/^\s*(?:export\s+)?(?:async\s+)?(?:func|function|def|class|fn|pub\s+fn|struct|impl|interface|type)\s+/, ""));
  return `@@ header anchor ${JSON.stringify(declared?.[1] ?? scope.trim())}`;
}
