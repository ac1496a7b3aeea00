// Text as lines that each keep their own ending, so a change to some lines
// leaves every other line's bytes alone: a file mixing LF and CRLF stays
// mixed, a CR-only (old Mac) file stays CR-only, and a lone CR inside a CRLF
// file still ends a line, as an editor shows it.

export type LineEnding = "\n" | "\r\n" | "\r" | "";

export interface EndedLines {
  lines: string[];
  /** The ending of each line; only the last may be "" (no final newline). */
  endings: LineEnding[];
}

/** The one ending every line has, when the text has no other ("" when it has no line break). */
function uniformEnding(text: string): LineEnding | undefined {
  const cr = text.indexOf("\r");
  if (cr < 0) return text.includes("\n") ? "\n" : "";
  // CRLF throughout: as many CRs as LFs, and every CR followed by LF.
  let crs = 0;
  for (let i = cr; i >= 0; i = text.indexOf("\r", i + 1)) {
    if (text.charCodeAt(i + 1) !== 10) return undefined;
    crs++;
  }
  let lfs = 0;
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) lfs++;
  return crs === lfs ? "\r\n" : undefined;
}

export function splitKeepingEndings(text: string): EndedLines {
  // The common files, split natively: on a file of megabytes the character loop below cost most of an edit.
  const uniform = uniformEnding(text);
  if (uniform !== undefined) {
    if (text === "") return { lines: [], endings: [] };
    const lines = uniform === "" ? [text] : text.split(uniform);
    const endings: LineEnding[] = new Array(lines.length).fill(uniform);
    if (lines[lines.length - 1] === "") {
      lines.pop();
      endings.pop();
    } else endings[endings.length - 1] = "";
    return { lines, endings };
  }
  const lines: string[] = [];
  const endings: LineEnding[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 10 && c !== 13) continue;
    lines.push(text.slice(start, i));
    if (c === 13 && text.charCodeAt(i + 1) === 10) {
      endings.push("\r\n");
      i++;
    } else endings.push(c === 13 ? "\r" : "\n");
    start = i + 1;
  }
  if (start < text.length) {
    lines.push(text.slice(start));
    endings.push("");
  }
  return { lines, endings };
}

function joinKeepingEndings(lines: readonly string[], endings: readonly LineEnding[]): string {
  const n = lines.length;
  if (n === 0) return "";
  const first = endings[0]!;
  let uniform = first !== "";
  for (let i = 1; uniform && i < n - 1; i++) if (endings[i] !== first) uniform = false;
  if (uniform && (n === 1 || endings[n - 1] === first || endings[n - 1] === "")) return lines.join(first) + endings[n - 1]!;
  const parts: string[] = new Array(2 * n);
  for (let i = 0; i < n; i++) {
    parts[2 * i] = lines[i]!;
    parts[2 * i + 1] = endings[i]!;
  }
  return parts.join("");
}

/** The ending a new line gets when nothing near it decides: the file's first, else LF. */
export function firstEnding(endings: readonly LineEnding[]): LineEnding {
  return endings.find((e) => e !== "") ?? "\n";
}

/**
 * A line without an ending that is no longer last gets the ending of the line
 * before it (or the file's first ending); with `finalNewline`, the last line
 * gets one too.
 */
export function terminateLines(endings: LineEnding[], finalNewline: boolean, fallback: LineEnding): void {
  for (let i = 0; i < endings.length; i++) {
    if (endings[i] !== "") continue;
    if (i === endings.length - 1 && !finalNewline) continue;
    endings[i] = i > 0 && endings[i - 1] !== "" ? endings[i - 1]! : fallback;
  }
}

export interface LfView {
  /** The text with every line ending written as LF. */
  lf: string;
  ended: EndedLines;
  /** The one ending all lines share, when they do. */
  uniform?: LineEnding;
}

/** The text with every line ending written as LF: what a model reads and quotes. */
export function lfView(text: string): LfView {
  const ended = splitKeepingEndings(text);
  const uniform = uniformEnding(text);
  if (uniform === "" || uniform === "\n") return { lf: text, ended, uniform };
  const lf = uniform === "\r\n" ? text.replace(/\r\n/g, "\n") : joinKeepingEndings(ended.lines, ended.endings.map((e) => (e === "" ? "" : "\n")));
  return uniform === undefined ? { lf, ended } : { lf, ended, uniform };
}

export interface LfReplacement {
  /** Offsets into the LF view. */
  start: number;
  end: number;
  insert: string;
}

/**
 * The original text with replacements (made on its LF view; in order, not
 * overlapping) applied so that every untouched line keeps its ending, and
 * the lines a replacement writes take the endings of the lines it replaces
 * (its last line the ending of the last replaced line).
 */
export function replaceKeepingEndings(view: LfView, replacements: readonly LfReplacement[]): string {
  if (view.uniform !== undefined) {
    // One ending throughout: every written line takes it, so the LF view can be spliced directly.
    const parts: string[] = [];
    let at = 0;
    for (const r of replacements) {
      parts.push(view.lf.slice(at, r.start), r.insert);
      at = r.end;
    }
    parts.push(view.lf.slice(at));
    const out = parts.join("");
    return view.uniform === "\r\n" ? out.replace(/\r?\n/g, "\r\n") : out;
  }
  const ended = view.ended;
  const lines = [...ended.lines];
  const endings = [...ended.endings];
  // A virtual empty last line after a final newline: an edit may end there.
  lines.push("");
  endings.push("");
  const lineStart: number[] = [];
  let at = 0;
  for (const l of ended.lines) {
    lineStart.push(at);
    at += l.length + 1;
  }
  lineStart.push(at);
  const lineOf = (offset: number): number => {
    let lo = 0;
    let hi = lineStart.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStart[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const fallback = firstEnding(ended.endings);
  // From the last to the first, so earlier offsets still point where they did.
  for (const r of [...replacements].reverse()) {
    const sl = lineOf(r.start);
    const el = lineOf(r.end);
    const head = lines[sl]!.slice(0, r.start - lineStart[sl]!);
    const tail = lines[el]!.slice(r.end - lineStart[el]!);
    const written = (head + r.insert + tail).split("\n");
    const oldEndings = endings.slice(sl, el + 1);
    const newEndings = written.map((_, j): LineEnding => {
      if (j === written.length - 1) return oldEndings[oldEndings.length - 1]!;
      const e = oldEndings[Math.min(j, Math.max(0, oldEndings.length - 2))]!;
      if (e !== "") return e;
      for (let k = sl - 1; k >= 0; k--) if (endings[k] !== "") return endings[k]!;
      return fallback;
    });
    lines.splice(sl, el - sl + 1, ...written);
    endings.splice(sl, el - sl + 1, ...newEndings);
  }
  return joinKeepingEndings(lines, endings);
}
