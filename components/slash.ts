// Slash commands typed into the composer.

import type { SessionController } from "../core/session-controller.js";
import type { UiState } from "./ui-state.js";

export interface SlashContext {
  controller: SessionController;
  quit(): void;
}

export const SLASH_COMMANDS = ["/help", "/model", "/compact", "/clear", "/jobs", "/todos", "/quit"] as const;

export function runSlash(text: string, ui: UiState, ctx: SlashContext): UiState {
  const [name] = text.trim().split(/\s+/);
  switch (name) {
    case "/help":
      return { ...ui, overlay: "help" };
    case "/jobs":
      return { ...ui, overlay: "jobs" };
    case "/todos":
      return { ...ui, sidePanel: true };
    case "/clear":
      return { ...ui, scroll: 0, focus: undefined, folds: new Map() };
    case "/quit":
      ctx.quit();
      return ui;
    default:
      // /model and /compact need the model switcher and compaction, which are
      // not in this build; the help overlay lists what is.
      return { ...ui, overlay: "help" };
  }
}
