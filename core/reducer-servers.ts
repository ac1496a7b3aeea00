// The servers the side panel lists, language servers and MCP servers, each
// by its latest state. A failure is also worth a card; starts and stops are not.

import type { EventOf } from "./events.js";
import type { SessionView } from "./reducer.js";
import { addCard } from "./reducer-cards.js";

/** A language server as the side panel lists it: its latest state. */
export interface LspServerView {
  server: string;
  root: string;
  state: "starting" | "ready" | "failed" | "stopped";
  detail?: string;
}

/** An MCP server as the side panel lists it: its latest state and tool count. */
export interface McpServerView {
  server: string;
  state: "connecting" | "connected" | "failed" | "ended" | "stopped" | "disabled";
  tools: number;
  detail?: string;
}

export function lspServer(s: SessionView, event: EventOf<"lsp_server">): SessionView {
  const view: LspServerView = { server: event.server, root: event.root, state: event.state, ...(event.detail ? { detail: event.detail } : {}) };
  const next = { ...s, lsp: { ...s.lsp, [event.server]: view } };
  if (event.state !== "failed") return next;
  return addCard(next, { kind: "notice", level: "warning", text: `language server ${event.server}: ${event.detail ?? "failed"}` });
}

export function mcpServer(s: SessionView, event: EventOf<"mcp_server">): SessionView {
  const tools = event.state === "disabled" ? 0 : (event.tools?.length ?? s.mcp[event.server]?.tools ?? 0);
  const view: McpServerView = { server: event.server, state: event.state, tools, ...(event.detail ? { detail: event.detail } : {}) };
  const next = { ...s, mcp: { ...s.mcp, [event.server]: view } };
  // A failed start is reported once, as a card; the panel keeps the rest.
  if (event.state !== "failed" && event.state !== "ended") return next;
  return addCard(next, { kind: "notice", level: "warning", text: `MCP server ${event.server}: ${event.detail ?? event.state}` });
}
