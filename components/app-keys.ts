// The App's key handling. The key functions (keys.ts) are pure: they return
// the next view state and the effect a key asks for. Here the state is set
// and the effect carried out — outside any state updater, which React may
// call more than once, so a turn is cancelled once and quit happens once.

import { useCallback, useRef, type MutableRefObject } from "react";
import { useInput } from "ink";
import type { SessionController } from "../core/session-controller.js";
import type { SessionView } from "../core/reducer.js";
import type { PromptKind } from "./app-layout.js";
import type { ComposerControl, KeyHandler } from "./Composer.js";
import { handleNormalKey, handleSearchKey, type KeyEffect } from "./keys.js";
import { completeSlash } from "./slash.js";
import { nextAgentView } from "./agent-views.js";
import type { FrontCommands } from "./front-commands.js";
import type { UiState } from "./ui-state.js";

type Key = Parameters<KeyHandler>[1];

export interface AppKeysOptions {
  /** The commands reaching past the view (yy, e, Ctrl+Y, a confirmation). */
  front: FrontCommands;
  /** The stats, errors, rules or sessions overlay's handler. */
  panelKeys: MutableRefObject<KeyHandler | undefined>;
  ui: UiState;
  setUi(ui: UiState): void;
  /** The transcript shown (the main agent's or one worker's): j/k, search and copy work on its cards. */
  view: SessionView;
  /** The whole session's view: its agents, for Shift+Tab. */
  session: SessionView;
  prompt: PromptKind;
  /** False while an approval waits for typing to pause: keys still go where they went before. */
  armed: boolean;
  busy: boolean;
  bodyHeight: number;
  /** Where the transcript is scrolled to now (the viewport clamps it). */
  scroll: number;
  controller: SessionController;
  onQuit(): void;
  /** Handlers the composer and the jobs panel register: the router calls them for their keys. */
  composerKeys: MutableRefObject<KeyHandler | undefined>;
  jobsKeys: MutableRefObject<KeyHandler | undefined>;
  /** The approval and loop report prompts' handlers. */
  approvalKeys: MutableRefObject<KeyHandler | undefined>;
  reportKeys: MutableRefObject<KeyHandler | undefined>;
  /** Replaces the draft (a completed command); says when the composer takes every key (Ctrl+R). */
  composerControl: MutableRefObject<ComposerControl | undefined>;
  /** False when the terminal is too narrow for the side panel. */
  wide: boolean;
  /** The draft as typed so far. */
  draft: MutableRefObject<string>;
  /** When the last key arrived (prompts arm after a pause). */
  lastKeyAt: MutableRefObject<number>;
}

export function useAppKeys(o: AppKeysOptions): void {
  // Keys can arrive faster than React renders: each one starts from the
  // state the previous one left, not from the last render's.
  const latest = useRef(o.ui);
  latest.current = o.ui;
  const live = useRef(o);
  live.current = o;
  const route = useCallback((input: string, key: Key) => {
    const x = live.current;
    x.lastKeyAt.current = Date.now();
    const set = (next: UiState) => {
      latest.current = next;
      x.setUi(next);
    };
    const carryOut = (effect: KeyEffect | undefined, ui: UiState) => {
      if (effect === "cancel") void x.controller.submit({ type: "cancel" });
      else if (effect === "quit") x.onQuit();
      else if (effect === "copy") set(x.front.copy(ui, x.view.cards));
      else if (effect === "edit_message") set(ui.agent === undefined ? x.front.edit(ui) : { ...ui, flash: "e edits a message you sent: Shift+Tab back to the main view first" });
      else if (effect === "rewind_message") set(ui.agent === undefined ? x.front.rewindTo(ui) : { ...ui, flash: "Esc Esc rewinds to a message you sent: Shift+Tab back to the main view first" });
    };
    // Timed when the key arrives, not by the last frame.
    const normalKey = (ui: UiState, k: string) => {
      const out = handleNormalKey(ui, k, key, { view: x.view, bodyHeight: x.bodyHeight, running: x.busy, now: Date.now(), wide: x.wide });
      set(out.ui);
      carryOut(out.effect, out.ui);
      return latest.current;
    };
    if (latest.current.flash) set({ ...latest.current, flash: undefined });
    // A confirmation takes the next key, whatever it is.
    if (latest.current.confirm) return set(x.front.confirm(latest.current, input));
    const ui = latest.current;
    // Shift+Tab shows the next agent's transcript in any mode; an overlay keeps its keys.
    if (key.tab && key.shift && ui.overlay === "none") return set(nextAgentView(ui, x.session));
    const ctrlC = key.ctrl && input === "c";
    // YOLO on or off from anywhere but a prompt that has the keys.
    if (key.ctrl && input === "y" && !(x.prompt === "answer" || (x.prompt === "approval" && x.armed))) return x.front.toggleYolo();
    // An open overlay and an armed prompt take the keys; Ctrl+C works everywhere.
    // The loop's report prompt gives its keys to the report's viewer while that is open.
    const promptHasKeys = x.prompt === "answer" || (x.prompt === "approval" && x.armed) || (x.prompt === "report" && x.armed && ui.overlay === "none");
    // The MCP servers' overlay, opened or closed from anywhere a prompt does not have the keys.
    if (key.ctrl && input === "o" && !promptHasKeys) return set({ ...ui, overlay: ui.overlay === "mcp" ? "none" : "mcp" });
    if (ui.overlay !== "none" || promptHasKeys) {
      if (ctrlC) return void normalKey(ui, "\u0003");
      if (x.prompt === "approval" && promptHasKeys) return x.approvalKeys.current?.(input, key);
      if (x.prompt === "report" && promptHasKeys) return x.reportKeys.current?.(input, key);
      if (ui.overlay === "todos" && !promptHasKeys && (key.escape || input === "q" || input === "s")) return set({ ...ui, overlay: "none" });
      // The jobs panel opened by the key before this one takes this one.
      if (ui.overlay === "jobs" && !promptHasKeys) x.jobsKeys.current?.(input, key);
      else if (ui.overlay !== "help" && ui.overlay !== "directory" && !promptHasKeys) x.panelKeys.current?.(input, key);
      return;
    }
    if (ui.search?.editing) return set(handleSearchKey(ui, input, key, x.view));
    // Tab cycles the main agent's role, in either mode, except where it completes: a slash command, an @-mention's path.
    const completing = ui.mode === "INSERT" && (x.draft.current.startsWith("/") || x.composerControl.current?.inMention() === true);
    if (key.tab && !key.shift && !completing) {
      return void x.controller.submit({ type: "set_main_role" }, "Tab");
    }
    if (ui.mode === "NORMAL") {
      const next = normalKey({ ...ui, scroll: x.scroll }, input);
      // A key Normal mode does not bind starts Insert mode and is typed there.
      if (next.mode === "INSERT" && input !== "i" && input !== "a") x.composerKeys.current?.(input, key);
      return;
    }
    // The history search takes Esc and Ctrl+C itself (they end the search).
    if (x.composerControl.current?.capturing()) return x.composerKeys.current?.(input, key);
    if (key.escape) return set({ ...ui, mode: "NORMAL" });
    if (ctrlC) return void normalKey(ui, "\u0003");
    if (key.tab && x.draft.current.startsWith("/")) {
      const completed = completeSlash(x.draft.current);
      if (completed) x.composerControl.current?.setText(completed);
      return;
    }
    x.composerKeys.current?.(input, key);
  }, []);

  // One handler, always listening, routes each key by the state the
  // previous key left. Handlers switched on and off per mode would let Ink
  // drop a key typed just after a mode change, and would miss the keys of
  // the same read (`i` and the text typed right after it).
  useInput(route);
}
