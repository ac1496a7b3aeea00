// The handlers of the tools yuj adds for a server's resources and prompts
// (core/mcp/access-tools.ts names them). Each reads: lists come back one
// entry a line, a resource's contents and a prompt's messages go through the
// same result rules as a tool's (text as it is, images to the model).
// Permission rules meet the resource's URI for read_resource, the prompt's
// name for get_prompt, and the server's name for the two lists.

import { z } from "zod";
import type { CallToolResult, GetPromptResult, Prompt, ReadResourceResult, Resource, ResourceTemplate } from "@modelcontextprotocol/sdk/types.js";
import type { McpTool } from "../../../core/mcp/connection.js";
import type { McpService, McpWork } from "../../../core/mcp/manager.js";
import { textTarget } from "../../../core/permissions/match-target.js";
import { fail, INSPECTS, ok, type ToolHandler, type ToolResult } from "../../../core/tool-types.js";
import { mcpResultToToolResult } from "./result.js";

type Content = CallToolResult["content"][number];

/** Lists are read page by page up to this many entries: a server with more says so in the last line. */
const MAX_LISTED = 500;

const readSchema = z.looseObject({ uri: z.string().min(1, "uri is empty: give a resource URI from list_resources") });
const promptSchema = z.looseObject({
  name: z.string().min(1, "name is empty: give a prompt name from list_prompts"),
  arguments: z.record(z.string(), z.string()).optional(),
});
const noArguments = z.looseObject({});

export function mcpAccessHandler(tool: McpTool, service: McpService): ToolHandler {
  const base = { id: "mcp_read_only", effects: INSPECTS };
  const use = async <T extends object>(work: McpWork<T>, signal: AbortSignal, then: (value: T) => ToolResult | Promise<ToolResult>): Promise<ToolResult> => {
    const got = await service.use(tool.server, work, signal);
    return "error" in got && typeof got.error === "string" ? fail(`ERROR: ${tool.exposed}: ${got.error}`) : then(got as T);
  };
  switch (tool.kind) {
    case "read_resource":
      return handler<typeof readSchema>({
        ...base,
        schema: readSchema,
        matchValue: (args) => textTarget(args.uri),
        view: { card: "foldable", summary: (args) => `${tool.server}: ${String(args.uri ?? "")}` },
        run: (args, ctx) => use((c, o) => c.readResource({ uri: args.uri }, o), ctx.signal, (r) => mcpResultToToolResult(tool.exposed, { content: resourceParts(r) })),
      });
    case "get_prompt":
      return handler<typeof promptSchema>({
        ...base,
        schema: promptSchema,
        matchValue: (args) => textTarget(args.name),
        view: { card: "foldable", summary: (args) => `${tool.server}: prompt ${String(args.name ?? "")}` },
        run: (args, ctx) =>
          use((c, o) => c.getPrompt({ name: args.name, ...(args.arguments ? { arguments: args.arguments } : {}) }, o), ctx.signal, (r) =>
            mcpResultToToolResult(tool.exposed, { content: promptParts(args.name, r) }),
          ),
      });
    case "list_resources":
      return {
        ...base,
        schema: noArguments,
        matchValue: () => textTarget(tool.server),
        view: { card: "foldable", summary: () => `${tool.server}: resources` },
        run: (_args, ctx) => use((c, o) => listResources(c, o), ctx.signal, (r) => ok(resourceListing(tool.server, r))),
      };
    case "list_prompts":
      return {
        ...base,
        schema: noArguments,
        matchValue: () => textTarget(tool.server),
        view: { card: "foldable", summary: () => `${tool.server}: prompts` },
        run: (_args, ctx) => use((c, o) => pages(MAX_LISTED, (cursor) => c.listPrompts(cursor === undefined ? {} : { cursor }, o).then((p) => ({ items: p.prompts, next: p.nextCursor }))), ctx.signal, (r) => ok(promptListing(tool.server, r))),
      };
    case "tool":
      throw new Error(`${tool.exposed} is a server tool, not a resource or prompt tool`);
  }
}

/** A handler typed by its schema, held as any handler is. */
const handler = <S extends z.ZodObject>(h: ToolHandler<S>): ToolHandler => h as unknown as ToolHandler;

interface Paged<T> {
  items: T[];
  /** More entries were there than were read. */
  more: boolean;
}

async function pages<T>(limit: number, page: (cursor: string | undefined) => Promise<{ items: T[]; next?: string | undefined }>): Promise<Paged<T>> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const got = await page(cursor);
    items.push(...got.items);
    cursor = got.next;
  } while (cursor !== undefined && items.length < limit);
  return { items: items.slice(0, limit), more: cursor !== undefined || items.length > limit };
}

const listResources: McpWork<{ resources: Paged<Resource>; templates: Paged<ResourceTemplate> }> = async (c, o) => ({
  resources: await pages(MAX_LISTED, (cursor) => c.listResources(cursor === undefined ? {} : { cursor }, o).then((p) => ({ items: p.resources, next: p.nextCursor }))),
  templates: await pages(MAX_LISTED, (cursor) => c.listResourceTemplates(cursor === undefined ? {} : { cursor }, o).then((p) => ({ items: p.resourceTemplates, next: p.nextCursor }))),
});

const more = (p: Paged<unknown>, what: string) => (p.more ? [`(more ${what} than the first ${MAX_LISTED})`] : []);
const about = (x: { name: string; title?: string | undefined; mimeType?: string | undefined; description?: string | undefined }) =>
  [x.title ?? x.name, x.mimeType, x.description?.trim()].filter(Boolean).join(" — ");

function resourceListing(server: string, r: { resources: Paged<Resource>; templates: Paged<ResourceTemplate> }): string {
  const lines = [`Resources of MCP server ${server}: ${r.resources.items.length}`];
  for (const res of r.resources.items) lines.push(`${res.uri}  ${about(res)}`);
  lines.push(...more(r.resources, "resources"));
  if (r.templates.items.length) {
    lines.push("", `Resource templates (fill in the {placeholders}, then read the URI): ${r.templates.items.length}`);
    for (const t of r.templates.items) lines.push(`${t.uriTemplate}  ${about(t)}`);
    lines.push(...more(r.templates, "templates"));
  }
  return lines.join("\n");
}

function promptListing(server: string, r: Paged<Prompt>): string {
  const lines = [`Prompts of MCP server ${server}: ${r.items.length}`];
  for (const p of r.items) {
    const args = (p.arguments ?? []).map((a) => `${a.name}${a.required ? "" : "?"}`);
    lines.push(`${p.name}(${args.join(", ")})${p.description ? `  ${p.description.trim()}` : ""}`);
    for (const a of p.arguments ?? []) if (a.description) lines.push(`  ${a.name}: ${a.description.trim()}`);
  }
  lines.push(...more(r, "prompts"));
  return lines.join("\n");
}

/** Blobs of these types are text the server sent base64-encoded: the model gets the text. */
const TEXT_TYPE = /^(text\/|application\/(json|xml|yaml|toml|javascript)\b)/;

/** A resource's contents as result parts: an image blob is an image, a text blob its text, any other blob is named. */
function resourceParts(r: ReadResourceResult): Content[] {
  return r.contents.map((c): Content => {
    if ("blob" in c && typeof c.blob === "string" && c.mimeType) {
      if (c.mimeType.startsWith("image/")) return { type: "image", data: c.blob, mimeType: c.mimeType };
      if (TEXT_TYPE.test(c.mimeType)) return { type: "resource", resource: { uri: c.uri, mimeType: c.mimeType, text: Buffer.from(c.blob, "base64").toString("utf8") } };
    }
    return { type: "resource", resource: c } as Content;
  });
}

function promptParts(name: string, r: GetPromptResult): Content[] {
  const head: Content = { type: "text", text: `Prompt ${name}${r.description ? `: ${r.description}` : ""}` };
  return [head, ...r.messages.flatMap((m): Content[] => [{ type: "text", text: `[${m.role}]` }, m.content as Content])];
}
