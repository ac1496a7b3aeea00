// A display as plain text, for the renderers that print lines rather than
// draw cards: the headless transcript and transcript search. The text is
// the display's data laid out, never the text the model was sent; it is
// not yet made terminal-safe (the caller does that).

import type { DisplayOf, ToolDisplay } from "./display-schema.js";

export function displayText(d: ToolDisplay): string {
  switch (d.kind) {
    case "text":
    case "markdown":
    case "patch":
      return d.text;
    case "command":
      return d.output;
    case "file":
      return [...d.lines.map((l, i) => `${d.startLine + i}: ${l}`), ...(d.notes ?? [])].join("\n");
    case "diff":
      return [...(d.note ? [d.note] : []), ...d.files.map(diffFileText)].join("\n");
    case "replace":
      return [d.path, ...minusPlus(d.before, d.after)].join("\n");
    case "write":
      return [d.path, ...d.lines, ...(d.totalLines > d.lines.length ? [`… ${d.totalLines - d.lines.length} more lines`] : [])].join("\n");
    case "matches":
      return [...d.matches.map(matchText), ...listFooter(d, d.matches.length)].join("\n");
    case "paths":
      return [...d.paths, ...listFooter(d, d.paths.length)].join("\n");
    case "todos":
      return d.todos.map((t) => `[${t.status}] ${t.description}`).join("\n");
    case "questions":
      return d.items.flatMap((q) => [q.header ? `[${q.header}] ${q.question}` : q.question, ...(q.answer === undefined ? [] : [`answer: ${q.answer}`])]).join("\n");
  }
}

function diffFileText(f: DisplayOf<"diff">["files"][number]): string {
  const to = f.op === "move" && f.movedTo ? f.movedTo : f.path;
  return [`--- ${f.op === "add" ? "/dev/null" : f.path}`, `+++ ${f.op === "delete" ? "/dev/null" : to}`, f.hunks].filter(Boolean).join("\n");
}

function minusPlus(before: string, after: string): string[] {
  return [...before.split("\n").map((l) => `- ${l}`), ...after.split("\n").map((l) => `+ ${l}`)];
}

const matchText = (m: DisplayOf<"matches">["matches"][number]): string =>
  m.line === undefined ? m.path : `${m.path}:${m.line}${m.text === undefined ? "" : `:${m.text}`}`;

/** How much of a list is shown: the total, the page and the next one, a hint. */
export function listFooter(d: { total: number; page?: number | undefined; nextPage?: number | undefined; hint?: string | undefined }, shown: number): string[] {
  const lines: string[] = [];
  if (d.total === 0) lines.push("(none found)");
  else if (d.page !== undefined) lines.push(`(${d.total} in all · page ${d.page}${d.nextPage ? ` · next page ${d.nextPage}` : ""})`);
  else if (shown < d.total) lines.push(`(${shown} of ${d.total})`);
  if (d.hint) lines.push(d.hint);
  return lines;
}

/**
 * A display with a line added for the person to read (a guard's warning, a
 * formatter's report): after the text, in the change's note, after the
 * output, among the file's notes. Without a display there is nothing to add
 * to: the view shows the model's text, which carries the line already.
 */
export function appendNote(d: ToolDisplay | undefined, line: string): ToolDisplay | undefined {
  if (!d) return d;
  switch (d.kind) {
    case "text":
    case "markdown":
      return { ...d, text: `${d.text}\n${line}` };
    case "command":
      return { ...d, output: `${d.output}\n${line}` };
    case "diff":
      return { ...d, note: d.note ? `${d.note}\n${line}` : line };
    case "file":
      return { ...d, notes: [...(d.notes ?? []), line] };
    case "matches":
    case "paths":
      return { ...d, hint: d.hint ? `${d.hint}\n${line}` : line };
    default:
      return { kind: "text", text: `${displayText(d)}\n${line}` };
  }
}
