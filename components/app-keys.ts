// The App's key handling. The key functions (keys.ts) are pure: they return
// the next view state and the effect a key asks for. Here the state is set
// and the effect carried out — outside any state updater, which React may
// call more than once, so a turn is cancelled once and quit happens once.

import { useRef } from "react";
import { useInput } from "ink";
import type { SessionController } from "../core/session-controller.js";
import type { SessionView } from "../core/reducer.js";
import type { PromptKind } from "./app-layout.js";
import { handleNormalKey, handleSearchKey, type KeyEffect } from "./keys.js";
import type { UiState } from "./ui-state.js";

export interface AppKeysOptions {
  ui: UiState;
  setUi(ui: UiState): void;
  view: SessionView;
  prompt: PromptKind;
  busy: boolean;
  bodyHeight: number;
  /** Where the transcript is scrolled to now (the viewport clamps it). */
  scroll: number;
  controller: SessionController;
  onQuit(): void;
}

export function useAppKeys(o: AppKeysOptions): void {
  // Keys can arrive faster than React renders: each one starts from the
  // state the previous one left, not from the last render's.
  const latest = useRef(o.ui);
  latest.current = o.ui;
  const set = (next: UiState) => {
    latest.current = next;
    o.setUi(next);
  };
  const carryOut = (effect: KeyEffect | undefined) => {
    if (effect === "cancel") void o.controller.submit({ type: "cancel" });
    else if (effect === "quit") o.onQuit();
  };
  const normalKey = (ui: UiState, input: string, key: Parameters<typeof handleNormalKey>[2]) => {
    const out = handleNormalKey(ui, input, key, { view: o.view, bodyHeight: o.bodyHeight, running: o.busy, now: Date.now() });
    set(out.ui);
    carryOut(out.effect);
  };

  // One handler, always listening, routes each key by the state the
  // previous key left. Handlers switched on and off per mode would let Ink
  // drop a key typed just after a mode change: with none listening for a
  // moment it resets its input parser, and an Esc it was holding is lost.
  useInput((input, key) => {
    const ui = latest.current;
    const searching = ui.search?.editing === true;
    const onTranscript = ui.overlay === "none" && o.prompt === "composer";
    if (searching && ui.overlay === "none") set(handleSearchKey(ui, input, key, o.view));
    if (onTranscript && ui.mode === "NORMAL" && !searching) return normalKey({ ...ui, scroll: o.scroll }, input, key);
    if (ui.mode !== "INSERT" && onTranscript) return;
    // Keys every mode shares: Esc leaves Insert, Ctrl+C cancels or quits.
    if (key.escape && onTranscript) set({ ...latest.current, mode: "NORMAL" });
    if (key.ctrl && input === "c") normalKey(latest.current, "\u0003", key);
  });
}
