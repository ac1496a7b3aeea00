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

export function splitKeepingEndings(text: string): EndedLines {
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

export function joinKeepingEndings(lines: readonly string[], endings: readonly LineEnding[]): string {
  let out = "";
  for (let i = 0; i < lines.length; i++) out += lines[i]! + endings[i]!;
  return out;
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

/** The text with every line ending written as LF: what a model reads and quotes. */
export function lfView(text: string): { lf: string; ended: EndedLines } {
  const ended = splitKeepingEndings(text);
  return { lf: joinKeepingEndings(ended.lines, ended.endings.map((e) => (e === "" ? "" : "\n"))), ended };
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
export function replaceKeepingEndings(ended: EndedLines, replacements: readonly LfReplacement[]): string {
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
