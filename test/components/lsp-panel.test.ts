// The LSP block of the side panel, fed by lsp_server events through the
// reducer: every configured server, its latest state and its colour.

import { describe, expect, it } from "vitest";
import { createEmitter, type CoreEvent, type EventBody } from "../../core/events.js";
import { initialView, reduce, type SessionView } from "../../core/reducer.js";
import { sidePanelRows } from "../../components/side-panel-rows.js";
import { theme } from "../../components/theme.js";

function viewAfter(bodies: EventBody[]): SessionView {
  const events: CoreEvent[] = [];
  const { emit } = createEmitter("s", (e) => events.push(e));
  for (const b of bodies) emit(b);
  return events.reduce(reduce, initialView());
}

const rowsOf = (view: SessionView, lspServers?: string[]) =>
  sidePanelRows({ view, width: 34, height: 60, ...(lspServers ? { lspServers } : {}) });

describe("the side panel's language servers", () => {
  it("lists each configured server with its state: idle, starting, ready, failed, stopped", () => {
    const root = "/p";
    const view = viewAfter([
      { type: "lsp_server", server: "typescript", root, state: "starting" },
      { type: "lsp_server", server: "typescript", root, state: "ready", pid: 42 },
      { type: "lsp_server", server: "gopls", root, state: "failed", detail: "gopls could not start: gopls was not found" },
      { type: "lsp_server", server: "rust", root, state: "stopped", detail: "idle" },
    ]);
    const rows = rowsOf(view, ["gopls", "pyright", "rust", "typescript"]);
    const at = rows.findIndex((r) => r.text === "LSP 4");
    expect(at).toBeGreaterThan(0);
    expect(rows.slice(at + 1, at + 5)).toEqual([
      { text: "● gopls failed", color: theme.error },
      { text: "● pyright idle", color: theme.muted },
      { text: "● rust stopped", color: theme.muted },
      { text: "● typescript ready", color: theme.ok },
    ]);
    // A server that could not start is also said in the transcript.
    expect(view.cards.at(-1)).toMatchObject({ kind: "notice", level: "warning", text: "language server gopls: gopls could not start: gopls was not found" });
  });

  it("has no LSP block when no server is configured for the session", () => {
    expect(rowsOf(initialView()).some((r) => r.text.startsWith("LSP"))).toBe(false);
  });
});
