// What the transcript view remembers between frames besides the session:
// the mode, the focused card, folds the user changed, the scroll position,
// and which overlay is open. Pure: keys go in, a new state comes out.

type Mode = "INSERT" | "NORMAL";
/** A message by its number, a message by its text (the n-th card with it), or the undo of the last rewind. */
export type RewindTarget = number | "undo" | { message: string; occurrence: number };
type Overlay = "none" | "help" | "jobs" | "directory" | "todos" | "stats" | "errors" | "rules" | "sessions" | "rewind" | "mcp" | "report";

export interface UiState {
  mode: Mode;
  /** Card number in focus (Normal mode), or undefined: the newest card. */
  focus?: number;
  /** Folds the user toggled, by card number (true = folded). */
  folds: ReadonlyMap<number, boolean>;
  /** Lines scrolled up from the bottom; 0 follows the newest output. */
  scroll: number;
  overlay: Overlay;
  sidePanel: boolean;
  /** A first `g` waiting for the second (gg), a first q / Ctrl+C waiting for the second. */
  pending?: { key: PressKey; at: number };
  search?: { query: string; editing: boolean };
  /** A one-off message in the status bar (an unknown command), gone at the next key. */
  flash?: string;
  /** A question only `y` answers yes (overwrite AGENTS.md?); any other key says no. */
  confirm?: { text: string; id: string };
  /** The user message being edited (`e`): its card; sending the composer forks from there. */
  editing?: number;
  /** The worker or task child whose transcript is shown (Shift+Tab); absent: the main agent's. */
  agent?: string;
  /** The folds of the views not shown, by agent ("main" for the main view). */
  viewFolds?: ReadonlyMap<string, ReadonlyMap<number, boolean>>;
  /** The rewind overlay's message (1-based among the operator's) or the undo, once picked; unset: the list. */
  rewindTarget?: RewindTarget;
}

type PressKey = "g" | "q" | "y" | "ctrl-c" | "esc";

export function initialUi(wide: boolean): UiState {
  return { mode: "INSERT", folds: new Map(), scroll: 0, overlay: "none", sidePanel: wide };
}

/** Quit needs the key twice within this window. */
const DOUBLE_PRESS_MS = 2000;

export function toggleFold(ui: UiState, num: number, current: boolean): UiState {
  const folds = new Map(ui.folds);
  folds.set(num, !current);
  return { ...ui, folds };
}

export function isDoublePress(ui: UiState, key: PressKey, now: number): boolean {
  return ui.pending?.key === key && now - ui.pending.at <= DOUBLE_PRESS_MS;
}
