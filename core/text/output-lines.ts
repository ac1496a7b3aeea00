// How a program's output reads to the model, line by line, independent of
// what the program was: a line it redrew with carriage returns (a progress
// bar, `10%\r50%\r100%`) is its last state, and when one line template
// makes up most of the output (downloads, PASSED lines, warnings) its runs
// say how many lines they had instead of listing each one.

/** A redrawn line's last state: the text after its last carriage return that is not empty. */
function lastRedraw(line: string): string {
  if (!line.includes("\r")) return line;
  const states = line.split("\r").filter((p) => p !== "");
  return states[states.length - 1] ?? "";
}

/** Every line of `text` at its last redrawn state; CRLF is a line end. */
export function keepLastRedraws(text: string): string {
  if (!text.includes("\r")) return text;
  return text.replace(/\r+\n/g, "\n").split("\n").map(lastRedraw).join("\n");
}

/** Output with fewer non-blank lines than this is shown line for line. */
const MIN_LINES = 10;

/** Runs shorter than this stay as they are: collapsing them would save nothing. */
const MIN_SIMILAR_RUN = 3;

/**
 * A line's template: every run of letters and digits (names, numbers,
 * percentages) is one placeholder, runs of spaces are one space. Lines of one
 * template differ only in their words and numbers, not in their punctuation.
 */
function template(line: string): string {
  return line.replace(/[A-Za-z0-9]+/g, "\0").replace(/\s+/g, " ").trim();
}

/** The template more than half of the non-blank lines share, if one does. */
function dominantTemplate(templates: readonly string[]): string | undefined {
  const counts = new Map<string, number>();
  let lines = 0;
  for (const t of templates) {
    if (t === "") continue;
    lines++;
    counts.set(t, (counts.get(t) ?? 0) + 1);
  }
  if (lines < MIN_LINES) return undefined;
  for (const [t, n] of counts) if (n > lines / 2) return t;
  return undefined;
}

/**
 * Collapses only what dominates: when one template covers more than half of
 * the non-blank lines (a test run's PASSED lines, a build's warnings), each
 * run of MIN_SIMILAR_RUN or more consecutive lines of it keeps its first and
 * last line around `  ... [×N similar lines]`, N counting the whole run. The
 * other lines (the failures, the summary, anything rare) are kept as written,
 * and output where no template dominates (a listing) is left as it is.
 */
export function collapseSimilarLines(text: string): string {
  const lines = text.split("\n");
  const templates = lines.map((l) => (l.trim() === "" ? "" : template(l)));
  const bulk = dominantTemplate(templates);
  if (bulk === undefined) return text;
  const out: string[] = [];
  for (let i = 0; i < lines.length; ) {
    let j = i + 1;
    if (templates[i] === bulk) while (j < lines.length && templates[j] === bulk) j++;
    if (j - i >= MIN_SIMILAR_RUN) out.push(lines[i]!, `  ... [×${j - i} similar lines]`, lines[j - 1]!);
    else out.push(...lines.slice(i, j));
    i = j;
  }
  return out.join("\n");
}
