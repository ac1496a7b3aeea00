// The MCP block of the side panel and the failure card, fed by mcp_server
// events through the reducer.

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

describe("the side panel's MCP servers", () => {
  it("lists each server with its state and tool count; a failure is also a card, once", () => {
    const view = viewAfter([
      { type: "mcp_server", server: "files", state: "connecting", transport: "stdio" },
      { type: "mcp_server", server: "files", state: "connected", transport: "stdio", tools: ["mcp_files_read", "mcp_files_list"] },
      { type: "mcp_server", server: "broken", state: "connecting", transport: "stdio" },
      { type: "mcp_server", server: "broken", state: "failed", transport: "stdio", detail: "the process exited with code 3" },
    ]);
    const rows = sidePanelRows({ view, width: 34, height: 60 });
    const at = rows.findIndex((r) => r.text === "MCP 2");
    expect(rows.slice(at + 1, at + 3)).toEqual([
      { text: "● files connected 2 tools", color: theme.ok },
      { text: "● broken failed", color: theme.error },
    ]);
    expect(view.cards.filter((c) => c.kind === "notice")).toEqual([expect.objectContaining({ level: "warning", text: "MCP server broken: the process exited with code 3" })]);
  });

  it("has no MCP block without servers", () => {
    expect(sidePanelRows({ view: initialView(), width: 34, height: 60 }).some((r) => r.text.startsWith("MCP"))).toBe(false);
  });
});
