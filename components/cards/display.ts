// A result or a preview drawn by its kind: the same renderer for every tool
// that shows that kind of thing, whatever the tool is called. Inputs are
// untrusted (a model's arguments, a file's lines): every piece is made
// terminal-safe on its way into a row, and every row fits the width.

import type { DisplayOf, ToolDisplay } from "../../core/display-schema.js";
import { listFooter } from "../../core/display-text.js";
import { oneLine, screenText } from "../../core/text/safe.js";
import { wrapPrefixed } from "../../core/text/wrap.js";
import { argsDiffLines, numberedDiffLines, numberedLines, patchLines, readPreviewLines } from "./diff.js";
import { displayPath } from "./header.js";
import { renderMarkdown } from "./markdown.js";
import type { Paint, Palette } from "./paint.js";

export interface DrawCtx {
  width: number;
  cwd: string;
  color: boolean;
  p: Palette;
}

/** Untrusted text, wrapped, each row painted on its own. */
export function painted(text: string, width: number, paint: Paint): string[] {
  const s = screenText(text).trimEnd();
  if (s === "") return [];
  return s.split("\n").flatMap((l) => wrapPrefixed("", l, width, paint));
}

/**
 * `↳ note`: a short line about the result; dim when it is only a status word
 * like OK. A language server's report an edit carries (`Diagnostics (…)`, then
 * `[E] 12:5 …` lines) is painted by severity: red errors, yellow warnings.
 */
export function noteLines(text: string, c: DrawCtx, paint?: Paint): string[] {
  const s = screenText(text).trim();
  if (s === "") return [];
  const chosen: Paint = paint ?? (/^(OK|done)\b/.test(s) && !s.includes("\n") ? c.p.dim : (x) => x);
  return s.split("\n").flatMap((l, i) => wrapPrefixed(i === 0 ? c.p.dim("↳ ") : "  ", l, c.width, diagnosticPaint(l, c.p) ?? chosen));
}

function diagnosticPaint(line: string, p: Palette): Paint | undefined {
  const m = /^\[([EWIH])\] \d+:\d+ /.exec(line);
  if (!m) return /^Diagnostics \(/.test(line) ? p.bold : undefined;
  return m[1] === "E" ? p.red : m[1] === "W" ? p.yellow : p.dim;
}

export function displayRows(d: ToolDisplay, c: DrawCtx): string[] {
  switch (d.kind) {
    case "text":
      return painted(d.text, c.width, (s) => s);
    case "markdown":
      return renderMarkdown(d.text, c.width, c.color);
    case "command":
      return [...commandLines(d.command, c), ...painted(d.output, c.width, (s) => s)];
    case "file":
      return readPreviewLines([...d.lines.map((l, i) => `${d.startLine + i}: ${l}`), ...(d.notes ?? [])], c.width, c.color);
    case "diff":
      return [...d.files.flatMap((f) => diffFileRows(f, c)), ...(d.note ? noteLines(d.note, c) : [])];
    case "replace":
      return [...pathRow(d.path, c), ...argsDiffLines(d.before, d.after, c.width, c.color)];
    case "write":
      return [...pathRow(d.path, c), ...numberedLines(d.lines, d.totalLines, c.width, c.color)];
    case "patch":
      return patchLines(d.text, c.width, c.color);
    case "matches":
      return [...d.matches.flatMap((m) => painted(matchLine(m), c.width, (s) => s)), ...footerRows(d, d.matches.length, c)];
    case "paths":
      return [...d.paths.flatMap((p) => wrapPrefixed("• ", oneLine(displayPath(p, c.cwd)), c.width)), ...footerRows(d, d.paths.length, c)];
    case "todos":
      return todoRows(d.todos, c);
    case "questions":
      return d.items.flatMap((q) => questionRows(q, c));
  }
}

function pathRow(path: string, c: DrawCtx): string[] {
  return path === "" ? [] : wrapPrefixed("", oneLine(displayPath(path, c.cwd)), c.width, c.p.bold);
}

/** A command that spans lines is shown in full (the header has room for its first line only). */
function commandLines(command: string, c: DrawCtx): string[] {
  const lines = screenText(command).split("\n");
  if (lines.length < 2) return [];
  return lines.flatMap((l, i) => wrapPrefixed(i === 0 ? "$ " : "  ", l, c.width));
}

function diffFileRows(f: DisplayOf<"diff">["files"][number], c: DrawCtx): string[] {
  const name = f.op === "move" && f.movedTo ? `${f.path} → ${f.movedTo}` : f.path;
  return [...pathRow(name, c), ...numberedDiffLines(f.hunks, c.width, c.color)];
}

const matchLine = (m: DisplayOf<"matches">["matches"][number]): string =>
  m.line === undefined ? m.path : `${m.path}:${m.line}${m.text === undefined ? "" : `:${m.text}`}`;

function footerRows(d: { total: number; page?: number; nextPage?: number; hint?: string }, shown: number, c: DrawCtx): string[] {
  return listFooter(d, shown).flatMap((l) => painted(l, c.width, c.p.dim));
}

const TODO_MARKS: Record<string, [string, keyof Palette]> = {
  completed: ["✓", "green"],
  in_progress: ["▶", "yellow"],
  pending: ["○", "gray"],
  cancelled: ["⊘", "gray"],
  blocked: ["✗", "red"],
};

function todoRows(todos: DisplayOf<"todos">["todos"], c: DrawCtx): string[] {
  if (todos.length === 0) return [c.p.dim("(list cleared)")];
  return todos.flatMap((t) => {
    const [mark, color] = TODO_MARKS[t.status] ?? ["○", "gray"];
    const paint: Paint = t.status === "completed" ? c.p.dim : (s) => s;
    return wrapPrefixed(`${c.p[color](mark)} `, oneLine(t.description), c.width, paint);
  });
}

function questionRows(q: DisplayOf<"questions">["items"][number], c: DrawCtx): string[] {
  return [
    ...(q.header ? wrapPrefixed("", oneLine(q.header), c.width, c.p.dim) : []),
    ...painted(q.question, c.width, c.p.bold),
    ...(q.options ?? []).flatMap((o) => wrapPrefixed("• ", oneLine(o), c.width)),
    ...(q.answer === undefined ? [] : noteLines(q.answer, c, (s) => s)),
  ];
}
