// The tools yuj adds for a server that offers resources or prompts, named
// in the server's own scheme so a rule or a disabled server covers them as
// it covers the server's tools:
//
//   mcp_<server>_list_resources()          its resources and resource templates
//   mcp_<server>_read_resource(uri)        one resource's contents
//   mcp_<server>_list_prompts()            its prompts and their arguments
//   mcp_<server>_get_prompt(name, arguments?)  one prompt's messages
//
// Only the ones the server's capabilities say it offers are added. They
// read and never change anything; a server tool of the same name keeps it.

import type { McpTool, McpToolKind } from "./connection.js";
import { mcpToolName } from "./names.js";

interface Access {
  kind: Exclude<McpToolKind, "tool">;
  description: string;
  inputSchema: Record<string, unknown>;
}

const NO_PARAMETERS = { type: "object", properties: {} };

const RESOURCE_TOOLS: Access[] = [
  {
    kind: "list_resources",
    description: "Lists the resources this MCP server offers (URI, name, type) and its resource templates (URI patterns to fill in). Read one with the matching read_resource tool.",
    inputSchema: NO_PARAMETERS,
  },
  {
    kind: "read_resource",
    description: "Reads one resource of this MCP server by its URI (from list_resources, or a template filled in): its text, or an image.",
    inputSchema: { type: "object", properties: { uri: { type: "string", description: "The resource's URI, as the server names it" } }, required: ["uri"], additionalProperties: false },
  },
];

const PROMPT_TOOLS: Access[] = [
  {
    kind: "list_prompts",
    description: "Lists the prompts this MCP server offers, with the arguments each takes. Get one with the matching get_prompt tool.",
    inputSchema: NO_PARAMETERS,
  },
  {
    kind: "get_prompt",
    description: "Gets one prompt of this MCP server, filled in with its arguments: the messages it stands for.",
    inputSchema: {
      type: "object",
      properties: {
        name: { type: "string", description: "The prompt's name, from list_prompts" },
        arguments: { type: "object", additionalProperties: { type: "string" }, description: "The prompt's arguments by name (strings)" },
      },
      required: ["name"],
      additionalProperties: false,
    },
  },
];

export function mcpAccessTools(server: string, offers: { resources: boolean; prompts: boolean }): McpTool[] {
  const chosen = [...(offers.resources ? RESOURCE_TOOLS : []), ...(offers.prompts ? PROMPT_TOOLS : [])];
  return chosen.map((a) => ({
    server,
    kind: a.kind,
    remote: a.kind,
    exposed: mcpToolName(server, a.kind),
    description: a.description,
    inputSchema: a.inputSchema,
    readOnly: true,
  }));
}
