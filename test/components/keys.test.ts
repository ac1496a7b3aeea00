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

function ctx(over: Partial<KeyContext> = {}): KeyContext & { calls: string[] } {
  const calls: string[] = [];
  return { view, bodyHeight: 20, running: false, now: 1000, cancel: () => calls.push("cancel"), quit: () => calls.push("quit"), calls, ...over };
}

describe("normal-mode keys", () => {
  it("moves between cards and toggles the fold of a foldable one", () => {
    const c = ctx();
    let ui: UiState = { ...initialUi(false), mode: "NORMAL" };
    ui = handleNormalKey(ui, "k", key(), c);
    expect(ui.focus).toBe(3);
    ui = handleNormalKey(ui, "o", key(), c);
    expect(ui.folds.get(3)).toBe(true);
    ui = handleNormalKey(ui, "j", key(), c);
    expect(ui.focus).toBe(4);
    ui = handleNormalKey(ui, "o", key(), c); // an assistant card does not fold
    expect(ui.folds.has(4)).toBe(false);
  });

  it("quits on a double q or Ctrl+C within 2 s, and a single Ctrl+C cancels a running turn", () => {
    const c = ctx({ running: true });
    let ui: UiState = { ...initialUi(false), mode: "NORMAL" };
    ui = handleNormalKey(ui, "c", key({ ctrl: true }), c);
    expect(c.calls).toEqual(["cancel"]);
    handleNormalKey(ui, "c", key({ ctrl: true }), { ...c, now: 2500 });
    expect(c.calls).toEqual(["cancel", "quit"]);
    const late = ctx();
    const q1 = handleNormalKey(ui, "q", key(), late);
    handleNormalKey(q1, "q", key(), { ...late, now: 4000 });
    expect(late.calls).toEqual([]);
  });

  it("searches the transcript with /, Enter, n and N", () => {
    const c = ctx();
    let ui: UiState = handleNormalKey({ ...initialUi(false), mode: "NORMAL" }, "/", key(), c);
    for (const ch of "parser") ui = handleSearchKey(ui, ch, key(), view);
    ui = handleSearchKey(ui, "", key({ return: true }), view);
    expect(ui.search).toEqual({ query: "parser", editing: false });
    expect(ui.focus).toBe(3);
    ui = handleNormalKey(ui, "n", key(), c);
    expect(ui.focus).toBe(2);
    ui = handleNormalKey(ui, "n", key(), c);
    expect(ui.focus).toBe(1);
    ui = handleNormalKey(ui, "N", key(), c);
    expect(ui.focus).toBe(2);
    expect(findMatch(cards, "nothing like it", 4, "back")).toBeUndefined();
  });
});
