import { describe, expect, it } from "vitest";
import type { Key } from "ink";
import { initialView, type SessionView } from "../../core/reducer.js";
import type { Card } from "../../core/reducer.js";
import { handleNormalKey, handleSearchKey, type KeyContext } from "../../components/keys.js";
import { findMatch } from "../../components/search.js";
import { initialUi, type UiState } from "../../components/ui-state.js";

const key = (k: Partial<Key> = {}): Key => ({
  upArrow: false, downArrow: false, leftArrow: false, rightArrow: false, pageDown: false, pageUp: false,
  home: false, end: false, return: false, escape: false, ctrl: false, shift: false, tab: false,
  backspace: false, delete: false, meta: false, super: false, hyper: false, capsLock: false, numLock: false,
  ...k,
} as Key);

const cards: Card[] = [
  { kind: "user", num: 1, text: "fix the parser" },
  { kind: "assistant", num: 2, text: "Reading parser.ts", streaming: false },
  { kind: "tool", num: 3, callId: "c", name: "read", argsText: '{"path":"parser.ts"}', status: "ok", viewText: "1: x" },
  { kind: "assistant", num: 4, text: "Done.", streaming: false },
];
const view: SessionView = { ...initialView(), cards };

function ctx(over: Partial<KeyContext> = {}): KeyContext {
  return { view, bodyHeight: 20, running: false, now: 1000, ...over };
}
/** The next view state alone (for keys that ask nothing of the session). */
const next = (ui: UiState, input: string, k: Key, c: KeyContext): UiState => handleNormalKey(ui, input, k, c).ui;

describe("normal-mode keys", () => {
  it("moves between cards and toggles the fold of a foldable one", () => {
    const c = ctx();
    let ui: UiState = { ...initialUi(false), mode: "NORMAL" };
    ui = next(ui, "k", key(), c);
    expect(ui.focus).toBe(3);
    ui = next(ui, "o", key(), c);
    expect(ui.folds.get(3)).toBe(true);
    ui = next(ui, "j", key(), c);
    expect(ui.focus).toBe(4);
    ui = next(ui, "o", key(), c); // an assistant card does not fold
    expect(ui.folds.has(4)).toBe(false);
  });

  it("asks to quit on a double q or Ctrl+C within 2 s, and to cancel a running turn on a single Ctrl+C or Esc", () => {
    const c = ctx({ running: true });
    const ui: UiState = { ...initialUi(false), mode: "NORMAL" };
    const first = handleNormalKey(ui, "c", key({ ctrl: true }), c);
    expect(first.effect).toBe("cancel");
    expect(handleNormalKey(first.ui, "c", key({ ctrl: true }), { ...c, now: 2500 }).effect).toBe("quit");
    expect(handleNormalKey(ui, "", key({ escape: true }), c).effect).toBe("cancel");
    expect(handleNormalKey(ui, "", key({ escape: true }), ctx()).effect).toBeUndefined();
    const idle = ctx();
    const q1 = handleNormalKey(ui, "q", key(), idle);
    expect(q1.effect).toBeUndefined();
    expect(handleNormalKey(q1.ui, "q", key(), { ...idle, now: 2000 }).effect).toBe("quit");
    expect(handleNormalKey(q1.ui, "q", key(), { ...idle, now: 4000 }).effect).toBeUndefined();
  });

  it("Esc Esc on a focused message of yours asks for the rewind; on another card, or too slow, it does not", () => {
    const c = ctx();
    const onMessage: UiState = { ...initialUi(false), mode: "NORMAL", focus: 1 };
    const first = handleNormalKey(onMessage, "", key({ escape: true }), c);
    expect(first.effect).toBeUndefined();
    expect(first.ui.flash).toMatch(/Esc again: rewind/);
    expect(handleNormalKey(first.ui, "", key({ escape: true }), { ...c, now: 1500 }).effect).toBe("rewind_message");
    expect(handleNormalKey(first.ui, "", key({ escape: true }), { ...c, now: 4000 }).effect).toBeUndefined();
    const onTool: UiState = { ...onMessage, focus: 3 };
    const again = handleNormalKey(handleNormalKey(onTool, "", key({ escape: true }), c).ui, "", key({ escape: true }), c);
    expect(again.effect).toBeUndefined();
  });

  it("is pure: the same key from the same state gives the same outcome every time", () => {
    const c = ctx({ running: true });
    const ui: UiState = { ...initialUi(false), mode: "NORMAL", pending: { key: "ctrl-c", at: 900 } };
    const once = handleNormalKey(ui, "c", key({ ctrl: true }), c);
    expect(handleNormalKey(ui, "c", key({ ctrl: true }), c)).toEqual(once);
    expect(ui.pending).toEqual({ key: "ctrl-c", at: 900 });
  });

  it("searches the transcript with /, Enter, n and N", () => {
    const c = ctx();
    let ui: UiState = next({ ...initialUi(false), mode: "NORMAL" }, "/", key(), c);
    for (const ch of "parser") ui = handleSearchKey(ui, ch, key(), view);
    ui = handleSearchKey(ui, "", key({ return: true }), view);
    expect(ui.search).toEqual({ query: "parser", editing: false });
    expect(ui.focus).toBe(3);
    ui = next(ui, "n", key(), c);
    expect(ui.focus).toBe(2);
    ui = next(ui, "n", key(), c);
    expect(ui.focus).toBe(1);
    ui = next(ui, "N", key(), c);
    expect(ui.focus).toBe(2);
    expect(findMatch(cards, "nothing like it", 4, "back")).toBeUndefined();
  });
});
