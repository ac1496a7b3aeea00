// Chord's web_search function tool against a local server speaking each
// provider's SSE format: every call is a real request of its own with the
// hosted search declared and forced and the call's domain filter in it; the
// result is the summary, the sources numbered once each, the cited passages
// and the searches' errors, exactly as laid out here.

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ProviderName } from "../../core/providers/index.js";
import { parseScenario } from "../../core/providers/scenario.js";
import { anthropicSearchTurn, responsesSearchTurn, type SearchTurn } from "../support/hosted-search-wire.js";
import { startSseServer, type Fault, type SseServer } from "../support/sse-server.js";
import type { SseEvent, WireApi } from "../support/sse-wire.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";
import { chordWebSearch } from "../support/web-search-call.js";

let server: SseServer | undefined;
let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await t.cleanup();
});

const SEARCH: SearchTurn = {
  query: "node 20 release date",
  answer: "Node.js 20 was released on 18 April 2023.",
  results: [
    { title: "Node.js 20 is now available!", url: "https://nodejs.org/en/blog/announcements/v20-release-announce" },
    { title: "Node.js release schedule", url: "https://github.com/nodejs/release" },
  ],
};

/** One web_search call, its provider request going to `server`. */
async function search(provider: ProviderName, args: unknown, events?: (api: WireApi) => SseEvent[], faults: Fault[] = [], signal = new AbortController().signal) {
  server = await startSseServer({ scenario: parseScenario({ turns: [{ text: "a plain answer, no search" }] }), faults, wireTurn: (api) => events?.(api) });
  const res = await chordWebSearch({ t, server, provider, args, signal, usage: { inputTokens: 100, outputTokens: 7, cachedTokens: 0 } });
  return { ...res, body: res.posts[0]?.body };
}

interface Found {
  query: string;
  results?: Array<{ title?: string; url: string }>;
  errorCode?: string;
}

/** An Anthropic turn with several searches (results or an error each), then a text citing `cites`. */
function anthropicSearches(found: Found[], answer: string, cites: Array<{ url: string; title: string; text: string }> = []): SseEvent[] {
  const out: SseEvent[] = [];
  const push = (type: string, body: Record<string, unknown> = {}) => out.push({ event: type, data: JSON.stringify({ type, ...body }) });
  push("message_start", { message: { id: "msg_1", type: "message", role: "assistant", model: "m", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 5, output_tokens: 1 } } });
  let index = 0;
  found.forEach((f, i) => {
    const id = `srvtoolu_${i}`;
    push("content_block_start", { index, content_block: { type: "server_tool_use", id, name: "web_search", input: {} } });
    push("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: JSON.stringify({ query: f.query }) } });
    push("content_block_stop", { index: index++ });
    const content = f.errorCode
      ? { type: "web_search_tool_result_error", error_code: f.errorCode }
      : (f.results ?? []).map((r) => ({ type: "web_search_result", url: r.url, title: r.title ?? "", encrypted_content: "x" }));
    push("content_block_start", { index, content_block: { type: "web_search_tool_result", tool_use_id: id, content } });
    push("content_block_stop", { index: index++ });
  });
  push("content_block_start", { index, content_block: { type: "text", text: "", citations: [] } });
  push("content_block_delta", { index, delta: { type: "text_delta", text: answer } });
  for (const c of cites) push("content_block_delta", { index, delta: { type: "citations_delta", citation: { type: "web_search_result_location", cited_text: c.text, url: c.url, title: c.title, encrypted_index: "e" } } });
  push("content_block_stop", { index });
  push("message_delta", { delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: 9 } });
  push("message_stop");
  return out;
}

/** The result text for the release-date search: both providers give the same
 * summary and sources; they differ in the reported input and in how many
 * times the cited passage is listed. */
function releaseAnswer(reportedInput: string, citedTimes: number): string {
  return [
    "Assistant summary (not full source text):",
    "Node.js 20 was released on 18 April 2023.",
    "",
    `Provider-reported input: ${reportedInput}`,
    "Sources:",
    "[1] Node.js 20 is now available!",
    "    https://nodejs.org/en/blog/announcements/v20-release-announce",
    "[2] Node.js release schedule",
    "    https://github.com/nodejs/release",
    "Cited passages:",
    ...Array.from({ length: citedTimes }, (_, i) => `[${i + 1}] Node.js 20 was released on 18 April 2023.`),
  ].join("\n");
}

describe("Chord web_search on Anthropic Messages", () => {
  it("sends one request with only the hosted search, forced and filtered, and returns the summary with numbered sources", async () => {
    const res = await search("anthropic", { query: "  node 20 release date  ", allowed_domains: [" nodejs.org ", "github.com"] }, () => anthropicSearchTurn(SEARCH, "m"));
    expect(res.posts).toHaveLength(1);
    expect(res.body.tools).toEqual([{ type: "web_search_20250305", name: "web_search", allowed_domains: ["nodejs.org", "github.com"], max_uses: 8 }]);
    expect(res.body.tool_choice).toEqual({ type: "tool", name: "web_search" });
    expect(res.body.messages).toEqual([{ role: "user", content: "Perform a web search for the query: node 20 release date" }]);
    expect(res.body.max_tokens).toBe(4096);
    // The request's tokens join the session's running total.
    expect(res.usage).toEqual({ inputTokens: 110, outputTokens: 27, cachedTokens: 0 });
    expect(res.ok).toBe(true);
    expect(res.text).toBe(releaseAnswer('{"query":"node 20 release date"}', 1));
  });

  it("blocked_domains reach the declaration; the absent allowed list is left out", async () => {
    const res = await search("anthropic", { query: "q", blocked_domains: ["example.com"] }, () => anthropicSearchTurn(SEARCH, "m"));
    expect(res.body.tools).toEqual([{ type: "web_search_20250305", name: "web_search", blocked_domains: ["example.com"], max_uses: 8 }]);
  });

  it("several searches: each URL numbered once (the first title kept, a missing one shown as the URL), errors listed last", async () => {
    const events = anthropicSearches(
      [
        { query: "a", results: [{ title: "Result A", url: "https://example.com/a" }, { url: "https://example.com/b" }] },
        { query: "b", results: [{ title: "Result A again", url: "https://example.com/a" }, { title: "Result C", url: "https://example.com/c" }] },
        { query: "c", errorCode: "unavailable" },
      ],
      "A summary citing [1].",
      [
        { url: "https://example.com/c", title: "Result C", text: "a passage of C" },
        { url: "https://example.com/c", title: "Result C", text: "a passage of C" },
        { url: "https://example.com/d", title: "Only cited", text: "a passage of D" },
      ],
    );
    const res = await search("anthropic", { query: "several" }, () => events);
    expect(res.ok).toBe(true);
    expect(res.text).toBe(
      [
        "Assistant summary (not full source text):",
        "A summary citing [1].",
        "",
        'Provider-reported input: {"query":"a"}',
        'Provider-reported input: {"query":"b"}',
        'Provider-reported input: {"query":"c"}',
        "Sources:",
        "[1] Result A",
        "    https://example.com/a",
        "[2] https://example.com/b",
        "    https://example.com/b",
        "[3] Result C",
        "    https://example.com/c",
        "[4] Only cited",
        "    https://example.com/d",
        "Cited passages:",
        "[3] a passage of C",
        "[4] a passage of D",
        "Search errors: web_search_tool_result: unavailable",
      ].join("\n"),
    );
  });

  it("a search that found nothing says so under the summary", async () => {
    const res = await search("anthropic", { query: "nothing" }, () => anthropicSearches([{ query: "nothing", results: [] }], "Nothing found."));
    expect(res.ok).toBe(true);
    expect(res.text).toBe(["Assistant summary (not full source text):", "Nothing found.", "", 'Provider-reported input: {"query":"nothing"}', "(no search results returned)"].join("\n"));
  });

  it("searches that all failed are an error naming the provider's codes", async () => {
    const res = await search("anthropic", { query: "q" }, () => anthropicSearches([{ query: "q", errorCode: "max_uses_exceeded" }], "Sorry."));
    expect(res).toMatchObject({ ok: false, text: "web_search returned only errors: web_search_tool_result: max_uses_exceeded" });
  });

  it("a response without any search is an error, not the model's own answer", async () => {
    const res = await search("anthropic", { query: "q" });
    expect(res).toMatchObject({ ok: false, text: "no web_search call was observed: the model did not run it or the endpoint ignored the hosted declaration" });
  });

  it("a provider that refuses the request: the error names it, and nothing is retried", async () => {
    const res = await search("anthropic", { query: "q" }, () => anthropicSearchTurn(SEARCH, "m"), [{ status: 400, message: "model m does not exist" }]);
    expect(res).toMatchObject({ ok: false, text: "web_search failed: anthropic: HTTP 400: model m does not exist" });
    expect(res.posts).toHaveLength(1);
  });

  it("an endpoint that refuses the forced tool choice gets one more request that only declares the search and asks for it", async () => {
    const res = await search("anthropic", { query: "node 20 release date" }, () => anthropicSearchTurn(SEARCH, "m"), [{ status: 400, message: "tool_choice is not supported with this tool" }]);
    expect(res.posts).toHaveLength(2);
    expect(res.posts[0]!.body.tool_choice).toEqual({ type: "tool", name: "web_search" });
    expect(res.posts[1]!.body.tool_choice).toBeUndefined();
    expect(res.posts[1]!.body.tools).toEqual([{ type: "web_search_20250305", name: "web_search", max_uses: 8 }]);
    expect(res.posts[1]!.body.system).toMatch(/ Always call the web_search tool for the request before answering\.$/);
    expect(res.ok).toBe(true);
    expect(res.text).toContain("Sources:\n[1] Node.js 20 is now available!\n    https://nodejs.org/en/blog/announcements/v20-release-announce\n");
  });

  it("when the unforced request runs no search either, both reasons are given", async () => {
    const res = await search("anthropic", { query: "q" }, undefined, [{ status: 400, message: "tool_choice is not supported" }]);
    expect(res.posts).toHaveLength(2);
    expect(res).toMatchObject({
      ok: false,
      text: "the forced web_search declaration was refused (anthropic: HTTP 400: tool_choice is not supported); the retry without forcing failed too: no web_search call was observed: the model did not run it or the endpoint ignored the hosted declaration",
    });
  });

  it("a call cancelled while the provider has not answered says so", async () => {
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 200);
    const res = await search("anthropic", { query: "q" }, undefined, [{ hang: true }], abort.signal);
    expect(res).toMatchObject({ ok: false, text: "ERROR: cancelled by the user before the tool finished\nweb_search was cancelled" });
  });
});

describe("Chord web_search on OpenAI Responses", () => {
  it("declares the search with its filter, forces a tool call and asks for the sources; titles and passages come from the citations", async () => {
    const res = await search("openai", { query: "node 20 release date", blocked_domains: ["example.com"] }, () => responsesSearchTurn(SEARCH, "m"));
    expect(res.posts).toHaveLength(1);
    expect(res.body.tools).toEqual([{ type: "web_search", filters: { blocked_domains: ["example.com"] } }]);
    expect(res.body.tool_choice).toBe("required");
    expect(res.body.include).toEqual(["web_search_call.action.sources"]);
    expect(res.body.input).toEqual([{ role: "user", content: "Perform a web search for the query: node 20 release date" }]);
    expect(res.ok).toBe(true);
    expect(res.text).toBe(releaseAnswer('{"type":"search","query":"node 20 release date"}', 2));
  });

  it("allowed_domains go into filters", async () => {
    const res = await search("openai", { query: "q", allowed_domains: ["nodejs.org"] }, () => responsesSearchTurn(SEARCH, "m"));
    expect(res.body.tools).toEqual([{ type: "web_search", filters: { allowed_domains: ["nodejs.org"] } }]);
  });
});

describe("Chord web_search arguments are checked before any request", () => {
  const cases: Array<[string, unknown, string]> = [
    ["blank query", { query: "   " }, "query is required"],
    ["both filters", { query: "q", allowed_domains: ["example.com"], blocked_domains: ["other.example"] }, "allowed_domains and blocked_domains are mutually exclusive"],
    ["scheme", { query: "q", allowed_domains: ["https://example.com"] }, 'allowed_domains: invalid domain "https://example.com": provide a bare domain without scheme or path'],
    ["path", { query: "q", allowed_domains: ["example.com/docs"] }, 'allowed_domains: invalid domain "example.com/docs": provide a bare domain without scheme or path'],
    ["port", { query: "q", allowed_domains: ["example.com:443"] }, 'allowed_domains: invalid domain "example.com:443": provide a bare domain without scheme or path'],
    ["wildcard", { query: "q", allowed_domains: ["*.example.com"] }, 'allowed_domains: invalid domain "*.example.com": only letters, digits, hyphens and dots are allowed'],
    ["empty label", { query: "q", blocked_domains: ["example..com"] }, 'blocked_domains: invalid domain "example..com": empty domain label'],
    ["single label", { query: "q", blocked_domains: ["localhost"] }, 'blocked_domains: invalid domain "localhost": provide a domain such as "example.com"'],
    ["too many", { query: "q", allowed_domains: Array.from({ length: 101 }, (_, i) => `d${i}.example`) }, "allowed_domains accepts at most 100 domains"],
  ];
  it.each(cases)("%s", async (_name, args, message) => {
    const res = await search("anthropic", args, () => anthropicSearchTurn(SEARCH, "m"));
    expect(res).toMatchObject({ ok: false, text: message });
    expect(res.posts).toHaveLength(0);
  });

  const shapes: Array<[string, unknown, string]> = [
    ["missing query", {}, "ERROR: bad arguments for web_search: query is required (string)"],
    ["a domain that is not a string", { query: "q", allowed_domains: [7] }, "ERROR: bad arguments for web_search: allowed_domains[0]: expected string, got integer"],
    ["an undeclared parameter", { query: "q", extra: 1 }, 'ERROR: bad arguments for web_search: unknown parameter "extra"; accepted parameters: query, allowed_domains, blocked_domains'],
  ];
  it.each(shapes)("%s: refused by the schema, naming it", async (_name, args, message) => {
    const res = await search("anthropic", args, () => anthropicSearchTurn(SEARCH, "m"));
    expect(res).toMatchObject({ ok: false, text: message });
    expect(res.posts).toHaveLength(0);
  });

  it("a bare string for a domain list is read as a one-item list, with a note", async () => {
    const res = await search("anthropic", { query: "q", allowed_domains: "example.com" }, () => anthropicSearchTurn(SEARCH, "m"));
    expect(res.body.tools).toEqual([{ type: "web_search_20250305", name: "web_search", allowed_domains: ["example.com"], max_uses: 8 }]);
    expect(res.text.split("\n")[0]).toBe('Note: allowed_domains was a string and was treated as a one-item list. Use the documented array form, for example allowed_domains: ["..."], in future calls.');
  });
});
