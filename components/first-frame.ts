// The screen App draws first, drawn without Ink: the welcome and the other
// start-up notices, the side panel, the empty composer with its cursor and
// the status bar in INSERT mode. Loading Ink, React and yoga and rendering
// the first time cost hundreds of ms; with this frame on the terminal the
// screen is there (and the keys typed wait in the terminal, in raw mode)
// while they load. It is made of the same pure parts App lays out (layout,
// viewport, side panel rows, status line), so Ink's own first frame has the
// same text; the frame writer then rewrites only the rows whose bytes differ.
//
// Only the plain start is drawn this way: a fresh session showing notices
// and the composer. Anything else (a resumed transcript, a prompt waiting,
// another agent's view) is left to Ink.

import type { SessionView } from "../core/reducer.js";
import { truncate, widthOf } from "../core/text/width.js";
import { activityOf } from "./activity.js";
import { viewHeader } from "./agent-views.js";
import { appLayout, hintFor, SIDE_PANEL_MIN_COLUMNS, SIDE_PANEL_WIDTH } from "./app-layout.js";
import { createCardCache } from "./cards/cache.js";
import { sidePanelRows, type Row } from "./side-panel-rows.js";
import { narrowSummary, statusLine } from "./status-line.js";
import { theme } from "./theme.js";
import { initialUi } from "./ui-state.js";
import { viewport } from "./viewport.js";

export interface FirstFrameFacts {
  view: SessionView;
  columns: number;
  rows: number;
  cwd: string;
  color: boolean;
  contextWindow?: number;
  lspServers?: readonly string[];
  /** The home directory `~` stands for (tests pass one). */
  home?: string;
  now?: number;
}

/** The first screen's rows, or undefined when it is not the plain start (see above). */
export function firstFrame(f: FirstFrameFacts): string[] | undefined {
  const { view } = f;
  const now = f.now ?? Date.now();
  const ui = initialUi(f.columns >= SIDE_PANEL_MIN_COLUMNS);
  const layout = appLayout({ columns: f.columns, rows: f.rows }, ui, view, 1, 0);
  const plain = layout.prompt === "composer" && view.cards.every((c) => c.kind === "notice") && !viewHeader(view, undefined, now) && Object.keys(view.agents).length === 0;
  if (!plain || view.request.state !== "idle") return undefined;
  const sgr = styler(f.color);

  const transcript = viewport(view.cards, { width: layout.mainWidth, height: layout.bodyHeight, scroll: 0, folds: ui.folds, cwd: f.cwd, color: f.color, cache: createCardCache() }).lines;
  const side = layout.showSide
    ? sidePanelRows({ view, width: SIDE_PANEL_WIDTH, height: layout.bodyHeight, now, ...(f.contextWindow ? { contextWindow: f.contextWindow } : {}), ...(f.lspServers?.length ? { lspServers: f.lspServers } : {}) })
    : [];
  const out: string[] = [];
  for (let row = 0; row < layout.bodyHeight; row++) {
    const left = transcript[row] ?? "";
    const panel = side[row];
    out.push(panel ? left + " ".repeat(Math.max(0, layout.mainWidth - widthOf(left)) + 1) + panelRow(panel, sgr) : left);
  }
  // The composer: its prompt glyph and the cursor cell, then its empty rows.
  out.push(sgr("› ", { color: theme.accent }) + sgr(" ", { inverse: true }));
  for (let row = 1; row < layout.promptHeight; row++) out.push("");
  if (!layout.showSide) out.push(sgr(truncate(narrowSummary(view, f.contextWindow), f.columns), { color: theme.accent }));

  const bar = statusLine({
    mode: ui.mode,
    profile: view.profile ?? "",
    hint: hintFor(ui, layout.prompt, false),
    request: view.request,
    activity: activityOf(view, now, 0),
    now,
    runningJobs: Object.values(view.jobs).filter((j) => j.status === "running").length,
    cwd: f.cwd,
    width: f.columns,
    ...(view.facts.yolo ? { yolo: true } : {}),
    ...(view.facts.mainRole ? { role: view.facts.mainRole } : {}),
    ...(view.facts.loop ? { loop: view.facts.loop } : {}),
    ...(view.sessionId ? { sessionId: view.sessionId } : {}),
    ...(f.home ? { home: f.home } : {}),
  });
  out.push(bar.segments.map((s) => sgr(s.text, s)).join("") + (bar.right ? sgr(" ".repeat(bar.gap) + bar.right, { color: theme.muted }) : ""));
  return out;
}

/** A side panel row as SidePanel draws it: cut to the panel's width, styled, its coloured tail after. */
function panelRow(r: Row, sgr: Styler): string {
  const text = truncate(r.text, SIDE_PANEL_WIDTH) || " ";
  return sgr(text, r) + (r.tail ?? []).map((p) => sgr(p.text, { color: p.color })).join("");
}

interface Style {
  color?: string;
  bold?: boolean;
  dim?: boolean;
  inverse?: boolean;
}
type Styler = (text: string, style: Style) => string;

/** The SGR codes of the named colours the theme uses. */
const FOREGROUND: Record<string, number> = { black: 30, red: 31, green: 32, yellow: 33, blue: 34, magenta: 35, cyan: 36, white: 37, gray: 90 };

function styler(color: boolean): Styler {
  if (!color) return (text) => text;
  return (text, s) => {
    let open = "";
    let close = "";
    if (s.bold) [open, close] = [`${open}\x1b[1m`, `\x1b[22m${close}`];
    if (s.dim) [open, close] = [`${open}\x1b[2m`, `\x1b[22m${close}`];
    if (s.inverse) [open, close] = [`${open}\x1b[7m`, `\x1b[27m${close}`];
    const fg = s.color ? FOREGROUND[s.color] : undefined;
    if (fg) [open, close] = [`${open}\x1b[${fg}m`, `\x1b[39m${close}`];
    return open ? open + text + close : text;
  };
}
