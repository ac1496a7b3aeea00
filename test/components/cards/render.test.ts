import stringWidth from "string-width";
import { beforeAll, describe, expect, it } from "vitest";
import type { Card } from "../../../core/reducer.js";
import { loadMarkdown } from "../../../components/cards/markdown.js";
import { renderCard } from "../../../components/cards/render.js";
import { expectSafe, hasAnsi, numbered, opts, plain, tool } from "./helpers.js";

beforeAll(() => loadMarkdown());

const LONG = "word ".repeat(60).trim();
const READ_LINES = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`);
const cards: Card[] = [
  { kind: "user", num: 1, text: `Fix it please. ${LONG}` },
  { kind: "assistant", num: 2, text: `# Plan\n\n- **one** ${LONG}\n- two\n\n\`\`\`ts\nconst x = 1;\n\`\`\``, streaming: false },
  { kind: "assistant", num: 3, text: `still *typing* ${LONG}`, streaming: true },
  tool("read", { path: "/repo/src/a.ts" }, "ok", { display: { kind: "file", path: "src/a.ts", startLine: 1, lines: READ_LINES }, durationMs: 4 }),
  tool("grep", { pattern: "x" }, "ok", {
    display: { kind: "matches", matches: Array.from({ length: 12 }, () => ({ path: "a.ts", line: 1, text: LONG })), total: 12 },
  }),
  tool("shell", { command: "make\nmake test" }, "error", {
    display: { kind: "command", command: "make\nmake test", output: "boom\n".repeat(14), status: "exited", exitCode: 2, fullOutputPath: "/repo/.yuj/out.txt" },
  }),
  tool("mcp_docs_search", { query: "ink" }, "running"),
  tool("edit", { path: "src/a.ts", old_str: "a\nb\n", new_str: "a\nc\n" }, "ok", { modelText: "OK" }),
  tool("write", { path: "n.txt", content: numbered(30) }, "ok", { modelText: "OK: wrote 10 bytes to n.txt" }),
  tool("apply_patch", { patch: "*** Begin Patch\n*** Update File: a\n@@\n-x\n+y\n*** End Patch" }, "ok", { modelText: "applied" }),
  tool("delete", { paths: ["a.txt", "/repo/b.txt"] }, "ok", {
    modelText: "Deleted 2 paths:\n- a.txt; backup: /s/a\n- b.txt; backup: /s/b",
    display: { kind: "paths", paths: ["a.txt", "b.txt"], total: 2, hint: "deleted; each one backed up in the session folder" },
  }),
  tool("todo_write", { todos: [{ id: "1", content: "a", status: "completed" }, { id: "2", content: "b", status: "in_progress" }] }, "ok", {
    display: { kind: "todos", todos: [{ description: "a", status: "completed" }, { description: "b", status: "in_progress" }] },
  }),
  tool("question", { questions: { question: "Which DB?", options: [{ label: "pg" }, { label: "sqlite" }] } }, "ok", {
    modelText: '{"answers":[{"answer":"pg"}]}',
    display: { kind: "questions", items: [{ question: "Which DB?", options: ["pg", "sqlite"], answer: "pg" }] },
  }),
  tool("run_tests", { path: "tests" }, "error", {
    modelText: '<test_results status="failed" exit_code="1" runner="pytest">\nFAILED tests/test_a.py::test_x\n</test_results>',
    display: { kind: "command", command: "python -m pytest tests", output: "FAILED tests/test_a.py::test_x\n[pytest: failed]", status: "exited", exitCode: 1 },
  }),
  tool("done", { message: "## Report\n\nAll done." }, "ok"),
  tool("structural_search", { path: "src", language: "python", query: "(call) @c" }, "ok", {
    display: { kind: "matches", matches: [{ path: "src/a.py", line: 3, text: "(call) f(x)" }], total: 1, page: 1, nextPage: 0 },
  }),
  tool("edit", '{"path":"a.ts","old_str":"xx', "streaming"),
  { kind: "notice", num: 40, level: "warning", text: "Retrying in 2s" },
];

describe("renderCard", () => {
  it.each(cards.map((c) => [`${c.kind} #${c.num}${c.kind === "tool" ? ` ${c.name}` : ""}`, c] as const))(
    "%s: folded and open, every width, colour and not",
    (_label, card) => {
      for (const width of [8, 20, 37, 80, 200]) {
        for (const folded of [true, false]) {
          for (const color of [false, true]) {
            const lines = renderCard(card, opts({ width, folded, color }));
            expect(lines.length).toBeGreaterThan(0);
            expectSafe(lines, width);
            if (!color) expect(hasAnsi(lines)).toBe(false);
          }
        }
      }
    },
  );

  it("a header line then the body, indented", () => {
    const lines = plain(renderCard({ kind: "user", num: 9, text: "hello\nworld" }, opts()));
    expect(lines).toEqual(["  USER #9", "    hello", "    world"]);
  });

  it("wraps long lines within the width", () => {
    const lines = renderCard({ kind: "user", num: 1, text: LONG }, opts({ width: 30 }));
    expect(lines.length).toBeGreaterThan(5);
    for (const l of lines) expect(stringWidth(l)).toBeLessThanOrEqual(30);
    expect(plain(lines).slice(1).join(" ").replace(/\s+/g, " ").trim()).toBe(LONG);
  });

  it("wraps wide characters by display width", () => {
    const lines = renderCard({ kind: "user", num: 1, text: "日本語".repeat(30) }, opts({ width: 21 }));
    for (const l of lines) expect(stringWidth(l)).toBeLessThanOrEqual(21);
  });

  it("marks the focused card on every row", () => {
    const card: Card = { kind: "user", num: 1, text: "a\nb" };
    expect(plain(renderCard(card, opts({ focused: true })))).toEqual(["▌ USER #1", "▌   a", "▌   b"]);
    expect(plain(renderCard(card, opts({ focused: false })))).toEqual(["  USER #1", "    a", "    b"]);
  });

  it("assistant: plain text while streaming, Markdown once finished", () => {
    const text = "Some **bold** and `code`.";
    const streaming = plain(renderCard({ kind: "assistant", num: 1, text, streaming: true }, opts()));
    expect(streaming[1]).toContain("**bold**");
    const done = plain(renderCard({ kind: "assistant", num: 1, text, streaming: false }, opts()));
    expect(done[1]).toContain("Some bold and code.");
    const coloured = renderCard({ kind: "assistant", num: 1, text, streaming: false }, opts({ color: true }));
    expect(coloured[1]).toContain("\x1b[1mbold\x1b[22m");
  });

  it("tool output with terminal escapes comes out harmless", () => {
    const evil = "before\x1b[2Jafter\n\x1b]0;title\x07\ntab\there\r\nbell\x07 csi\x9b31m";
    const card = tool("shell", { command: "cat evil" }, "ok", { display: { kind: "command", command: "cat evil", output: evil, status: "exited", exitCode: 0 } });
    for (const color of [false, true]) {
      const lines = renderCard(card, opts({ color }));
      expectSafe(lines, 80);
      const text = plain(lines).join("\n");
      expect(text).toContain("before␛[2Jafter");
      expect(text).toContain("␛]0;title␇");
      expect(text).toContain("tab here");
      expect(text).toContain("⟨U+009B⟩31m");
      expect(text).not.toContain("\x1b[2J");
      expect(text).not.toContain("\x07");
    }
  });

  it("escapes inside model Markdown are neutralised too", () => {
    const lines = renderCard({ kind: "assistant", num: 1, text: "hi \x1b[2J **x** \x1b]8;;http://e\x07link", streaming: false }, opts({ color: true }));
    expectSafe(lines, 80);
    expect(plain(lines).join("\n")).toContain("␛[2J");
  });

  it("foldable tool: full output path and cancelled", () => {
    const lines = plain(renderCard(cards[5]!, opts({ folded: true })));
    expect(lines.at(-1)).toBe("    full output: .yuj/out.txt");
    expect(lines[1]).toBe("    $ make");
    const cancelled = plain(renderCard(tool("shell", { command: "sleep 9" }, "cancelled"), opts()));
    expect(cancelled.at(-1)).toBe("    cancelled");
  });

  it("read: the lines read, numbered, numbers dim with colour", () => {
    const card = tool("read", { path: "a.ts" }, "ok", { display: { kind: "file", path: "a.ts", startLine: 1, lines: ["import x", "", "export {}"] } });
    expect(plain(renderCard(card, opts())).slice(1)).toEqual(["    1  import x", "    2", "    3  export {}"]);
    expect(renderCard(card, opts({ color: true }))[1]).toContain("\x1b[2m1\x1b[22m");
  });

  it("streaming tool calls count the characters received", () => {
    const lines = plain(renderCard(tool("edit", '{"path":"a.ts","old_str":"xx', "streaming"), opts()));
    expect(lines).toEqual([expect.stringMatching(/^ {2}TOOL CALL #\d+ edit ⋯$/), "    28 chars received"]);
  });

  it("todo, question, delete and test-run bodies", () => {
    const todo = plain(renderCard(cards[11]!, opts()));
    expect(todo.slice(1)).toEqual(["    ✓ a", "    ▶ b"]);
    const q = plain(renderCard(cards[12]!, opts()));
    expect(q.slice(1)).toEqual(["    Which DB?", "    • pg", "    • sqlite", "    ↳ pg"]);
    const del = plain(renderCard(cards[10]!, opts()));
    expect(del.slice(1)).toEqual(["    • a.txt", "    • b.txt", "    deleted; each one backed up in the session folder"]);
    const tests = plain(renderCard(cards[13]!, opts()));
    expect(tests[0]).toMatch(/run_tests tests ✗$/);
    expect(tests.slice(1)).toEqual(["    FAILED tests/test_a.py::test_x", "    [pytest: failed]"]);
    expect(tests.join("\n")).not.toContain("<test_results");
  });

  it("notice colours follow the level", () => {
    const lines = renderCard({ kind: "notice", num: 1, level: "error", text: "bad" }, opts({ color: true }));
    expect(lines[1]).toContain("\x1b[31mbad\x1b[39m");
  });

  it("degenerate widths still fit", () => {
    for (const card of cards) for (const width of [1, 2, 3, 5]) expectSafe(renderCard(card, opts({ width })), width);
  });
});
