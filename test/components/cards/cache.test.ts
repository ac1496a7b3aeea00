import { beforeAll, describe, expect, it } from "vitest";
import type { Card } from "../../../core/reducer.js";
import { createCardCache } from "../../../components/cards/cache.js";
import { loadMarkdown } from "../../../components/cards/markdown.js";
import { numbered, opts, tool } from "./helpers.js";

beforeAll(() => loadMarkdown());

describe("card cache", () => {
  it("returns the same array for an unchanged card", () => {
    const cache = createCardCache();
    const card: Card = { kind: "assistant", num: 1, text: "**hi**", streaming: false };
    const a = cache.lines(card, opts());
    expect(cache.lines(card, opts())).toBe(a);
    // An equal card rebuilt elsewhere (a replay) hits too.
    expect(cache.lines({ ...card }, opts())).toBe(a);
  });

  it("renders again when content, width, focus or colour change", () => {
    const cache = createCardCache();
    const card: Card = { kind: "user", num: 1, text: "hello" };
    const a = cache.lines(card, opts());
    expect(cache.lines({ ...card, text: "hello!" }, opts())).not.toBe(a);
    const b = cache.lines({ ...card, text: "hello!" }, opts());
    expect(cache.lines({ ...card, text: "hello!" }, opts({ width: 40 }))).not.toBe(b);
    expect(cache.lines({ ...card, text: "hello!" }, opts({ focused: true }))).not.toBe(b);
    expect(cache.lines({ ...card, text: "hello!" }, opts({ color: true }))).not.toBe(b);
    // Back to the first options: still cached.
    expect(cache.lines({ ...card, text: "hello!" }, opts())).toBe(b);
  });

  it("fold state splits the cache only where folding shows something else", () => {
    const cache = createCardCache();
    const long = tool("read", { path: "a" }, "ok", { viewText: numbered(30) });
    expect(cache.lines(long, opts({ folded: true }))).not.toBe(cache.lines(long, opts({ folded: false })));
    const short = tool("read", { path: "a" }, "ok", { viewText: numbered(3) });
    expect(cache.lines(short, opts({ folded: true }))).not.toBe(cache.lines(short, opts({ folded: false })));
    const empty = tool("read", { path: "a" }, "ok", { viewText: "" });
    expect(cache.lines(empty, opts({ folded: true }))).toBe(cache.lines(empty, opts({ folded: false })));
    const edit = tool("edit", { path: "a", old_str: "x", new_str: "y" }, "ok");
    expect(cache.lines(edit, opts({ folded: true }))).toBe(cache.lines(edit, opts({ folded: false })));
  });

  it("a streaming card is re-rendered as it grows, and its old lines dropped", () => {
    const cache = createCardCache();
    let card: Card = { kind: "assistant", num: 7, text: "Hel", streaming: true };
    const first = cache.lines(card, opts());
    card = { ...card, text: "Hello" };
    const second = cache.lines(card, opts());
    expect(second).not.toBe(first);
    expect(second[1]).toContain("Hello");
    expect(cache.size).toBe(1);
  });

  it("retain forgets cards that left the transcript", () => {
    const cache = createCardCache();
    const a: Card = { kind: "user", num: 1, text: "a" };
    const b: Card = { kind: "user", num: 2, text: "b" };
    cache.lines(a, opts());
    cache.lines(b, opts());
    cache.retain([b]);
    expect(cache.size).toBe(1);
    cache.clear();
    expect(cache.size).toBe(0);
  });
});
