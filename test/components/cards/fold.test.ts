import { describe, expect, it } from "vitest";
import { cardLayout, defaultFolded, FOLD_PREVIEW_LINES, isFoldable } from "../../../components/cards/fold.js";
import { renderCard } from "../../../components/cards/render.js";
import { numbered, opts, plain, tool } from "./helpers.js";

// The layout is the tool's own (its handler's view); a tool no handler
// knows (a card from an older trace) folds.
const FOLDABLE = [
  "read", "grep", "glob", "shell", "bash", "bash_poll", "job_output", "job_list", "lsp", "run_tests",
  "structural_search", "list_definitions", "some_unknown_tool",
];
const EXPANDED = [
  "edit", "write", "apply_patch", "udiff", "notebook_edit", "structural_edit", "delete", "todo_write", "write_todos",
  "question", "ask_user", "handoff",
];

describe("fold rules", () => {
  it.each(FOLDABLE)("%s folds", (name) => {
    expect(isFoldable(tool(name, {}))).toBe(true);
  });

  it.each(EXPANDED)("%s is always expanded", (name) => {
    const card = tool(name, {}, "ok", { viewText: numbered(40) });
    expect(cardLayout(card)).toBe("expanded");
    expect(isFoldable(card)).toBe(false);
    expect(defaultFolded(card)).toBe(false);
  });

  it("done is a control card, whatever its result's length", () => {
    const card = tool("done", { message: "m" }, "ok", { viewText: numbered(40) });
    expect(cardLayout(card)).toBe("control");
    expect(defaultFolded(card)).toBe(false);
  });

  it("non-tool cards never fold", () => {
    expect(isFoldable({ kind: "user", num: 1, text: "x\n".repeat(50) })).toBe(false);
    expect(isFoldable({ kind: "assistant", num: 2, text: "x\n".repeat(50), streaming: false })).toBe(false);
    expect(isFoldable({ kind: "notice", num: 3, level: "info", text: "x" })).toBe(false);
    expect(defaultFolded({ kind: "user", num: 1, text: "x\n".repeat(50) })).toBe(false);
  });

  it("a foldable card starts folded only when its body is longer than the preview", () => {
    expect(defaultFolded(tool("read", { path: "a" }, "ok", { viewText: numbered(FOLD_PREVIEW_LINES) }))).toBe(false);
    expect(defaultFolded(tool("read", { path: "a" }, "ok", { viewText: numbered(FOLD_PREVIEW_LINES + 1) }))).toBe(true);
    // No output yet: nothing to fold.
    expect(defaultFolded(tool("shell", { cmd: "ls" }, "running"))).toBe(false);
  });

  it("folded shows header, the first 10 body lines and a more line; open shows all", () => {
    const card = tool("grep", { pattern: "x" }, "ok", { viewText: Array.from({ length: 25 }, (_, i) => `a.ts:${i}:x`).join("\n") });
    const folded = plain(renderCard(card, opts({ folded: true })));
    expect(folded).toHaveLength(1 + FOLD_PREVIEW_LINES + 1);
    expect(folded[0]).toContain("▸");
    expect(folded[1]).toContain("a.ts:0:x");
    expect(folded[10]).toContain("a.ts:9:x");
    expect(folded[11]).toContain("… 15 more lines (o to open)");

    const open = plain(renderCard(card, opts({ folded: false })));
    expect(open).toHaveLength(1 + 25);
    expect(open[0]).toContain("▾");
    expect(open.join("\n")).not.toContain("more lines");
  });

  it("folding a short card hides its body behind one line, and ▸ marks it", () => {
    const card = tool("glob", { pattern: "*.ts" }, "ok", { viewText: "a.ts\nb.ts" });
    const folded = plain(renderCard(card, opts({ folded: true })));
    expect(folded[0]).toContain("▸");
    expect(folded.join("\n")).not.toContain("a.ts");
    expect(folded.at(-1)).toContain("… 2 lines folded (o to open)");
    expect(plain(renderCard(card, opts({ folded: false })))[0]).toContain("▾");
  });

  it("fold keys are ignored by always-expanded cards", () => {
    const card = tool("write", { path: "a.txt", content: "x\n".repeat(15) }, "ok", { viewText: "OK" });
    expect(renderCard(card, opts({ folded: true }))).toEqual(renderCard(card, opts({ folded: false })));
  });
});
