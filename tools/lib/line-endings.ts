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
