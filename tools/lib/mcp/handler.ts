// The handler behind every MCP tool: one per tool a server registered, made
// when the server connects. It forwards the arguments as the model sent them
// (the server's JSON Schema is what the model was shown, and the server
// validates) and turns the answer into a result. What the server says of the
// tool decides its facts: one marked read-only only inspects and runs; any
// other may change anything, and on Yuj asks when no rule speaks to the call.

import { z } from "zod";
import type { McpTool } from "../../../core/mcp/connection.js";
import type { McpService } from "../../../core/mcp/manager.js";
import type { ActiveTool } from "../../../core/profiles/activate.js";
import { fail, type ToolEffect, type ToolHandler } from "../../../core/tool-types.js";
import { mcpAccessHandler } from "./access.js";
import { mcpResultToToolResult } from "./result.js";

const anyArguments = z.looseObject({});

export function mcpHandler(tool: McpTool, service: McpService): ToolHandler {
  if (tool.kind !== "tool") return mcpAccessHandler(tool, service);
  return {
    id: tool.readOnly ? "mcp_read_only" : "mcp",
    schema: anyArguments,
    effects: new Set<ToolEffect>(tool.readOnly ? ["inspect"] : ["mutate", "network"]),
    ...(tool.readOnly ? {} : { permissions: { askByDefault: "ask for MCP tools the server does not mark read-only" } }),
    view: { card: "foldable", summary: () => `${tool.server}: ${tool.remote}` },
    async run(args, ctx) {
      const got = await service.call(tool.server, tool.remote, args, ctx.signal);
      if (got.error !== undefined || !got.result) return fail(`ERROR: ${tool.exposed}: ${got.error ?? "no result"}`);
      return mcpResultToToolResult(tool.exposed, got.result);
    },
  };
}

/** The tool as a request carries it: the server's description and parameters. */
export function mcpActiveTool(tool: McpTool, service: McpService): ActiveTool {
  return {
    name: tool.exposed,
    handler: mcpHandler(tool, service),
    spec: {
      name: tool.exposed,
      description: `${tool.description}\n(From the MCP server "${tool.server}".)`,
      parameters: tool.inputSchema,
    },
  };
}
