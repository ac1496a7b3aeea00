// Yuj's normal behaviour for the tools that reach outside: web_fetch and MCP
// tools the server does not mark read-only ask when no rule speaks to them;
// a rule by the full name (or the host, for web_fetch) decides; Chord's
// default stays deny.

import { describe, expect, it } from "vitest";
import { ruleFacts } from "../../core/permissions/catalog.js";
import type { McpTool } from "../../core/mcp/connection.js";
import type { McpService } from "../../core/mcp/manager.js";
import type { PolicyOptions } from "../../core/permissions/types.js";
import { mcpHandler } from "../../tools/lib/mcp/handler.js";
import { action, call, CHORD as CHORD_BASE, decide, rule, YUJ as YUJ_BASE } from "./support.js";

/** The two tools a connected server registered, joined to the surface as a session joins them. */
function withServerTools(opts: PolicyOptions): PolicyOptions {
  const tools = new Map(opts.tools);
  for (const [remote, readOnly] of [["create_issue", false], ["get_issue", true]] as const) {
    const tool: McpTool = { server: "github", kind: "tool", remote, exposed: `mcp_github_${remote}`, description: "", inputSchema: { type: "object" }, readOnly } as McpTool;
    tools.set(tool.exposed, ruleFacts(mcpHandler(tool, {} as McpService), tool.exposed));
  }
  return { ...opts, tools };
}
const YUJ = withServerTools(YUJ_BASE);
const CHORD = withServerTools(CHORD_BASE);

const mcpWrite = call("mcp_github_create_issue", { title: "x" });
const mcpRead = call("mcp_github_get_issue", { n: 1 });
const fetch = (url: string) => call("web_fetch", { url });

describe("Yuj's default for outside tools", () => {
  it("asks for an MCP tool not marked read-only, runs a read-only one", () => {
    const d = decide(mcpWrite, [], YUJ);
    expect(d.action).toBe("ask");
    expect(d.reason).toBe("no rule matches mcp_github_create_issue (yuj default: ask for MCP tools the server does not mark read-only)");
    expect(action(mcpRead, [], YUJ)).toBe("allow");
  });

  it("a rule by the full name, or a glob over the server's tools, decides", () => {
    expect(action(mcpWrite, [rule("mcp_github_create_issue", undefined, "allow")], YUJ)).toBe("allow");
    expect(action(mcpWrite, [rule("mcp_github_*", undefined, "deny")], YUJ)).toBe("deny");
    expect(action(mcpRead, [rule("mcp_github_get_issue", undefined, "deny")], YUJ)).toBe("deny");
  });

  it("asks before web_fetch, and a host rule with Chord's matcher allows", () => {
    expect(action(fetch("https://docs.example.com/a"), [], YUJ)).toBe("ask");
    const rules = [rule("web_fetch", "*.example.com", "allow"), rule("web_fetch", "10.0.0.0/8:8000-8999", "allow")];
    expect(action(fetch("https://docs.example.com/a"), rules, YUJ)).toBe("allow");
    expect(action(fetch("https://example.com/a"), rules, YUJ)).toBe("ask");
    expect(action(fetch("http://10.2.3.4:8080/"), rules, YUJ)).toBe("allow");
    expect(action(fetch("http://10.2.3.4:9090/"), rules, YUJ)).toBe("ask");
  });

  it("Chord's default stays deny", () => {
    expect(action(mcpWrite, [], CHORD)).toBe("deny");
    expect(action(fetch("https://example.com"), [], CHORD)).toBe("deny");
  });
});
