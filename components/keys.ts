// Normal-mode keys (the transcript has focus), after Chord's model with the
// familiar defaults. Pure: cancelling the turn and quitting are returned as
// effects for the caller to carry out.

import type { Key } from "ink";
import type { SessionView } from "../core/reducer.js";
import { defaultFolded, isFoldable } from "./cards/fold.js";
import { isDoublePress, toggleFold, type UiState } from "./ui-state.js";
import { findMatch } from "./search.js";

/** Keys while the search query is typed: the query grows, Enter jumps to the newest match. */
export function handleSearchKey(ui: UiState, input: string, key: Key, view: SessionView): UiState {
  const query = ui.search?.query ?? "";
  if (key.escape || ((key.backspace || key.delete) && query === "")) {
    const { search: _dropped, ...rest } = ui;
    return rest;
  }
  if (key.return) {
    const num = findMatch(view.cards, query, undefined, "back");
    return { ...ui, search: { query, editing: false }, ...(num === undefined ? {} : { focus: num }) };
  }
  if (key.backspace || key.delete) return { ...ui, search: { query: query.slice(0, -1), editing: true } };
  if (key.ctrl || key.meta || !input) return ui;
  return { ...ui, search: { query: query + input, editing: true } };
}

export interface KeyContext {
  view: SessionView;
  bodyHeight: number;
  running: boolean;
  now: number;
  /** False when the terminal is too narrow for the side panel: `s` opens it as an overlay. */
  wide?: boolean;
}

/** What a key asks of the session beyond the view's own state; the caller carries it out. */
export type KeyEffect = "cancel" | "quit" | "copy" | "edit_message" | "rewind_message";

export interface KeyOutcome {
  ui: UiState;
  effect?: KeyEffect;
}

/**
 * A key in Normal mode. Pure: it returns the next view state and the effect
 * the key asks for, so it can run inside a state updater (which React may
 * call twice) without cancelling or quitting twice.
 */
export function handleNormalKey(ui: UiState, input: string, key: Key, ctx: KeyContext): KeyOutcome {
  const ctrlC = input === "\u0003" || (key.ctrl && input === "c");
  const cancel = ctx.running ? { effect: "cancel" as const } : {};
  if (ctrlC) {
    if (isDoublePress(ui, "ctrl-c", ctx.now)) return { ui, effect: "quit" };
    return { ui: { ...ui, pending: { key: "ctrl-c", at: ctx.now } }, ...cancel };
  }
  // Esc cancels the running turn; Esc Esc on a focused message of yours rewinds to before it.
  if (key.escape) {
    const onMessage = ui.focus !== undefined && ctx.view.cards.find((c) => c.num === ui.focus)?.kind === "user";
    if (onMessage && isDoublePress(ui, "esc", ctx.now)) return { ui: { ...ui, pending: undefined }, effect: "rewind_message" };
    const hint = onMessage && !ctx.running ? { flash: "Esc again: rewind files and conversation to before this message" } : {};
    return { ui: { ...ui, pending: { key: "esc", at: ctx.now }, ...hint }, ...cancel };
  }
  if (input === "q") {
    if (isDoublePress(ui, "q", ctx.now)) return { ui, effect: "quit" };
    return { ui: { ...ui, pending: { key: "q", at: ctx.now } } };
  }
  if (input === "s" && ctx.wide === false) return { ui: { ...ui, overlay: "todos", pending: undefined } };
  // yy copies the focused card, e edits the focused message: the caller knows how.
  if (input === "y" && !key.ctrl) {
    if (isDoublePress(ui, "y", ctx.now)) return { ui: { ...ui, pending: undefined }, effect: "copy" };
    return { ui: { ...ui, pending: { key: "y", at: ctx.now } } };
  }
  if (input === "e" && !key.ctrl) return { ui: { ...ui, pending: undefined }, effect: "edit_message" };
  return { ui: moveOrOpen(ui, input, key, ctx) ?? overlayOrSearch(ui, input, key, ctx.view) ?? ui };
}

/** Moving the focus, scrolling and folding; undefined for any other key. */
function moveOrOpen(ui: UiState, input: string, key: Key, ctx: KeyContext): UiState | undefined {
  const cards = ctx.view.cards;
  const last = cards[cards.length - 1]?.num;
  const first = cards[0]?.num;
  const focus = ui.focus ?? last;
  const moveTo = (num: number | undefined): UiState => ({ ...ui, focus: num, pending: undefined });

  if (input === "j" || input === "}" || key.downArrow) {
    return focus === undefined || last === undefined ? ui : moveTo(Math.min(last, focus + 1));
  }
  if (input === "k" || input === "{" || key.upArrow) {
    return focus === undefined || first === undefined ? ui : moveTo(Math.max(first, focus - 1));
  }
  if (input === "G") return { ...ui, focus: undefined, scroll: 0, pending: undefined };
  if (input === "g") {
    if (isDoublePress(ui, "g", ctx.now)) return { ...moveTo(first), scroll: Number.MAX_SAFE_INTEGER };
    return { ...ui, pending: { key: "g", at: ctx.now } };
  }
  if (input === "o" || input === " " || key.return) {
    const card = cards.find((c) => c.num === focus);
    if (!card || !isFoldable(card)) return ui;
    const current = ui.folds.get(card.num) ?? defaultFolded(card);
    return { ...toggleFold(ui, card.num, current), focus: card.num };
  }
  if ((key.ctrl && input === "f") || key.pageDown) return { ...ui, scroll: Math.max(0, ui.scroll - ctx.bodyHeight), focus: undefined };
  if ((key.ctrl && input === "b") || key.pageUp) return { ...ui, scroll: ui.scroll + ctx.bodyHeight, focus: undefined };
  return undefined;
}

/** Overlays, search and the way back to Insert mode; undefined for any other key. */
function overlayOrSearch(ui: UiState, input: string, key: Key, view: SessionView): UiState | undefined {
  if (input === "?") return { ...ui, overlay: "help" };
  if (key.ctrl && input === "t") return { ...ui, overlay: "directory" };
  if (input === "/") return { ...ui, search: { query: "", editing: true }, pending: undefined };
  if ((input === "n" || input === "N") && ui.search?.query) {
    const focus = ui.focus ?? view.cards[view.cards.length - 1]?.num;
    const num = findMatch(view.cards, ui.search.query, focus, input === "n" ? "back" : "forward");
    return num === undefined ? ui : { ...ui, focus: num, pending: undefined };
  }
  if (input === "J") return { ...ui, overlay: "jobs" };
  if (input === "$") return { ...ui, overlay: "stats" };
  if (key.ctrl && input === "e") return { ...ui, overlay: "errors" };
  if (input === "s") return { ...ui, sidePanel: !ui.sidePanel };
  if (input === "i" || input === "a") return toInsert(ui);
  // Any other text (a letter Normal mode does not bind, a paste) starts a
  // message, as in Chord: the caller types the key into the composer.
  if (input === PASTE_START || (!key.ctrl && !key.meta && /^[^\x00-\x1f\x7f]+$/u.test(input))) return toInsert(ui);
  return undefined;
}

/** How Ink reports the start marker of a bracketed paste. */
const PASTE_START = "[200~";

function toInsert(ui: UiState): UiState {
  return { ...ui, mode: "INSERT", focus: undefined, scroll: 0, pending: undefined };
}
