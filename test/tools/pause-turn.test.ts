// Chord web_search when Anthropic pauses the search's turn (stop_reason
// "pause_turn"), against a local server speaking the Messages SSE format: the
// tool sends the paused content back unchanged as the assistant message until
// the turn ends, at most five times, and the one result holds what every
// request found.

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseScenario } from "../../core/providers/scenario.js";
import { startSseServer, type Fault, type SseServer } from "../support/sse-server.js";
import type { SseEvent } from "../support/sse-wire.js";
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

interface Step {
  /** Text before the search (a paused turn often says what it is doing). */
  lead?: string;
  search?: { id: string; query: string; results: Array<{ title: string; url: string }> };
  answer?: { text: string; cite?: { url: string; title: string } };
  stop: "pause_turn" | "end_turn";
}

/** One response of the search's turn in Anthropic's stream events. */
function response(step: Step): SseEvent[] {
  const out: SseEvent[] = [];
  const push = (type: string, body: Record<string, unknown> = {}) => out.push({ event: type, data: JSON.stringify({ type, ...body }) });
  push("message_start", { message: { id: "msg_p", type: "message", role: "assistant", model: "m", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } } });
  let index = 0;
  const text = (value: string, cite?: { url: string; title: string }) => {
    push("content_block_start", { index, content_block: { type: "text", text: "" } });
    push("content_block_delta", { index, delta: { type: "text_delta", text: value } });
    if (cite) push("content_block_delta", { index, delta: { type: "citations_delta", citation: { type: "web_search_result_location", cited_text: value, url: cite.url, title: cite.title, encrypted_index: "Eo8B" } } });
    push("content_block_stop", { index: index++ });
  };
  if (step.lead) text(step.lead);
  if (step.search) {
    const s = step.search;
    push("content_block_start", { index, content_block: { type: "server_tool_use", id: s.id, name: "web_search", input: {} } });
    const json = JSON.stringify({ query: s.query });
    push("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: json.slice(0, 5) } });
    push("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: json.slice(5) } });
    push("content_block_stop", { index: index++ });
    const content = s.results.map((r) => ({ type: "web_search_result", title: r.title, url: r.url, encrypted_content: "EqgfCioI", page_age: null }));
    push("content_block_start", { index, content_block: { type: "web_search_tool_result", tool_use_id: s.id, content } });
    push("content_block_stop", { index: index++ });
  }
  if (step.answer) text(step.answer.text, step.answer.cite);
  push("message_delta", { delta: { stop_reason: step.stop, stop_sequence: null }, usage: { output_tokens: 5 } });
  push("message_stop");
  return out;
}

/** The blocks a step's response holds, as the API would list them in the message. */
function blocksOf(step: Step): unknown[] {
  const out: unknown[] = [];
  if (step.lead) out.push({ type: "text", text: step.lead });
  if (step.search) {
    const s = step.search;
    out.push({ type: "server_tool_use", id: s.id, name: "web_search", input: { query: s.query } });
    out.push({ type: "web_search_tool_result", tool_use_id: s.id, content: s.results.map((r) => ({ type: "web_search_result", title: r.title, url: r.url, encrypted_content: "EqgfCioI", page_age: null })) });
  }
  return out;
}

/** One web_search call on the chord profile, its requests answered by `steps(n)` for the nth request. */
async function search(steps: (n: number) => Step, faults: Fault[] = [], signal = new AbortController().signal, maxRetries = 0) {
  let n = 0;
  server = await startSseServer({ scenario: parseScenario({ turns: [{ text: "unused: every response is the step's" }] }), faults, wireTurn: () => response(steps(n++)) });
  const res = await chordWebSearch({ t, server, provider: "anthropic", args: { query: "node releases" }, signal, maxRetries });
  return { ok: res.ok, text: res.text, bodies: res.posts.map((r) => r.body), usage: res.usage };
}

const USER = { role: "user", content: "Perform a web search for the query: node releases" };
const TOOL = [{ type: "web_search_20250305", name: "web_search", max_uses: 8 }];

const FIRST: Step = {
  lead: "Searching for both releases. ",
  search: { id: "srvtoolu_01", query: "node 20 release", results: [{ title: "Node.js 20 is now available!", url: "https://nodejs.org/en/blog/announcements/v20-release-announce" }, { title: "Node.js releases", url: "https://nodejs.org/en/about/previous-releases" }] },
  stop: "pause_turn",
};
const SECOND: Step = {
  search: { id: "srvtoolu_02", query: "node 22 release", results: [{ title: "Node.js 22 is now available!", url: "https://nodejs.org/en/blog/announcements/v22-release-announce" }, { title: "Node.js releases", url: "https://nodejs.org/en/about/previous-releases" }] },
  answer: { text: "Node.js 22 followed on 24 April 2024.", cite: { url: "https://nodejs.org/en/blog/announcements/v22-release-announce", title: "Node.js 22 is now available!" } },
  stop: "end_turn",
};

describe("Chord web_search resumes an Anthropic pause_turn", () => {
  it("sends the paused content back as the assistant message and joins both requests' searches into one result", async () => {
    const res = await search((n) => (n === 0 ? FIRST : SECOND));
    expect(res.bodies).toHaveLength(2);
    const [first, second] = res.bodies;
    expect(first.messages).toEqual([USER]);
    expect(first.tool_choice).toEqual({ type: "tool", name: "web_search" });
    // The same request again with the paused turn, unchanged, after it; not
    // forced again, so the model carries on rather than starting a new search.
    expect(second.messages).toEqual([USER, { role: "assistant", content: blocksOf(FIRST) }]);
    expect(second.tools).toEqual(TOOL);
    expect(second.tool_choice).toBeUndefined();
    expect(second.system).toBe(first.system);
    expect(second.max_tokens).toBe(4096);
    // Both requests' tokens count.
    expect(res.usage).toEqual({ inputTokens: 20, outputTokens: 10, cachedTokens: 0 });
    expect(res.ok).toBe(true);
    expect(res.text).toBe(
      [
        "Assistant summary (not full source text):",
        "Searching for both releases. Node.js 22 followed on 24 April 2024.",
        "",
        'Provider-reported input: {"query":"node 20 release"}',
        'Provider-reported input: {"query":"node 22 release"}',
        "Sources:",
        "[1] Node.js 20 is now available!",
        "    https://nodejs.org/en/blog/announcements/v20-release-announce",
        "[2] Node.js releases",
        "    https://nodejs.org/en/about/previous-releases",
        "[3] Node.js 22 is now available!",
        "    https://nodejs.org/en/blog/announcements/v22-release-announce",
        "Cited passages:",
        "[3] Node.js 22 followed on 24 April 2024.",
      ].join("\n"),
    );
  });

  it("a turn that keeps pausing is resumed five times, each with every paused block so far, then returns what it gathered with a note", async () => {
    const paused = (n: number): Step => ({
      search: { id: `srvtoolu_${n}`, query: `q${n}`, results: [{ title: `Page ${n}`, url: `https://example.com/${n}` }] },
      stop: "pause_turn",
    });
    const res = await search(paused);
    expect(res.bodies).toHaveLength(6);
    expect(res.bodies[0].messages).toEqual([USER]);
    for (let i = 1; i < 6; i++) {
      const sofar = Array.from({ length: i }, (_, n) => blocksOf(paused(n))).flat();
      expect(res.bodies[i].messages).toEqual([USER, { role: "assistant", content: sofar }]);
    }
    expect(res.ok).toBe(true);
    expect(res.text).toBe(
      [
        ...Array.from({ length: 6 }, (_, n) => `Provider-reported input: {"query":"q${n}"}`),
        "Sources:",
        ...Array.from({ length: 6 }, (_, n) => [`[${n + 1}] Page ${n}`, `    https://example.com/${n}`]).flat(),
        "Note: the provider still paused the search (pause_turn) after 5 continuations; these are the results gathered so far.",
      ].join("\n"),
    );
  });

  it("a turn that keeps pausing without finishing a search is an error that says so", async () => {
    const res = await search(() => ({ lead: "Thinking about it.", stop: "pause_turn" }));
    expect(res.bodies).toHaveLength(6);
    expect(res).toMatchObject({ ok: false, text: "no web_search call was observed: the provider still paused the search (pause_turn) after 5 continuations, without a finished search" });
  });

  it("a continuation cut mid-stream and retried counts once: its discarded part is not joined", async () => {
    // The cut response has streamed the search's blocks already; the retry
    // resends the same continuation and gets the whole response again.
    const res = await search((n) => (n === 0 ? FIRST : SECOND), [{ none: true }, { cutAfterEvents: 6 }], undefined, 1);
    expect(res.bodies).toHaveLength(3);
    expect(res.bodies[2]).toEqual(res.bodies[1]);
    expect(res.ok).toBe(true);
    expect(res.text.match(/Provider-reported input/g)).toHaveLength(2);
    expect(res.text).toContain("[3] Node.js 22 is now available!\n    https://nodejs.org/en/blog/announcements/v22-release-announce\nCited passages:\n[3] Node.js 22 followed on 24 April 2024.");
  });

  it("an abort while the continuation waits stops the call: no further request", async () => {
    const abort = new AbortController();
    const running = search((n) => (n === 0 ? FIRST : SECOND), [{ none: true }, { hang: true }], abort.signal);
    while (!server || server.stalled() === 0) await new Promise((r) => setTimeout(r, 10));
    abort.abort();
    const res = await running;
    expect(res.bodies).toHaveLength(2);
    expect(res.bodies[1].messages).toEqual([USER, { role: "assistant", content: blocksOf(FIRST) }]);
    expect(res).toMatchObject({ ok: false, text: "ERROR: cancelled by the user before the tool finished\nweb_search was cancelled" });
  });
});
