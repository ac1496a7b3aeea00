// The slash commands and keys whose work reaches past the view: operations
// for the session, and the front end's actions (export, init, the
// clipboard, another session). The view calls these; each says what it did
// in the status bar's one-off message.

import { useRef, type MutableRefObject } from "react";
import type { Card, SessionView } from "../core/reducer.js";
import type { SessionController } from "../core/session-controller.js";
import { cardText } from "./card-text.js";
import { slashAction, type FrontAction } from "./slash.js";
import type { TuiActions } from "./tui-actions.js";
import type { UiState } from "./ui-state.js";

export interface FrontCommands {
  slash(text: string): void;
  /** Sends the composer's text as the edited message when one is being edited; false otherwise. */
  sendEdited(text: string): boolean;
  /** yy: the focused card (or the newest) of the transcript shown to the clipboard. */
  copy(ui: UiState, cards: readonly Card[]): UiState;
  /** e: the focused user message into the composer, to be edited and sent as a fork. */
  edit(ui: UiState): UiState;
  /** Esc Esc: what a rewind to before the focused user message would do, waiting for y. */
  rewindTo(ui: UiState): UiState;
  toggleYolo(): void;
  /** A key while a confirmation waits: `y` carries it out, anything else drops it. */
  confirm(ui: UiState, input: string): UiState;
}

interface Inputs {
  view: SessionView;
  setUi(update: (ui: UiState) => UiState): void;
  controller: SessionController;
  composerControl: MutableRefObject<{ setText(text: string): void } | undefined>;
  onQuit(): void;
  actions?: TuiActions;
}

const CONFIRM_INIT = "init-overwrite";

export function useFrontCommands(inputs: Inputs): FrontCommands {
  const live = useRef(inputs);
  live.current = inputs;
  const editing = useRef<{ num: number; text: string } | undefined>(undefined);
  const flash = (text: string) => live.current.setUi((ui) => ({ ...ui, flash: text }));

  const act = (action: FrontAction) => {
    const { actions, view } = live.current;
    if (!actions) return flash("this front end cannot do that");
    switch (action.kind) {
      case "export":
        return flash(actions.exportTranscript(view, action).text);
      case "init": {
        const out = actions.initAgents(action.overwrite);
        if ("exists" in out) {
          const text = `${out.exists} exists: press y to overwrite it, any other key keeps it`;
          return live.current.setUi((ui) => ({ ...ui, confirm: { text, id: CONFIRM_INIT } }));
        }
        return flash(out.text);
      }
      case "new":
        return actions.switchTo({ kind: "new" });
      case "resume":
        return live.current.setUi((ui) => ({ ...ui, overlay: "sessions" }));
    }
  };

  return {
    slash(text) {
      const x = live.current;
      const action = slashAction(text, { yolo: x.view.facts.yolo, ...(x.view.facts.loop ? { loop: x.view.facts.loop } : {}) });
      x.setUi(action.ui);
      if (action.op) x.controller.submit(action.op);
      if (action.action) act(action.action);
      if (action.quit) x.onQuit();
    },
    sendEdited(text) {
      const edit = editing.current;
      if (!edit) return false;
      editing.current = undefined;
      const { view, controller } = live.current;
      const before = view.cards.filter((c) => c.kind === "user" && c.num < edit.num && c.text === edit.text).length;
      controller.submit({ type: "edit_message", message: edit.text, occurrence: before, text });
      live.current.setUi((ui) => ({ ...ui, editing: undefined, scroll: 0, focus: undefined }));
      return true;
    },
    copy(ui, cards) {
      const { actions } = live.current;
      const card = cards.find((c) => c.num === (ui.focus ?? cards[cards.length - 1]?.num));
      if (!card || !actions) return ui;
      actions.copy(cardText(card));
      return { ...ui, flash: `copied card #${card.num} to the clipboard` };
    },
    edit(ui) {
      const { view, composerControl } = live.current;
      const card = view.cards.find((c) => c.num === ui.focus);
      if (card?.kind !== "user") return { ...ui, flash: "e edits a message you sent: focus one with j/k first" };
      editing.current = { num: card.num, text: card.text };
      composerControl.current?.setText(card.text);
      return { ...ui, mode: "INSERT", editing: card.num, flash: `editing message #${card.num}: Enter sends it and goes on from there` };
    },
    rewindTo(ui) {
      const { view } = live.current;
      const card = view.cards.find((c) => c.num === ui.focus);
      if (card?.kind !== "user") return { ...ui, flash: "Esc Esc rewinds to before a message you sent: focus one with j/k first" };
      // Found by its text: an earlier rewind leaves the cards it cut in the transcript.
      const occurrence = view.cards.filter((c) => c.kind === "user" && c.num < card.num && c.text === card.text).length;
      return { ...ui, overlay: "rewind", rewindTarget: { message: card.text, occurrence } };
    },
    toggleYolo() {
      const x = live.current;
      x.controller.submit({ type: "set_yolo", on: !x.view.facts.yolo });
    },
    confirm(ui, input) {
      const asked = ui.confirm;
      const cleared = { ...ui, confirm: undefined };
      if (!asked || input !== "y") return { ...cleared, flash: "kept as it is" };
      if (asked.id === CONFIRM_INIT) {
        const out = live.current.actions?.initAgents(true);
        return { ...cleared, flash: out && "text" in out ? out.text : "nothing written" };
      }
      return cleared;
    },
  };
}
