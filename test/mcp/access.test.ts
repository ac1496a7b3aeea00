// A server's resources and prompts as tools, against the real server-everything
// (it offers both) and server-filesystem (it offers neither): the tools are
// there only where the server offers them, and list, read and get answer
// with what the server holds.

import { afterEach, describe, expect, it } from "vitest";
import { ruleFacts } from "../../core/permissions/catalog.js";
import type { McpTool } from "../../core/mcp/connection.js";
import { mcpHandler } from "../../tools/lib/mcp/handler.js";
import { makeToolContext } from "../support/tool-context.js";
import { everythingStdio, FILESYSTEM, makeMcpHarness, tempRoot, type McpHarness } from "./support.js";

let h: McpHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function runTool(harness: McpHarness, name: string, args: Record<string, unknown>) {
  const tool = harness.mcp.tools().find((t) => t.exposed === name);
  if (!tool) throw new Error(`no tool ${name}: ${harness.mcp.tools().map((t) => t.exposed).join(", ")}`);
  const handler = mcpHandler(tool, harness.mcp);
  const t = await makeToolContext();
  try {
    return await handler.run(handler.schema.parse(args), t.ctx);
  } finally {
    await t.cleanup();
  }
}

const matchValues = (tool: McpTool, args: Record<string, unknown>, harness: McpHarness) =>
  ruleFacts(mcpHandler(tool, harness.mcp), tool.exposed).matchValue(args, "/tmp").values;

describe("MCP resources and prompts", () => {
  it("server-everything gets list_resources, read_resource, list_prompts and get_prompt in its mcp_<server>_ names, read-only", async () => {
    h = makeMcpHarness({ everything: everythingStdio() });
    await h.mcp.start();
    const added = h.mcp.tools().filter((t) => t.kind !== "tool");
    expect(added.map((t) => t.exposed)).toEqual(["mcp_everything_list_resources", "mcp_everything_read_resource", "mcp_everything_list_prompts", "mcp_everything_get_prompt"]);
    expect(added.every((t) => t.readOnly)).toBe(true);
    expect(added.find((t) => t.kind === "read_resource")!.inputSchema).toMatchObject({ required: ["uri"] });
  }, 30_000);

  it("lists the resources and templates, reads a listed resource and a filled-in template", async () => {
    h = makeMcpHarness({ everything: everythingStdio() });
    await h.mcp.start();
    const listed = await runTool(h, "mcp_everything_list_resources", {});
    expect(listed.ok).toBe(true);
    expect(listed.modelText).toMatch(/^Resources of MCP server everything: \d+/);
    expect(listed.modelText).toContain("demo://resource/static/document/");
    expect(listed.modelText).toContain("demo://resource/dynamic/text/{resourceId}");
    const doc = /demo:\/\/resource\/static\/document\/\S+/.exec(listed.modelText)![0];

    const read = await runTool(h, "mcp_everything_read_resource", { uri: doc });
    expect(read.ok).toBe(true);
    expect(read.modelText.startsWith(`[resource ${doc}]\n`)).toBe(true);
    expect(read.modelText.length).toBeGreaterThan(doc.length + 40);
    const dynamic = await runTool(h, "mcp_everything_read_resource", { uri: "demo://resource/dynamic/text/7" });
    expect(dynamic.modelText).toMatch(/^\[resource demo:\/\/resource\/dynamic\/text\/7\]\n.*7/s);

    const blob = await runTool(h, "mcp_everything_read_resource", { uri: "demo://resource/dynamic/blob/2" });
    // This server sends the blob as text/plain: the model gets the text, not the base64.
    expect(blob.modelText).toMatch(/^\[resource demo:\/\/resource\/dynamic\/blob\/2\]\n.*2/s);
    expect(blob.modelText).not.toContain("binary data");

    const missing = await runTool(h, "mcp_everything_read_resource", { uri: "demo://nowhere/1" });
    expect(missing.ok).toBe(false);
    expect(missing.modelText).toMatch(/^ERROR: mcp_everything_read_resource: MCP server everything answered with an error: /);
  }, 30_000);

  it("lists the prompts with their arguments and gets one filled in, and one with an embedded resource", async () => {
    h = makeMcpHarness({ everything: everythingStdio() });
    await h.mcp.start();
    const listed = await runTool(h, "mcp_everything_list_prompts", {});
    expect(listed.modelText).toMatch(/^Prompts of MCP server everything: \d+/);
    expect(listed.modelText).toContain("simple-prompt()");
    expect(listed.modelText).toContain("args-prompt(city, state?)");

    const got = await runTool(h, "mcp_everything_get_prompt", { name: "args-prompt", arguments: { city: "Lisbon" } });
    expect(got.ok).toBe(true);
    expect(got.modelText).toMatch(/^Prompt args-prompt/);
    expect(got.modelText).toMatch(/\[user\]\n.*Lisbon/);
    const embedded = await runTool(h, "mcp_everything_get_prompt", { name: "resource-prompt", arguments: { resourceType: "Text", resourceId: "3" } });
    expect(embedded.modelText).toContain("[resource demo://resource/dynamic/text/3]");

    const unknown = await runTool(h, "mcp_everything_get_prompt", { name: "no-such-prompt" });
    expect(unknown.ok).toBe(false);
  }, 30_000);

  it("permission rules meet the resource's URI, the prompt's name, and the server's name for the lists", async () => {
    h = makeMcpHarness({ everything: everythingStdio() });
    await h.mcp.start();
    const byKind = (kind: string) => h!.mcp.tools().find((t) => t.kind === kind)!;
    expect(matchValues(byKind("read_resource"), { uri: "demo://resource/dynamic/text/1" }, h)).toEqual(["demo://resource/dynamic/text/1"]);
    expect(matchValues(byKind("get_prompt"), { name: "args-prompt" }, h)).toEqual(["args-prompt"]);
    expect(matchValues(byKind("list_resources"), {}, h)).toEqual(["everything"]);
    expect(matchValues(byKind("list_prompts"), {}, h)).toEqual(["everything"]);
  }, 30_000);

  it("allowed_tools names which of them are added, as it names the server's tools", async () => {
    h = makeMcpHarness({ everything: everythingStdio({ allowed_tools: ["echo", "read_resource"] }) });
    await h.mcp.start();
    expect(h.mcp.tools().map((t) => t.exposed)).toEqual(["mcp_everything_echo", "mcp_everything_read_resource"]);
  }, 30_000);

  it("server-filesystem offers neither: only its own tools", async () => {
    h = makeMcpHarness({ files: { command: process.execPath, args: [FILESYSTEM, tempRoot()] } });
    await h.mcp.start();
    expect(h.mcp.tools().length).toBeGreaterThan(3);
    expect(h.mcp.tools().every((t) => t.kind === "tool")).toBe(true);
  }, 30_000);
});
