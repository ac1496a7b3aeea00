// Slash commands typed into the composer.

import type { SessionController } from "../core/session-controller.js";
import type { UiState } from "./ui-state.js";

export interface SlashContext {
  controller: SessionController;
  quit(): void;
}

export const SLASH_COMMANDS = ["/help", "/model", "/compact", "/clear", "/jobs", "/todos", "/quit"] as const;

export function runSlash(text: string, ui: UiState, ctx: SlashContext): UiState {
  const [name, arg] = text.trim().split(/\s+/);
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
    case "/model":
      void ctx.controller.switchModel(arg);
      return { ...ui, scroll: 0 };
    case "/compact":
      void ctx.controller.compact();
      return { ...ui, scroll: 0 };
    default:
      // An unknown command: the help overlay lists the ones there are.
      return { ...ui, overlay: "help" };
  }
}
