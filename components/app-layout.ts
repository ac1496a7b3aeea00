// Where the parts of the screen go and what the status bar's hint says:
// pure functions of the terminal's size, the view state and the session.

import type { SessionView } from "../core/reducer.js";
import type { UiState } from "./ui-state.js";

export const SIDE_PANEL_MIN_COLUMNS = 120;
export const SIDE_PANEL_WIDTH = 34;
export const COMPOSER_MAX_ROWS = 6;
/** Rows of done's report the loop's confirmation shows (V shows it whole). */
export const REPORT_PREVIEW_ROWS = 6;

export type PromptKind = "approval" | "answer" | "report" | "composer";

export interface AppLayout {
  prompt: PromptKind;
  showSide: boolean;
  mainWidth: number;
  rows: number;
  promptHeight: number;
  bodyHeight: number;
}

/**
 * The prompt the session waits on (an approval, a question) or the composer,
 * and the room each part gets. The composer stays below a prompt (what the
 * user was typing stays theirs), with the list of commands above it while a
 * command is typed (`commandRows`).
 */
export function appLayout(size: { columns: number; rows: number }, ui: UiState, view: SessionView, draftRows: number, commandRows = 0): AppLayout {
  const showSide = ui.sidePanel && size.columns >= SIDE_PANEL_MIN_COLUMNS;
  const mainWidth = Math.max(20, size.columns - (showSide ? SIDE_PANEL_WIDTH + 1 : 0));
  const prompt: PromptKind = view.pendingApproval ? "approval" : view.pendingQuestion ? "answer" : view.facts.loop?.report !== undefined ? "report" : "composer";
  const rows = Math.max(8, size.rows);
  const promptHeight = promptRows(prompt, view, draftRows) + commandRows;
  // Without the side panel, its essentials take a row above the status bar.
  const barRows = showSide ? 1 : 2;
  return { prompt, showSide, mainWidth, rows, promptHeight, bodyHeight: Math.max(3, rows - promptHeight - barRows) };
}

function promptRows(prompt: PromptKind, view: SessionView, draftRows: number): number {
  const composer = Math.min(COMPOSER_MAX_ROWS, draftRows);
  // The approval's rule picker lists each offered rule, then where, what and the keys.
  const picker = (view.pendingApproval?.rules?.length ?? 1) + 4;
  if (prompt === "approval") return Math.min(24, 6 + picker + (view.pendingApproval?.detail?.split("\n").length ?? 0)) + composer;
  if (prompt === "answer") return 8 + composer;
  // Its border, title, the preview, "more lines", then the keys or the message box (two rows).
  if (prompt === "report") return 6 + REPORT_PREVIEW_ROWS + composer;
  return composer + 2;
}

/** Rows the composer's draft takes at `columns` (each line wrapped, at least one). */
export function draftRowsFor(text: string, columns: number): number {
  return Math.max(1, Math.ceil((text.length + 3) / Math.max(10, columns - 2)) + (text.match(/\n/g)?.length ?? 0));
}

/** The keys that work now, for the status bar. */
export function hintFor(ui: UiState, prompt: PromptKind, busy: boolean, armed = true): string {
  if (ui.confirm) return ui.confirm.text;
  if (ui.flash) return ui.flash;
  if (ui.search?.editing) return `/${ui.search.query}▏ Enter find · Esc cancel`;
  if (ui.overlay === "directory") return "↑↓ select · Enter jump · Esc close";
  if (prompt === "approval") return armed ? "y allow · a always · n reject · r reject with message" : "keys go to your message until you pause typing";
  if (prompt === "answer") return "Enter answer · Tab custom";
  if (prompt === "report" && ui.overlay === "report") return "j/k scroll · Space/b page · g/G top/end · q/Esc close";
  if (prompt === "report") return armed ? "y confirm · V view the report · n send back" : "keys go to your message until you pause typing";
  if (ui.overlay === "jobs") return "j/k select · x kill · Esc close";
  if (ui.overlay === "todos") return "Esc close";
  if (ui.pending?.key === "q" || ui.pending?.key === "ctrl-c") return "press again to quit";
  if (ui.mode === "INSERT") return busy ? "Enter send · Esc normal mode (Esc again cancels)" : "Enter send · Ctrl+J newline · Esc normal mode";
  const found = ui.search?.query ? ` · n/N next "${ui.search.query}"` : "";
  return (busy ? "Esc cancel · j/k cards · o fold · i insert · ? help" : "j/k cards · o fold · / search · Ctrl+T cards · ? help · q q quit") + found;
}
