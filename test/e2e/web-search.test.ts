// The provider's hosted web search through the built `yuj`: off unless
// [compat] hosted_tools lists it; then declared in the request the way each
// API takes it, and the provider's own search events (played by the local
// server in each API's wire shapes) become a card with numbered sources and
// a sources list at the end of the model's answer.

import { mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseScenario } from "../../core/providers/scenario.js";
import { isolatedEnv, runCli } from "../support/cli.js";
import { startSseServer, type SseServer } from "../support/sse-server.js";
import { anthropicSearchTurn, responsesSearchTurn, type SearchTurn } from "../support/hosted-search-wire.js";

let server: SseServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface Row {
  type: string;
  name?: string;
  ok?: boolean;
  modelText?: string;
  text?: string;
  level?: string;
  message?: string;
}
const rows = (stdout: string): Row[] => stdout.trim().split("\n").filter(Boolean).map((l) => JSON.parse(l) as Row);

const SEARCH: SearchTurn = {
  query: "node 20 release date",
  answer: "Node.js 20 was released on 18 April 2023.",
  results: [
    { title: "Node.js 20 is now available!", url: "https://nodejs.org/en/blog/announcements/v20-release-announce" },
    { title: "Node.js release schedule", url: "https://github.com/nodejs/release" },
  ],
};

async function run(provider: "anthropic" | "openai" | "openai-chat", toml: string, turn: SearchTurn | undefined = SEARCH) {
  server = await startSseServer({
    scenario: parseScenario({ turns: [{ text: "no search here" }] }),
    wireTurn: (api, n, model) => (n !== 0 || !turn ? undefined : api === "anthropic" ? anthropicSearchTurn(turn, model) : api === "responses" ? responsesSearchTurn(turn, model) : undefined),
  });
  const cwd = realpathSync(mkdtempSync(join(tmpdir(), "yuj-websearch-e2e-")));
  writeFileSync(join(cwd, "yuj.toml"), toml);
  const env = isolatedEnv({ ANTHROPIC_API_KEY: "sk-test", OPENAI_API_KEY: "sk-test" });
  const args = ["code", "when was node 20 released?", "--config", "yuj.toml", "--output", "jsonl", "--provider", provider, "--model", "m", "--base-url", server.baseUrlFor(provider)];
  const res = await runCli(args, { cwd, env, timeoutMs: 60_000 });
  const body = server.requests.find((r) => r.method === "POST")?.body;
  return { res, body, out: rows(res.stdout) };
}

const ENABLED = `[compat]\nhosted_tools = ["web_search"]\n`;
const NUMBERED = [
  "[1] Node.js 20 is now available! — https://nodejs.org/en/blog/announcements/v20-release-announce",
  "[2] Node.js release schedule — https://github.com/nodejs/release",
].join("\n");

describe("web_search, the provider's hosted search", () => {
  it("is off by default: no hosted tool in the request", async () => {
    const { res, body } = await run("anthropic", "", undefined);
    expect(res.code).toBe(0);
    expect(JSON.stringify(body.tools ?? [])).not.toContain("web_search");
  }, 60_000);

  it("Anthropic Messages: the web_search tool with blocked_domains; the search is a card with numbered sources and the answer ends with them", async () => {
    const { res, body, out } = await run("anthropic", `${ENABLED}[web_search]\nblocked_domains = ["example.com"]\nmax_uses = 3\n`);
    expect(res.stderr).toBe("");
    expect(res.code).toBe(0);
    expect(body.tools).toContainEqual({ type: "web_search_20250305", name: "web_search", blocked_domains: ["example.com"], max_uses: 3 });
    const card = out.find((r) => r.type === "tool_result" && r.name === "web_search");
    expect(card).toMatchObject({ ok: true, modelText: `web_search "node 20 release date": 2 sources\n${NUMBERED}` });
    const answer = out.find((r) => r.type === "assistant_message")?.text;
    expect(answer).toBe(`${SEARCH.answer}\n\nSources:\n${NUMBERED}`);
  }, 60_000);

  it("Anthropic Messages: a search the provider failed shows its error code", async () => {
    const { out } = await run("anthropic", ENABLED, { ...SEARCH, results: [], errorCode: "max_uses_exceeded" });
    const card = out.find((r) => r.type === "tool_result" && r.name === "web_search");
    expect(card).toMatchObject({ ok: false, modelText: 'ERROR: web_search for "node 20 release date" failed: max_uses_exceeded' });
  }, 60_000);

  it("OpenAI Responses: the web_search tool with allowed_domains and the sources included; titles come from the text's citations", async () => {
    const { res, body, out } = await run("openai", `${ENABLED}[web_search]\nallowed_domains = ["nodejs.org", "github.com"]\n`);
    expect(res.stderr).toBe("");
    expect(res.code).toBe(0);
    expect(body.tools).toContainEqual({ type: "web_search", filters: { allowed_domains: ["nodejs.org", "github.com"] } });
    expect(body.include).toEqual(["web_search_call.action.sources"]);
    const card = out.find((r) => r.type === "tool_result" && r.name === "web_search");
    expect(card?.modelText).toBe(`web_search "node 20 release date": 2 sources\n${NUMBERED}`);
    expect(out.find((r) => r.type === "assistant_message")?.text).toBe(`${SEARCH.answer}\n\nSources:\n${NUMBERED}`);
  }, 60_000);

  it("an API without a hosted search (Chat Completions), or a setting the API cannot carry, leaves it off with a notice saying why", async () => {
    const chat = await run("openai-chat", ENABLED, undefined);
    expect(chat.res.code).toBe(0);
    expect(JSON.stringify(chat.body.tools ?? [])).not.toContain("web_search");
    expect(chat.out.find((r) => r.type === "notice" && r.level === "warning")?.text).toBe(
      "web_search is off: the openai-chat provider has no hosted search tool (Anthropic Messages and OpenAI Responses have one)",
    );
    const blocked = await run("openai", `${ENABLED}[web_search]\nblocked_domains = ["example.com"]\n`, undefined);
    expect(JSON.stringify(blocked.body.tools ?? [])).not.toContain("web_search");
    expect(blocked.out.find((r) => r.type === "notice" && r.level === "warning")?.text).toMatch(/^web_search is off: OpenAI Responses' search takes allowed_domains only/);
  }, 60_000);

  it("allowed_domains and blocked_domains together are refused at start, naming the table", async () => {
    const { res } = await run("anthropic", `${ENABLED}[web_search]\nallowed_domains = ["a.org"]\nblocked_domains = ["b.org"]\n`, undefined);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("web_search");
    expect(res.stderr).toContain("set allowed_domains or blocked_domains, not both");
  }, 60_000);
});
