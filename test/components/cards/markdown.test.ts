import stringWidth from "string-width";
import { describe, expect, it } from "vitest";
import {
  loadMarkdown,
  markdownGeneration,
  onMarkdownReady,
  renderMarkdown,
  renderStreaming,
} from "../../../components/cards/markdown.js";
import { plainLines } from "../../../components/cards/markdown.js";
import { plain } from "./helpers.js";

describe("markdown", () => {
  it("renders plain text until the engine is loaded, then Markdown", async () => {
    // This file runs in its own process (pool: forks), so nothing loaded it yet.
    let told = 0;
    const off = onMarkdownReady(() => told++);
    if (markdownGeneration() === 0) expect(renderMarkdown("**x**", 20, false)).toEqual(["**x**"]);
    await loadMarkdown();
    off();
    expect(markdownGeneration()).toBe(1);
    expect(told).toBeLessThanOrEqual(1);
    expect(renderMarkdown("**x**", 20, false)).toEqual(["x"]);
  });

  it("caches by text, width and colour", async () => {
    await loadMarkdown();
    const a = renderMarkdown("# Title\n\nbody", 40, true);
    expect(renderMarkdown("# Title\n\nbody", 40, true)).toBe(a);
    expect(renderMarkdown("# Title\n\nbody", 41, true)).not.toBe(a);
    expect(renderMarkdown("# Title\n\nbody", 40, false)).not.toBe(a);
  });

  it("wraps paragraphs, lists, code and tables to the width", async () => {
    await loadMarkdown();
    const md = [
      "A paragraph with **bold** words that is long enough to wrap a few times at this width.",
      "",
      "- a list item that is also long enough to wrap onto a second row",
      "  - nested item",
      "",
      "```ts",
      `const s = "${"x".repeat(120)}";`,
      "```",
      "",
      "| a | b |",
      "|---|---|",
      "| 1 | 2 |",
      "",
      "---",
      "",
      "[site](https://example.com/some/long/path)",
    ].join("\n");
    for (const width of [10, 30, 72]) {
      for (const color of [false, true]) {
        for (const l of renderMarkdown(md, width, color)) expect(stringWidth(l)).toBeLessThanOrEqual(width);
      }
    }
    const text = plain(renderMarkdown(md, 72, false)).join("\n");
    expect(text).toContain("site (https://example.com/some/long/path)");
    expect(text).not.toContain("**");
  });

  it("streaming text is plain and grows incrementally with the same rows", () => {
    const a = renderStreaming("line one\nline **two", 40);
    expect(a).toEqual(["line one", "line **two"]);
    const b = renderStreaming("line one\nline **two**\nthree", 40);
    expect(b).toEqual(["line one", "line **two**", "three"]);
    expect(renderStreaming("\n\nhi\n\n", 40)).toEqual(["hi"]);
    expect(renderStreaming("other text", 40)).toEqual(["other text"]);
  });

  it("incremental streaming rows equal a fresh wrap of the same text", () => {
    const words = "alpha beta\tgamma delta epsilon\n zeta\x1b[2J eta theta\n\n iota kappa lambda mu ".split(" ");
    let text = "";
    for (let i = 0; i < 300; i++) {
      text += `${words[i % words.length]} `;
      // Up to spaces left at the end of a row, which nobody sees.
      const trim = (rows: string[]) => rows.map((r) => r.trimEnd());
      expect(trim(renderStreaming(text, 23, "card-1"))).toEqual(trim(plainLines(text, 23)));
    }
  });
});
