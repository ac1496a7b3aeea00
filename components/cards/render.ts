// One transcript card as terminal lines. Pure: the same card and options give
// the same lines, so the transcript can cache them (cache.ts) and draw only
// the rows in view. Every row is at most opts.width columns wide and carries
// colour only when opts.color.
//
// Layout, for width W:
//
//   ▌ TOOL CALL #14 ▾ read src/a.ts ✓ 3ms     header (after a 2-column gutter)
//   ▌   1  import x from "y";                 body, indented 2 more
//
// The gutter shows ▌ on every row of the focused card (the one j/k selected)
// and is blank otherwise, so moving the focus never reflows a card. Cards end
// without a blank row: spacing between cards is the transcript's to choose.

import type { Card } from "../../core/reducer.js";
import type { CardTask } from "../../core/reducer-agents.js";
import { controlBody, receivedLine } from "./control.js";
import { readPreviewLines } from "./diff.js";
import { displayRows, noteLines, painted, type DrawCtx } from "./display.js";
import { cardLayout, FOLD_PREVIEW_LINES, foldableBodyLines, resultDisplay, type ToolCard } from "./fold.js";
import { cardHeader, displayPath } from "./header.js";
import { plainLines, renderMarkdown, renderStreaming } from "./markdown.js";
import { oneLine } from "../../core/text/safe.js";
import { fitLines, wrapPrefixed } from "../../core/text/wrap.js";
import { palette, type Paint } from "./paint.js";

export interface RenderOpts {
  width: number;
  folded: boolean;
  focused: boolean;
  cwd: string;
  color: boolean;
}

interface BodyCtx extends DrawCtx {
  folded: boolean;
}

export function renderCard(card: Card, opts: RenderOpts): string[] {
  const width = Math.max(1, Math.floor(opts.width));
  const p = palette(opts.color);
  // Narrow panes drop the gutter and indent before they drop content.
  const gutter = width >= 8 ? 2 : 0;
  const indent = width >= 12 ? "  " : "";
  const inner = Math.max(1, width - gutter - indent.length);
  const header = cardHeader(card, { width: width - gutter, folded: opts.folded, cwd: opts.cwd, color: opts.color });
  const ctx: BodyCtx = { width: inner, folded: opts.folded, cwd: opts.cwd, color: opts.color, p };
  // The focus bar runs down blank rows too, so it reads as one bar.
  const bar = gutter === 0 ? "" : opts.focused ? `${p.cyan("▌")} ` : "  ";
  const lead = bar + indent;
  const rows = [bar + header];
  for (const l of body(card, ctx)) rows.push(l === "" ? (opts.focused ? bar : "") : lead + l);
  return fitLines(rows, width);
}

function body(card: Card, c: BodyCtx): string[] {
  switch (card.kind) {
    case "user":
      return [...plainLines(card.text, c.width), ...(card.attached ?? []).flatMap((a) => plainLines(`attached ${a}`, c.width).map((row) => c.p.dim(row)))];
    case "assistant":
      return card.streaming ? renderStreaming(card.text, c.width, card.num) : renderMarkdown(card.text, c.width, c.color);
    case "notice":
      if (card.agent) return agentReport(card.text, c);
      return painted(card.text, c.width, card.level === "error" ? c.p.red : card.level === "warning" ? c.p.yellow : c.p.dim);
    case "job":
      return jobBody(card, c);
    case "tool": {
      const layout = cardLayout(card);
      if (layout === "control") return controlBody(card, c.width, c.color);
      if (card.status === "streaming") return [c.p.dim(receivedLine(card.argsText.length))];
      const own = layout === "expanded" ? expandedBody(card, c) : foldableBody(card, c);
      return card.inner?.length ? [...innerCallLines(card.inner, c), ...own] : own;
    }
  }
}

/** AGENT COMPLETE / AGENT BLOCKED: the task it is about, then its report as Markdown. */
function agentReport(text: string, c: BodyCtx): string[] {
  const [who = "", ...report] = text.split("\n");
  const rows = fitLines([c.p.bold(oneLine(who.replace(/^AGENT (COMPLETE|BLOCKED) /, "")))], c.width);
  const prose = report.join("\n");
  return prose.trim() ? [...rows, ...renderMarkdown(prose, c.width, c.color)] : rows;
}

/** A code cell's own calls, one line each, above what it printed. */
function innerCallLines(calls: NonNullable<ToolCard["inner"]>, c: BodyCtx): string[] {
  const mark = { running: c.p.dim("…"), ok: c.p.green("✓"), error: c.p.red("✗"), cancelled: c.p.dim("cancelled") };
  return calls.map((call) => {
    const what = oneLine(call.summary ? `${call.name} ${call.summary}` : call.name);
    return fitLines([`${c.p.dim("↳")} ${what} ${mark[call.status]}`], c.width)[0]!;
  });
}

/** A finished background job: the command, the tail of its output, where the whole of it is. */
function jobBody(card: Extract<Card, { kind: "job" }>, c: BodyCtx): string[] {
  const rows = wrapPrefixed(c.p.dim("$ "), oneLine(card.command), c.width, (s) => s);
  const tail = card.tail ? plainLines(card.tail, c.width) : [];
  if (tail.length === 0) rows.push(c.p.dim("(no output)"));
  else rows.push(...tail);
  if (card.outputFile) rows.push(...wrapPrefixed(c.p.dim("full output: "), oneLine(displayPath(card.outputFile, c.cwd)), c.width, c.p.dim));
  return rows;
}

// ---------------------------------------------------------------------------
// Foldable tools: the output, cut to the preview when folded.

function foldableBody(card: ToolCard, c: BodyCtx): string[] {
  const lines = foldableBodyLines(card);
  // Folded: a long body keeps a 10-line preview; a short one is hidden whole
  // (a preview of everything would look the same as open).
  const keep = lines.length > FOLD_PREVIEW_LINES ? FOLD_PREVIEW_LINES : 0;
  const cut = c.folded && lines.length > 0;
  const shown = cut ? lines.slice(0, keep) : lines;
  const paint: Paint = card.status === "error" ? c.p.red : (s) => s;
  // Lines read from a file get a number gutter; a failed read shows its error as it is.
  const rows =
    card.display?.kind === "file" && card.status === "ok"
      ? readPreviewLines(shown, c.width, c.color)
      : shown.flatMap((l) => wrapPrefixed("", l, c.width, paint));
  if (cut) {
    const hidden = lines.length - keep;
    rows.push(c.p.dim(keep ? `… ${hidden} more lines (o to open)` : `… ${hidden} line${hidden === 1 ? "" : "s"} folded (o to open)`));
  }
  if (lines.length === 0 && card.status === "cancelled") rows.push(c.p.dim("cancelled"));
  const full = card.fullOutputPath ?? (card.display?.kind === "command" ? card.display.fullOutputPath : undefined);
  if (full) rows.push(...wrapPrefixed(c.p.dim("full output: "), oneLine(displayPath(full, c.cwd)), c.width, c.p.dim));
  return rows;
}

// ---------------------------------------------------------------------------
// Always-expanded tools: what the call does, then its result. A result that
// shows more than words (a diff with line numbers, the todo list, the
// answered questions) takes the place of the preview; words follow it.

function expandedBody(card: ToolCard, c: BodyCtx): string[] {
  const result = card.status === "running" ? undefined : resultDisplay(card);
  const shown = result?.kind === "text" ? undefined : result;
  const rows = shown ? displayRows(shown, c) : card.preview ? displayRows(card.preview, c) : [];
  if (result?.kind === "text") rows.push(...resultLines(card, result.text, c));
  else if (card.status === "cancelled" && !shown) rows.push(c.p.dim("↳ cancelled"));
  if (card.task) rows.push(...taskLines(card.task, c));
  return rows;
}

/** A delegate card's task as its latest update left it: one card per task, updated in place. */
function taskLines(task: CardTask, c: BodyCtx): string[] {
  const paint = task.state === "done" ? c.p.green : task.state === "failed" || task.state === "cancelled" ? c.p.red : c.p.yellow;
  const head = `${paint(`● ${oneLine(task.taskId)} ${task.state}`)}${c.p.dim(` (${oneLine(task.role)})`)}`;
  const rows = fitLines([head], c.width);
  if (task.text) rows.push(...wrapPrefixed(c.p.dim("  "), oneLine(task.text), c.width, (s) => s));
  return rows;
}

/** `↳ result`: red on error, dim when it is only a status word like OK. */
function resultLines(card: ToolCard, text: string, c: BodyCtx): string[] {
  const rows = noteLines(text, c, card.status === "error" ? c.p.red : undefined);
  if (rows.length === 0 && card.status === "cancelled") return [c.p.dim("↳ cancelled")];
  return rows;
}
