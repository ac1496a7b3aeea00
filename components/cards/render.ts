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
import { controlBody, isControlTool, receivedLine } from "./control.js";
import {
  argsDiffLines,
  hasUnifiedDiff,
  numberedDiffLines,
  numberedPreview,
  patchLines,
  readPreviewLines,
  WRITE_PREVIEW_LINES,
} from "./diff.js";
import { ALWAYS_EXPANDED, FOLD_PREVIEW_LINES, foldableBodyLines, type ToolCard } from "./fold.js";
import { argString, cardHeader, displayPath, parseArgs } from "./header.js";
import { plainLines, renderMarkdown, renderStreaming } from "./markdown.js";
import { oneLine, screenText } from "../../core/text/safe.js";
import { fitLines, wrapPrefixed } from "../../core/text/wrap.js";
import { palette, type Paint, type Palette } from "./paint.js";

export interface RenderOpts {
  width: number;
  folded: boolean;
  focused: boolean;
  cwd: string;
  color: boolean;
}

interface BodyCtx {
  width: number;
  folded: boolean;
  cwd: string;
  color: boolean;
  p: Palette;
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
      return plainLines(card.text, c.width);
    case "assistant":
      return card.streaming ? renderStreaming(card.text, c.width, card.num) : renderMarkdown(card.text, c.width, c.color);
    case "notice":
      return painted(card.text, c.width, card.level === "error" ? c.p.red : card.level === "warning" ? c.p.yellow : c.p.dim);
    case "tool":
      if (isControlTool(card.name)) return controlBody(card, c.width, c.color);
      if (card.status === "streaming") return [c.p.dim(receivedLine(card.argsText.length))];
      return ALWAYS_EXPANDED.has(card.name) ? expandedBody(card, c) : foldableBody(card, c);
  }
}

/** Untrusted text, wrapped, each row painted on its own. */
function painted(text: string, width: number, paint: Paint): string[] {
  const s = screenText(text).trimEnd();
  if (s === "") return [];
  return s.split("\n").flatMap((l) => wrapPrefixed("", l, width, paint));
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
  const rows =
    card.name === "read" && card.status === "ok"
      ? readPreviewLines(shown, c.width, c.color)
      : shown.flatMap((l) => wrapPrefixed("", l, c.width, paint));
  if (cut) {
    const hidden = lines.length - keep;
    rows.push(c.p.dim(keep ? `… ${hidden} more lines (o to open)` : `… ${hidden} line${hidden === 1 ? "" : "s"} folded (o to open)`));
  }
  if (lines.length === 0 && card.status === "cancelled") rows.push(c.p.dim("cancelled"));
  if (card.fullOutputPath) {
    rows.push(...wrapPrefixed(c.p.dim("full output: "), oneLine(displayPath(card.fullOutputPath, c.cwd)), c.width, c.p.dim));
  }
  return rows;
}

// ---------------------------------------------------------------------------
// Always-expanded tools: what the call does, then its result.

function expandedBody(card: ToolCard, c: BodyCtx): string[] {
  const a = card.argsText;
  const args = parseArgs(a) ?? {};
  const rows: string[] = [];
  const pathLine = () => {
    const path = argString(a, ["path", "file_path", "filePath"]);
    if (path !== undefined) rows.push(...wrapPrefixed("", oneLine(displayPath(path, c.cwd)), c.width, c.p.bold));
  };
  let result = resultText(card);
  // What after-hooks appended (the formatter's report, a language server's
  // diagnostics) follows the tool's own text: kept aside, so cutting the
  // tool's diff out of its text below does not cut them away too.
  let reports = "";
  const reportAt = result?.search(/\n\n(?:Diagnostics \(|\[formatter\] )/) ?? -1;
  if (result !== undefined && reportAt >= 0) {
    reports = result.slice(reportAt + 2);
    result = result.slice(0, reportAt);
  }
  switch (card.name) {
    case "edit":
    case "notebook_edit":
    case "structural_edit": {
      pathLine();
      if (result !== undefined && hasUnifiedDiff(result)) {
        // The tool's own diff has the file's line numbers: prefer it.
        const at = result.search(/^(--- |@@ )/m);
        rows.push(...numberedDiffLines(result.slice(at), c.width, c.color));
        result = result.slice(0, at);
      } else {
        const oldStr = argString(a, ["old_str", "old_string", "old_source"]);
        const newStr = argString(a, ["new_str", "new_string", "new_source"]);
        if (oldStr !== undefined || newStr !== undefined) {
          rows.push(...argsDiffLines(oldStr ?? "", newStr ?? "", c.width, c.color));
        }
      }
      break;
    }
    case "write":
      pathLine();
      rows.push(...numberedPreview(argString(a, ["content", "text"]) ?? "", c.width, c.color, WRITE_PREVIEW_LINES));
      break;
    case "apply_patch":
    case "udiff":
      rows.push(...patchLines(argString(a, ["patch", "input", "diff"]) ?? "", c.width, c.color));
      break;
    case "delete":
      for (const path of listOf(args.paths ?? args.path)) {
        rows.push(...wrapPrefixed("• ", oneLine(displayPath(path, c.cwd)), c.width));
      }
      break;
    case "todo_write":
    case "write_todos":
      rows.push(...todoLines(args.todos, c));
      if (card.status === "ok") result = undefined;
      break;
    case "question":
    case "ask_user":
      rows.push(...painted(argString(a, ["question", "prompt", "message"]) ?? "", c.width, c.p.bold));
      for (const o of listOf(args.options)) rows.push(...wrapPrefixed("• ", oneLine(o), c.width));
      break;
    case "delegate":
    case "handoff":
    case "notify": {
      const who = argString(a, ["agent", "agent_type", "role", "target", "target_role", "target_task_id"]);
      if (who !== undefined) rows.push(...wrapPrefixed(c.p.dim("→ "), oneLine(who), c.width, c.p.cyan));
      const prose = argString(a, ["message", "description", "prompt", "task", "plan", "summary"]);
      if (prose !== undefined) rows.push(...renderMarkdown(prose, c.width, c.color));
      break;
    }
    default: {
      const prose = argString(a, ["message", "description", "summary", "reason", "content"]);
      if (prose !== undefined) rows.push(...painted(prose, c.width, (s) => s));
    }
  }
  rows.push(...resultLines(card, reports ? [result?.trim(), reports].filter(Boolean).join("\n\n") : result, c));
  return rows;
}

function resultText(card: ToolCard): string | undefined {
  if (card.status === "running" || card.status === "streaming") return undefined;
  return card.viewText ?? card.modelText;
}

/** `↳ result`: red on error, dim when it is only a status word like OK; diagnostics by their severity. */
function resultLines(card: ToolCard, text: string | undefined, c: BodyCtx): string[] {
  const s = text === undefined ? "" : screenText(text).trim();
  if (s === "") return card.status === "cancelled" ? [c.p.dim("↳ cancelled")] : [];
  const paint: Paint =
    card.status === "error" ? c.p.red : /^(OK|done)\b/.test(s) && !s.includes("\n") ? c.p.dim : (x) => x;
  return s
    .split("\n")
    .flatMap((l, i) => wrapPrefixed(i === 0 ? c.p.dim("↳ ") : "  ", l, c.width, diagnosticPaint(l, c.p) ?? paint));
}

/** A language server's diagnostic line (`[E] 12:5 …`, as edits report them): red errors, yellow warnings. */
function diagnosticPaint(line: string, p: Palette): Paint | undefined {
  const m = /^\[([EWIH])\] \d+:\d+ /.exec(line);
  if (!m) return /^Diagnostics \(/.test(line) ? p.bold : undefined;
  return m[1] === "E" ? p.red : m[1] === "W" ? p.yellow : p.dim;
}

function listOf(v: unknown): string[] {
  if (typeof v === "string") return [v];
  if (!Array.isArray(v)) return [];
  return v.flatMap((x) => {
    if (typeof x === "string") return [x];
    if (x && typeof x === "object") {
      const o = x as Record<string, unknown>;
      const label = o.label ?? o.text ?? o.path ?? o.value;
      return typeof label === "string" ? [label] : [];
    }
    return [];
  });
}

const TODO_MARKS: Record<string, [string, keyof Palette]> = {
  completed: ["✓", "green"],
  in_progress: ["▶", "yellow"],
  pending: ["○", "gray"],
  cancelled: ["⊘", "gray"],
  blocked: ["✗", "red"],
};

function todoLines(todos: unknown, c: BodyCtx): string[] {
  if (!Array.isArray(todos)) return [];
  if (todos.length === 0) return [c.p.dim("(list cleared)")];
  return todos.flatMap((t) => {
    const o = (t && typeof t === "object" ? t : { description: String(t) }) as Record<string, unknown>;
    const text = [o.description, o.content, o.text, o.title, o.task].find((x) => typeof x === "string");
    const [mark, color] = TODO_MARKS[String(o.status)] ?? ["○", "gray"];
    const paint: Paint = o.status === "completed" ? c.p.dim : (s) => s;
    return wrapPrefixed(`${c.p[color](mark)} `, oneLine(String(text ?? "")), c.width, paint);
  });
}
