// The handler behind every MCP tool: one per tool a server registered, made
// when the server connects. It forwards the arguments as the model sent them
// (the server's JSON Schema is what the model was shown, and the server
// validates) and turns the answer into a result. Its id tells the permission
// engine whether the server marked the tool read-only: on Yuj, `mcp` asks
// when no rule speaks to the call, `mcp_read_only` runs.

import { z } from "zod";
import type { McpTool } from "../../../core/mcp/connection.js";
import type { McpService } from "../../../core/mcp/manager.js";
import type { ActiveTool } from "../../../core/profiles/activate.js";
import { fail, type ToolHandler } from "../../../core/tool-types.js";
import { mcpResultToToolResult } from "./result.js";

const anyArguments = z.looseObject({});

export function mcpHandler(tool: McpTool, service: McpService): ToolHandler {
  return {
    id: tool.readOnly ? "mcp_read_only" : "mcp",
    schema: anyArguments,
    readOnly: tool.readOnly,
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
