// How a program's output reads to the model, line by line, independent of
// what the program was: a line it redrew with carriage returns (a progress
// bar, `10%\r50%\r100%`) is its last state, and a long run of lines that
// differ only in their numbers (downloads, file counters, timestamps) says
// how many there were instead of listing each one.

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

/** Runs shorter than this stay as they are: collapsing them would save nothing. */
const MIN_SIMILAR_RUN = 4;

/**
 * What makes lines "similar": the same text once every number, hexadecimal
 * id and run of spaces is set aside.
 */
function shape(line: string): string {
  return line
    .replace(/\b(?=[0-9a-f]*\d)[0-9a-f]{7,}\b/gi, "#")
    .replace(/\d+/g, "0")
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * A run of MIN_SIMILAR_RUN or more consecutive non-blank lines of one shape
 * keeps its first and last line, and between them `[×N similar lines]` for
 * the N lines left out.
 */
export function collapseSimilarLines(text: string): string {
  const lines = text.split("\n");
  const out: string[] = [];
  for (let i = 0; i < lines.length; ) {
    const s = shape(lines[i]!);
    let j = i + 1;
    if (s !== "") while (j < lines.length && shape(lines[j]!) === s) j++;
    if (j - i >= MIN_SIMILAR_RUN) {
      out.push(lines[i]!, `[×${j - i - 2} similar lines]`, lines[j - 1]!);
    } else {
      for (let k = i; k < j; k++) out.push(lines[k]!);
    }
    i = j;
  }
  return out.join("\n");
}
