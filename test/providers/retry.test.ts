import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { createCaptureFetch } from "../../core/providers/capture-fetch.js";
import { AttemptError, classifyFailure, parseRetryAfter } from "../../core/providers/failure.js";
import { backoffDelayMs, runWithRetries } from "../../core/providers/retry.js";
import type { ProviderEvent } from "../../core/providers/types.js";

describe("backoff", () => {
  test("doubles from the base, capped at 30 s, jitter only shortens", () => {
    expect(backoffDelayMs(1, 1000, () => 0)).toBe(1000);
    expect(backoffDelayMs(2, 1000, () => 0)).toBe(2000);
    expect(backoffDelayMs(3, 1000, () => 0)).toBe(4000);
    expect(backoffDelayMs(10, 1000, () => 0)).toBe(30_000);
    expect(backoffDelayMs(1, 1000, () => 1)).toBe(750);
  });
});

describe("Retry-After", () => {
  test("seconds, HTTP dates and retry-after-ms", () => {
    expect(parseRetryAfter(new Headers({ "retry-after": "3" }))).toBe(3000);
    expect(parseRetryAfter(new Headers({ "retry-after": "0.5" }))).toBe(500);
    const now = Date.parse("2025-06-01T12:00:00Z");
    expect(parseRetryAfter(new Headers({ "retry-after": "Sun, 01 Jun 2025 12:00:07 GMT" }), now)).toBe(7000);
    expect(parseRetryAfter(new Headers({ "retry-after": "Sun, 01 Jun 2025 11:00:00 GMT" }), now)).toBe(0);
    expect(parseRetryAfter(new Headers({ "retry-after-ms": "250", "retry-after": "9" }))).toBe(250);
    expect(parseRetryAfter(new Headers({ "retry-after": "soon" }))).toBeUndefined();
    expect(parseRetryAfter(new Headers())).toBeUndefined();
  });
});

describe("classification", () => {
  const exchange = {};
  const http = (status: number, headers: Record<string, string> = {}) =>
    classifyFailure({ status, headers: new Headers(headers), error: { error: { message: "boom" } } }, exchange);

  test("429, 408 and 5xx retry; other 4xx do not; 401/403 are auth errors", () => {
    expect(http(429).retryable).toBe(true);
    expect(http(408).retryable).toBe(true);
    expect(http(529).retryable).toBe(true);
    expect(http(400).retryable).toBe(false);
    expect(http(404).retryable).toBe(false);
    expect(http(401)).toMatchObject({ retryable: false, code: "auth" });
    expect(http(403)).toMatchObject({ retryable: false, code: "auth" });
    expect(http(500).message).toBe("boom");
  });

  test("the server's x-should-retry wins", () => {
    expect(http(500, { "x-should-retry": "false" }).retryable).toBe(false);
    expect(http(400, { "x-should-retry": "true" }).retryable).toBe(true);
  });

  test("unknown errors are not retried (a bug should not be hidden)", () => {
    expect(classifyFailure(new TypeError("x is undefined"), exchange).retryable).toBe(false);
  });
});

describe("runWithRetries", () => {
  const collect = async (gen: AsyncIterable<ProviderEvent>) => {
    const out: ProviderEvent[] = [];
    for await (const ev of gen) out.push(ev);
    return out;
  };

  test("abort during the backoff wait ends at once with the abort reason", async () => {
    const controller = new AbortController();
    const failing = async function* (): AsyncGenerator<ProviderEvent, string> {
      throw new AttemptError({ retryable: true, code: "stream", message: "flaky", reason: "flaky" });
    };
    const started = Date.now();
    const done = collect(
      runWithRetries({ provider: "p", maxRetries: 5, backoffBaseMs: 10_000 }, controller.signal, failing),
    );
    setTimeout(() => controller.abort(), 20);
    await expect(done).rejects.toMatchObject({ name: "AbortError" });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  test("uses the injected sleep and reports each retry", async () => {
    const waits: number[] = [];
    let calls = 0;
    const flaky = async function* (): AsyncGenerator<ProviderEvent, string> {
      if (++calls < 3) {
        yield { type: "text_delta", text: "partial" };
        throw new AttemptError({ retryable: true, code: "stream", message: "cut", reason: "cut" });
      }
      yield { type: "text_delta", text: "whole" };
      return "end_turn";
    };
    const events = await collect(
      runWithRetries(
        { provider: "p", maxRetries: 3, backoffBaseMs: 100, random: () => 0, sleep: async (ms) => void waits.push(ms) },
        new AbortController().signal,
        flaky,
      ),
    );
    expect(waits).toEqual([100, 200]);
    expect(events.filter((e) => e.type === "retry")).toEqual([
      { type: "retry", attempt: 1, delayMs: 100, reason: "cut", discardedPartial: true },
      { type: "retry", attempt: 2, delayMs: 200, reason: "cut", discardedPartial: true },
    ]);
    expect(events.at(-1)).toEqual({ type: "finish", stopReason: "end_turn" });
  });
});

describe("capture fetch", () => {
  test("records bodies and URL, passes the response through, never keeps headers", async () => {
    const base: typeof fetch = async () =>
      new Response("data: hi\n\n", { status: 200, headers: { "x-secret": "resp-secret" } });
    const capture = createCaptureFetch({ baseFetch: base });
    const res = await capture.fetch("http://h/v1/x", {
      method: "POST",
      body: '{"a":1}',
      headers: { authorization: "Bearer sk-secret" },
    });
    expect(res.headers.get("x-secret")).toBe("resp-secret");
    expect(await res.text()).toBe("data: hi\n\n");
    expect(capture.exchange).toEqual({
      request: { url: "http://h/v1/x", body: '{"a":1}' },
      response: { status: 200, body: "data: hi\n\n" },
    });
    expect(JSON.stringify(capture.exchange)).not.toMatch(/secret/);
  });
});

test("the SDKs are never imported at module top level (start-up speed)", () => {
  const dir = new URL("../../core/providers/", import.meta.url);
  for (const file of ["index.ts", "anthropic.ts", "openai-responses.ts", "openai-chat.ts", "retry.ts", "sdk-client.ts", "wire-history.ts"]) {
    const source = readFileSync(new URL(file, dir), "utf8");
    expect(source, file).not.toMatch(/^import\s+(?!type\b)[^;]*from\s+"(openai|@anthropic-ai\/sdk)"/m);
  }
  const index = readFileSync(new URL("index.ts", dir), "utf8");
  expect(index).not.toMatch(/^import\s+(?!type\b)[^;]*from\s+"\.\/(anthropic|openai-responses|openai-chat)\.js"/m);
});
