// When the Chord surface offers web_search as a function tool (hosted_tools
// lists it and the provider can carry the declaration), and that a session
// then declares the search once: as the function tool in the conversation's
// requests, and as the hosted declaration only in the tool's own request.

import { mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { defaultConfig } from "../../core/config/schema.js";
import { activateTools } from "../../core/profiles/activate.js";
import { loadProfile } from "../../core/profiles/load.js";
import { parseScenario } from "../../core/providers/scenario.js";
import { builtinHandlers } from "../../tools/registry.js";
import { isolatedEnv, runCli } from "../support/cli.js";
import { anthropicSearchTurn, responsesSearchTurn } from "../support/hosted-search-wire.js";
import { repoRoot } from "../support/loop-harness.js";
import { startSseServer, type SseServer } from "../support/sse-server.js";

function offered(profileName: string, provider: string | undefined, listed: boolean): string[] {
  const config = defaultConfig();
  if (listed) config.compat.hosted_tools = ["web_search"];
  const profile = loadProfile(join(repoRoot, "profiles"), profileName);
  const toolset = activateTools(profile, builtinHandlers(), config, { topLevel: true, ...(provider ? { model: { provider, id: "m" } } : {}) });
  return toolset.specs.map((s) => s.name);
}

describe("the Chord web_search tool is offered", () => {
  it("with hosted_tools listing it, on Anthropic Messages and OpenAI Responses, with query required and both filters", () => {
    expect(offered("chord", "anthropic", true)).toContain("web_search");
    expect(offered("chord", "openai", true)).toContain("web_search");
    const config = defaultConfig();
    config.compat.hosted_tools = ["web_search"];
    const toolset = activateTools(loadProfile(join(repoRoot, "profiles"), "chord"), builtinHandlers(), config, { topLevel: true, model: { provider: "anthropic", id: "m" } });
    const spec = toolset.specs.find((s) => s.name === "web_search")!;
    expect(spec.description).toMatch(/^Search the web through the provider's hosted search/);
    expect(spec.parameters).toMatchObject({
      required: ["query"],
      properties: { query: { type: "string" }, allowed_domains: { type: "array", items: { type: "string" } }, blocked_domains: { type: "array", items: { type: "string" } } },
    });
  });

  it("not without hosted_tools, not on Chat Completions, not when the provider is unknown, and never on the Yuj surface", () => {
    expect(offered("chord", "anthropic", false)).not.toContain("web_search");
    expect(offered("chord", "openai-chat", true)).not.toContain("web_search");
    expect(offered("chord", undefined, true)).not.toContain("web_search");
    expect(offered("_base", "anthropic", true)).not.toContain("web_search");
  });
});

let server: SseServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const SEARCH = { query: "node 20 release date", answer: "Node.js 20 was released on 18 April 2023.", results: [{ title: "Node.js release schedule", url: "https://github.com/nodejs/release" }] };

/** A chord session whose model calls web_search once, then answers; request 1 is the tool's own. */
async function chordSession(provider: "anthropic" | "openai") {
  server = await startSseServer({
    turnByRequest: true,
    scenario: parseScenario({ turns: [{ tool_calls: [{ name: "web_search", arguments: { query: "node 20 release date", allowed_domains: ["github.com"] } }] }, { text: "unused" }, { text: "Node 20 came out in April 2023 [1]." }] }),
    wireTurn: (api, n, model) => (n !== 1 ? undefined : api === "anthropic" ? anthropicSearchTurn(SEARCH, model) : responsesSearchTurn(SEARCH, model)),
  });
  const cwd = realpathSync(mkdtempSync(join(tmpdir(), "yuj-c-websearch-")));
  writeFileSync(join(cwd, "yuj.toml"), `[compat]\nhosted_tools = ["web_search"]\n`);
  const env = isolatedEnv({ ANTHROPIC_API_KEY: "sk-test", OPENAI_API_KEY: "sk-test" });
  const args = ["code", "when was node 20 released?", "--profile", "chord", "--config", "yuj.toml", "--output", "jsonl", "--provider", provider, "--model", "m", "--base-url", server.baseUrlFor(provider)];
  const res = await runCli(args, { cwd, env, timeoutMs: 60_000 });
  const posts = server.requests.filter((r) => r.method === "POST").map((r) => r.body);
  const rows = res.stdout.trim().split("\n").filter(Boolean).map((l) => JSON.parse(l) as { type: string; name?: string; ok?: boolean; modelText?: string });
  return { res, posts, result: rows.find((r) => r.type === "tool_result" && r.name === "web_search") };
}

const RESULT_TAIL = ["Sources:", "[1] Node.js release schedule", "    https://github.com/nodejs/release", "Cited passages:", "[1] Node.js 20 was released on 18 April 2023."].join("\n");

describe("a Chord session declares the search once", () => {
  it("Anthropic: the conversation's requests carry the function tool only; the tool's request carries the hosted search only", async () => {
    const { res, posts, result } = await chordSession("anthropic");
    expect(res.code).toBe(0);
    expect(posts).toHaveLength(3);
    for (const main of [posts[0], posts[2]]) {
      expect(main.tools.filter((t: { name: string }) => t.name === "web_search")).toEqual([expect.objectContaining({ name: "web_search", input_schema: expect.any(Object) })]);
      expect(JSON.stringify(main.tools)).not.toContain("web_search_20250305");
      expect(main.tool_choice).toBeUndefined();
    }
    expect(posts[1].tools).toEqual([{ type: "web_search_20250305", name: "web_search", allowed_domains: ["github.com"], max_uses: 8 }]);
    expect(result).toMatchObject({ ok: true });
    expect(result?.modelText?.endsWith(RESULT_TAIL)).toBe(true);
  });

  it("OpenAI Responses: the same, and only the tool's request asks for the sources", async () => {
    const { res, posts, result } = await chordSession("openai");
    expect(res.code).toBe(0);
    expect(posts).toHaveLength(3);
    for (const main of [posts[0], posts[2]]) {
      expect(main.tools.filter((t: { name?: string; type: string }) => t.type === "web_search" || t.name === "web_search")).toEqual([expect.objectContaining({ type: "function", name: "web_search" })]);
      expect(main.include).toBeUndefined();
    }
    expect(posts[1]).toMatchObject({ tools: [{ type: "web_search", filters: { allowed_domains: ["github.com"] } }], tool_choice: "required", include: ["web_search_call.action.sources"] });
    expect(result).toMatchObject({ ok: true });
    expect(result?.modelText?.endsWith(RESULT_TAIL)).toBe(true);
  });
});
