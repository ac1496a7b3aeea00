// Slash commands typed into the composer: what each does to the view, and
// the operation it sends the session. Deciding is pure; the caller applies
// the view change and sends the operation.

import type { Operation } from "../core/ops.js";
import type { UiState } from "./ui-state.js";

export interface SlashAction {
  ui(ui: UiState): UiState;
  op?: Operation;
  quit?: true;
}

const same = (ui: UiState) => ui;
const top = (ui: UiState): UiState => ({ ...ui, scroll: 0 });

export function slashAction(text: string): SlashAction {
  const [name, arg] = text.trim().split(/\s+/);
  switch (name) {
    case "/help":
      return { ui: (ui) => ({ ...ui, overlay: "help" }) };
    case "/jobs":
      return { ui: (ui) => ({ ...ui, overlay: "jobs" }) };
    case "/todos":
      return { ui: (ui) => ({ ...ui, sidePanel: true }) };
    case "/clear":
      return { ui: (ui) => ({ ...ui, scroll: 0, focus: undefined, folds: new Map() }) };
    case "/quit":
      return { ui: same, quit: true };
    case "/model":
      return { ui: top, op: arg ? { type: "switch_model", model: arg } : { type: "switch_model" } };
    case "/compact":
      return { ui: top, op: { type: "compact" } };
    default:
      // An unknown command: the help overlay lists the ones there are.
      return { ui: (ui) => ({ ...ui, overlay: "help" }) };
  }
}
