// The three adapters against a real local server speaking each API's
// streaming format, through the real SDKs and sockets.

import { afterEach, describe, expect, test, vi } from "vitest";
import { createProvider, type ProviderName } from "../../core/providers/index.js";
import { ProviderError } from "../../core/providers/types.js";
import { API_KEY, providerFor, request, run, serverPool } from "./helpers.js";

const pool = serverPool();
afterEach(() => pool.closeAll());

const PROVIDERS: { name: ProviderName; terminal: string }[] = [
  { name: "anthropic", terminal: "event: message_stop" },
  { name: "openai", terminal: "event: response.completed" },
  { name: "openai-chat", terminal: "data: [DONE]" },
];

const TEXT = "Hello there! This answer arrives in small pieces.";
const ARGS = { path: "src/some/deeply/nested/module.ts", start_line: 10, end_line: 240, why: "to look" };

describe.each(PROVIDERS)("$name adapter", ({ name, terminal }) => {
  test("streams text in small deltas", async () => {
    const server = await pool.start({ turns: [{ text: TEXT }] });
    const out = await run(await providerFor(name, server), request());
    expect(out.error).toBeUndefined();
    expect(out.text).toBe(TEXT);
    expect(out.events.filter((e) => e.type === "text_delta").length).toBeGreaterThan(5);
    expect(out.stopReason).toBe("end_turn");
    // raw request first, raw response after the body, finish last
    const types = out.events.map((e) => e.type);
    expect(types[0]).toBe("raw_request");
    expect(types.at(-1)).toBe("finish");
    expect(types.at(-2)).toBe("raw_response");
  });

  test("reassembles one tool call from many argument deltas", async () => {
    const server = await pool.start({ turns: [{ tool_calls: [{ id: "call_abc", name: "read_file", arguments: ARGS }] }] });
    const out = await run(await providerFor(name, server), request());
    expect(out.error).toBeUndefined();
    expect(out.calls).toEqual([{ id: "call_abc", name: "read_file", args: JSON.stringify(ARGS), ended: true }]);
    expect(out.events.filter((e) => e.type === "tool_call_delta").length).toBeGreaterThan(5);
    expect(out.stopReason).toBe("tool_use");
  });

  test("reports two parallel tool calls in order, each ended", async () => {
    const server = await pool.start({
      turns: [
        {
          text: "Reading both.",
          tool_calls: [
            { name: "read_file", arguments: { path: "a.ts" } },
            { name: "grep", arguments: { pattern: "TODO", path: "." } },
          ],
        },
      ],
    });
    const out = await run(await providerFor(name, server), request());
    expect(out.error).toBeUndefined();
    expect(out.text).toBe("Reading both.");
    expect(out.calls).toEqual([
      { id: "call_0_0", name: "read_file", args: '{"path":"a.ts"}', ended: true },
      { id: "call_0_1", name: "grep", args: '{"pattern":"TODO","path":"."}', ended: true },
    ]);
    const ends = out.events.filter((e) => e.type === "tool_call_end").map((e) => (e as { id: string }).id);
    expect(ends).toEqual(["call_0_0", "call_0_1"]);
  });

  test("reports usage once, prompt tokens including cached ones", async () => {
    const server = await pool.start({ turns: [{ text: "ok", usage: { input: 120, output: 30, cached: 100 } }] });
    const out = await run(await providerFor(name, server), request());
    expect(out.usage).toEqual([{ inputTokens: 120, outputTokens: 30, cachedTokens: 100 }]);
  });

  test("continues a conversation after tool results", async () => {
    const server = await pool.start({
      turns: [{ tool_calls: [{ name: "read_file", arguments: { path: "a.ts" } }] }, { text: "The file is short." }],
    });
    const out = await run(
      await providerFor(name, server),
      request([
        { role: "user", text: "read a.ts" },
        { role: "assistant", text: "", toolCalls: [{ id: "call_0_0", name: "read_file", args: '{"path":"a.ts"}' }] },
        { role: "tool", callId: "call_0_0", name: "read_file", text: "const a = 1;", isError: false },
      ]),
    );
    expect(out.error).toBeUndefined();
    expect(out.text).toBe("The file is short.");
  });

  test("a tool call without its result is the server's 400, not retried", async () => {
    const server = await pool.start({ turns: [{ text: "unused" }, { text: "unused" }] });
    const out = await run(
      await providerFor(name, server),
      request([
        { role: "user", text: "read a.ts" },
        { role: "assistant", text: "", toolCalls: [{ id: "call_x", name: "read_file", args: "{}" }] },
        { role: "user", text: "never mind" },
      ]),
    );
    expect(out.error).toBeInstanceOf(ProviderError);
    const err = out.error as ProviderError;
    expect(err.status).toBe(400);
    expect(err.message).toContain(`${name}: HTTP 400`);
    expect(err.message).toMatch(/call_x/);
    expect(server.requests).toHaveLength(1);
  });

  test("waits as Retry-After says on 429, then succeeds", async () => {
    const server = await pool.start({ turns: [{ text: TEXT }] }, { faults: [{ status: 429, retryAfter: "1" }] });
    const out = await run(await providerFor(name, server), request());
    expect(out.error).toBeUndefined();
    expect(out.retries).toEqual([
      expect.objectContaining({ attempt: 1, delayMs: 1000, status: 429, discardedPartial: false }),
    ]);
    expect(out.ms).toBeGreaterThanOrEqual(950);
    expect(out.text).toBe(TEXT);
    expect(server.requests).toHaveLength(2);
  });

  test("honours retry-after-ms on an overloaded answer", async () => {
    const status = name === "anthropic" ? 529 : 503;
    const server = await pool.start({ turns: [{ text: "ok" }] }, { faults: [{ status, retryAfterMs: "25" }] });
    const out = await run(await providerFor(name, server), request());
    expect(out.retries).toEqual([expect.objectContaining({ delayMs: 25, status })]);
    expect(out.text).toBe("ok");
  });

  test("gives up after maxRetries with the status and the server's message", async () => {
    const fault = { status: 500, message: "the database fell over" };
    const server = await pool.start({ turns: [{ text: "ok" }] }, { faults: [fault, fault, fault] });
    const out = await run(await providerFor(name, server, { maxRetries: 2 }), request());
    expect(out.error).toBeInstanceOf(ProviderError);
    const err = out.error as ProviderError;
    expect(err.message).toBe(`${name}: HTTP 500: the database fell over (after 3 attempts)`);
    expect(err.status).toBe(500);
    expect(err.code).toBe("http");
    expect(out.retries.map((r) => r.attempt)).toEqual([1, 2]);
    expect(server.requests).toHaveLength(3);
  });

  test("retries a stream cut mid-way, discarding the partial output", async () => {
    const server = await pool.start({ turns: [{ text: TEXT }] }, { faults: [{ cutAfterEvents: 6 }] });
    const out = await run(await providerFor(name, server), request());
    expect(out.error).toBeUndefined();
    expect(out.retries).toEqual([expect.objectContaining({ attempt: 1, discardedPartial: true })]);
    expect(out.text).toBe(TEXT);
    // the failed attempt still shows what it received
    const responses = out.events.filter((e) => e.type === "raw_response");
    expect(responses).toHaveLength(2);
  });

  test("a stream cut every time ends in a clear error", async () => {
    const cut = { cutAfterEvents: 4 };
    const server = await pool.start({ turns: [{ text: TEXT }] }, { faults: [cut, cut, cut] });
    const out = await run(await providerFor(name, server), request());
    const err = out.error as ProviderError;
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.code).toBe("stream");
    expect(err.message).toMatch(new RegExp(`^${name}: the stream broke off: .+ \\(after 3 attempts\\)$`));
  });

  test("retries an overloaded error sent inside the stream", async () => {
    const server = await pool.start({ turns: [{ text: TEXT }] }, { faults: [{ errorEventAfter: 5 }] });
    const out = await run(await providerFor(name, server), request());
    expect(out.error).toBeUndefined();
    expect(out.retries).toEqual([expect.objectContaining({ reason: expect.stringMatching(/overloaded/i) })]);
    expect(out.text).toBe(TEXT);
  });

  test("retries a connection reset before any answer", async () => {
    const server = await pool.start({ turns: [{ text: "ok" }] }, { faults: [{ reset: true }] });
    const out = await run(await providerFor(name, server), request());
    expect(out.error).toBeUndefined();
    expect(out.retries).toEqual([expect.objectContaining({ discardedPartial: false })]);
    expect(out.text).toBe("ok");
  });

  test("a rejected key is not retried and names the API key", async () => {
    const server = await pool.start({ turns: [{ text: "ok" }] }, { faults: [{ status: 401 }] });
    const out = await run(await providerFor(name, server), request());
    const err = out.error as ProviderError;
    expect(err.code).toBe("auth");
    expect(err.status).toBe(401);
    expect(err.message).toMatch(/API key/);
    expect(server.requests).toHaveLength(1);
  });

  test("raw request is the JSON sent, without the key; raw response is the SSE text", async () => {
    const server = await pool.start({ turns: [{ text: "ok" }] });
    const out = await run(await providerFor(name, server), request());
    const raw = out.events.find((e) => e.type === "raw_request") as { url: string; body: string };
    expect(raw.body).toBe(server.requests[0]!.rawBody);
    expect(JSON.parse(raw.body).model).toBe("test-model");
    expect(raw.url.startsWith(server.url)).toBe(true);
    expect(raw.body).not.toContain(API_KEY);
    expect(raw.url).not.toContain(API_KEY);
    // the key did travel, in a header
    expect(JSON.stringify(server.requests[0]!.headers)).toContain(API_KEY);
    const response = out.events.find((e) => e.type === "raw_response") as { status: number; body: string };
    expect(response.status).toBe(200);
    expect(response.body).toContain(terminal);
    expect(JSON.stringify(out.events)).not.toContain(API_KEY);
  });

  test("abort mid-stream stops promptly with an AbortError", async () => {
    const server = await pool.start({ turns: [{ text: "x".repeat(400) }] }, { eventDelayMs: 20 });
    const provider = await providerFor(name, server);
    const controller = new AbortController();
    const started = Date.now();
    let deltas = 0;
    let caught: unknown;
    try {
      for await (const ev of provider.stream(request(), controller.signal)) {
        if (ev.type === "text_delta" && ++deltas === 3) controller.abort();
      }
    } catch (err) {
      caught = err;
    }
    expect((caught as Error).name).toBe("AbortError");
    expect(deltas).toBeLessThan(6);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(server.requests).toHaveLength(1);
  });

  test("a stalled stream fails after the request timeout", async () => {
    const server = await pool.start({ turns: [{ text: TEXT }] }, { eventDelayMs: 400 });
    const out = await run(await providerFor(name, server, { requestTimeoutMs: 150, maxRetries: 0 }), request());
    const err = out.error as ProviderError;
    expect(err.code).toBe("stream");
    expect(err.message).toMatch(/stalled/);
  });

  test("an unreachable server is a connection error naming the URL", async () => {
    // A port that was just free: nothing listens there any more.
    const closed = await pool.start({ turns: [{ text: "ok" }] });
    const base = closed.baseUrlFor(name);
    await closed.close();
    const provider = await providerFor(name, { baseUrlFor: () => base } as never, { maxRetries: 1 });
    const out = await run(provider, request());
    const err = out.error as ProviderError;
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.code).toBe("connection");
    expect(err.message).toContain(closed.url);
    expect(err.message).toMatch(/ECONNREFUSED/);
    expect(err.message).toContain("(after 2 attempts)");
  });

  test("lists models", async () => {
    const server = await pool.start({ turns: [{ text: "ok" }] });
    const provider = await providerFor(name, server);
    expect(await provider.listModels!(new AbortController().signal)).toEqual(["test-model-a", "test-model-b"]);
  });
});

describe("credentials and base URL from the environment", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  test.each([
    { name: "anthropic" as const, keyVar: "ANTHROPIC_API_KEY", urlVar: "ANTHROPIC_BASE_URL" },
    { name: "openai" as const, keyVar: "OPENAI_API_KEY", urlVar: "OPENAI_BASE_URL" },
    { name: "openai-chat" as const, keyVar: "OPENAI_API_KEY", urlVar: "OPENAI_BASE_URL" },
  ])("$name reads $keyVar and $urlVar when none are given", async ({ name, keyVar, urlVar }) => {
    const server = await pool.start({ turns: [{ text: "from env" }] });
    vi.stubEnv(keyVar, "sk-from-env");
    vi.stubEnv(urlVar, server.baseUrlFor(name));
    const provider = await createProvider({ name, model: "test-model", maxRetries: 0, requestTimeoutMs: 5000 });
    const out = await run(provider, request());
    expect(out.text).toBe("from env");
    expect(JSON.stringify(server.requests[0]!.headers)).toContain("sk-from-env");
  });

  test("openai-chat works without any key (local servers)", async () => {
    const server = await pool.start({ turns: [{ text: "local" }] });
    vi.stubEnv("OPENAI_API_KEY", undefined);
    const provider = await createProvider({
      name: "openai-chat",
      model: "test-model",
      baseURL: server.baseUrlFor("openai-chat"),
      maxRetries: 0,
      requestTimeoutMs: 5000,
    });
    const out = await run(provider, request());
    expect(out.text).toBe("local");
    expect(server.requests[0]!.headers.authorization).toBe("Bearer not-needed");
  });
});
