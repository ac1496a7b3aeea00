// The Anthropic stream through yuj's own HTTP client against raw local
// servers that control every byte: how the bytes are cut into TCP chunks,
// line endings, comments, multi-line data, failures by status, by event and
// by socket, aborts, and what the request carries.

import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createTlsServer } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, test, vi } from "vitest";
import { createProvider } from "../../core/providers/index.js";
import { SseParser } from "../../core/providers/sse-parse.js";
import { ProviderError } from "../../core/providers/types.js";
import { startTestProxy } from "../support/http-proxy.js";
import { API_KEY, request, run } from "./helpers.js";

type Handler = (req: IncomingMessage, res: ServerResponse, n: number) => void | Promise<void>;

interface RawServer {
  url: string;
  requests: { path: string; headers: IncomingMessage["headers"]; body: string }[];
  /** Sockets the server saw close, in order. */
  closed: number;
}

const servers: Server[] = [];
afterEach(async () => {
  vi.unstubAllEnvs();
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => (s.closeAllConnections(), s.close(r)))));
});

/** A self-signed certificate for localhost, made by openssl for the test. */
function selfSigned(): { key: Buffer; cert: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), "yuj-tls-"));
  try {
    execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
      "-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem")], { stdio: "ignore" });
    return { key: readFileSync(join(dir, "key.pem")), cert: readFileSync(join(dir, "cert.pem")) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function rawServer(handler: Handler, tls?: { key: Buffer; cert: Buffer }): Promise<RawServer> {
  const state: RawServer = { url: "", requests: [], closed: 0 };
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      state.requests.push({ path: req.url ?? "", headers: req.headers, body });
      void handler(req, res, state.requests.length);
    });
  };
  const server = tls ? createTlsServer(tls, listener) : createServer(listener);
  server.on(tls ? "secureConnection" : "connection", (socket) => {
    socket.setNoDelay(true);
    socket.on("close", () => state.closed++);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, tls ? "localhost" : "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  state.url = tls ? `https://localhost:${port}` : `http://127.0.0.1:${port}`;
  return state;
}

function provider(baseURL: string, extra: { maxRetries?: number; requestTimeoutMs?: number; apiKey?: string | null } = {}) {
  const apiKey = extra.apiKey === null ? {} : { apiKey: extra.apiKey ?? API_KEY };
  return createProvider({
    name: "anthropic",
    model: "test-model",
    baseURL,
    ...apiKey,
    maxRetries: extra.maxRetries ?? 0,
    requestTimeoutMs: extra.requestTimeoutMs ?? 5000,
    backoffBaseMs: 1,
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function event(name: string, data: unknown, eol = "\n"): string {
  return `event: ${name}${eol}data: ${JSON.stringify(data)}${eol}${eol}`;
}

/** A whole answer, "Hi é🙂" in two deltas (characters of two and four bytes, to be cut inside). */
function answer(eol = "\n"): string {
  return [
    event("message_start", { type: "message_start", message: { id: "m1", usage: { input_tokens: 7, output_tokens: 1 } } }, eol),
    event("content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }, eol),
    event("ping", { type: "ping" }, eol),
    event("content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hi " } }, eol),
    event("content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "é🙂" } }, eol),
    event("content_block_stop", { type: "content_block_stop", index: 0 }, eol),
    event("message_delta", { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 5 } }, eol),
    event("message_stop", { type: "message_stop" }, eol),
  ].join("");
}

function sse(res: ServerResponse, status = 200): void {
  res.writeHead(status, { "content-type": "text/event-stream" });
}

describe("SSE parsing", () => {
  test("every way of cutting a CRLF stream in two gives the same events", () => {
    const bytes = Buffer.from(answer("\r\n") + ": a comment\r\n\r\n");
    const whole = new SseParser().push(bytes);
    expect(whole.map((m) => m.event)).toEqual([
      "message_start", "content_block_start", "ping", "content_block_delta", "content_block_delta",
      "content_block_stop", "message_delta", "message_stop",
    ]);
    for (let cut = 1; cut < bytes.length; cut++) {
      const parser = new SseParser();
      const got = [...parser.push(bytes.subarray(0, cut)), ...parser.push(bytes.subarray(cut)), ...parser.end()];
      expect(got, `cut at byte ${cut}`).toEqual(whole);
    }
  });

  test("lone CRs end lines, data lines join with a newline, fields without a space or value count, an unfinished event is dropped", () => {
    const parser = new SseParser();
    const text = "event:a\rdata:x\rdata\rdata:  y\r\r:note\n\nevent: b\ndata: unfinished";
    expect([...parser.push(Buffer.from(text)), ...parser.end()]).toEqual([{ event: "a", data: "x\n\n y" }]);
  });
});

describe("the Anthropic stream over yuj's own client", () => {
  test("a CRLF stream cut into two TCP chunks at every byte boundary gives the same answer", async () => {
    const bytes = Buffer.from(answer("\r\n"));
    const server = await rawServer(async (_req, res, n) => {
      sse(res);
      res.write(bytes.subarray(0, n));
      await sleep(2);
      res.end(bytes.subarray(n));
    });
    const p = await provider(server.url);
    for (let cut = 1; cut < bytes.length; cut++) {
      const out = await run(p, request());
      expect(out.error, `cut at byte ${cut}`).toBeUndefined();
      expect(out.text, `cut at byte ${cut}`).toBe("Hi é🙂");
      expect(out.stopReason).toBe("end_turn");
    }
    expect(server.requests.length).toBe(bytes.length - 1);
  }, 60_000);

  test("CRLF lines, comments, multi-line data and unknown events: the answer, and the trace keeps the bytes as sent", async () => {
    const stop = 'event: message_stop\r\ndata: {"type":\r\ndata: "message_stop"}\r\n\r\n';
    const body = ": hello\r\n\r\n" + answer("\r\n").replace(/event: message_stop.*$/s, "") +
      "event: something_new\r\ndata: {}\r\n\r\n" + stop;
    const server = await rawServer((_req, res) => {
      sse(res);
      res.end(body);
    });
    const out = await run(await provider(server.url), request());
    expect(out.error).toBeUndefined();
    expect(out.text).toBe("Hi é🙂");
    expect(out.usage).toEqual([{ inputTokens: 7, outputTokens: 5, cachedTokens: 0 }]);
    const raw = out.events.find((e) => e.type === "raw_response");
    expect(raw).toEqual({ type: "raw_response", status: 200, body });
  });

  test("a stream that ends without message_stop is retried, then reported as ended early", async () => {
    const server = await rawServer((_req, res) => {
      sse(res);
      res.end(answer().replace(/event: message_stop[^]*$/, ""));
    });
    const out = await run(await provider(server.url, { maxRetries: 1 }), request());
    expect(out.retries.map((r) => r.reason)).toEqual(["stream ended early"]);
    expect((out.error as ProviderError).message).toBe(
      "anthropic: the response stream ended before message_stop (after 2 attempts)",
    );
  });

  test("an error event mid-stream: retried when transient, the partial output discarded, its message reported", async () => {
    const partial = answer().split("event: content_block_stop")[0]!;
    const server = await rawServer((_req, res) => {
      sse(res);
      res.end(partial + event("error", { type: "error", error: { type: "overloaded_error", message: "Overloaded" } }));
    });
    const out = await run(await provider(server.url, { maxRetries: 1 }), request());
    expect(out.retries).toMatchObject([{ attempt: 1, reason: "overloaded_error: Overloaded", discardedPartial: true }]);
    const err = out.error as ProviderError;
    expect(err.code).toBe("stream");
    expect(err.message).toBe("anthropic: Overloaded (after 2 attempts)");
  });

  test("a 429 waits as retry-after-ms says, then the answer comes", async () => {
    const server = await rawServer((_req, res, n) => {
      if (n === 1) {
        res.writeHead(429, { "content-type": "application/json", "retry-after-ms": "40" });
        res.end(JSON.stringify({ type: "error", error: { type: "rate_limit_error", message: "Slow down" } }));
        return;
      }
      sse(res);
      res.end(answer());
    });
    const out = await run(await provider(server.url, { maxRetries: 1 }), request());
    expect(out.error).toBeUndefined();
    expect(out.retries).toMatchObject([{ attempt: 1, delayMs: 40, status: 429, reason: "HTTP 429: Slow down" }]);
    expect(out.text).toBe("Hi é🙂");
    const bodies = out.events.filter((e) => e.type === "raw_response").map((e) => (e as { status: number }).status);
    expect(bodies).toEqual([429, 200]);
  });

  test("529 overloaded is retried and reported with its status and message; x-should-retry: false is believed", async () => {
    const overloaded = await rawServer((_req, res) => {
      res.writeHead(529, { "content-type": "application/json" });
      res.end(JSON.stringify({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } }));
    });
    const out = await run(await provider(overloaded.url, { maxRetries: 1 }), request());
    expect(out.retries).toMatchObject([{ status: 529, reason: "HTTP 529: Overloaded" }]);
    const err = out.error as ProviderError;
    expect([err.code, err.status, err.message]).toEqual(["http", 529, "anthropic: HTTP 529: Overloaded (after 2 attempts)"]);

    const refused = await rawServer((_req, res) => {
      res.writeHead(503, { "x-should-retry": "false" });
      res.end("upstream gone");
    });
    const plain = await run(await provider(refused.url, { maxRetries: 3 }), request());
    expect(plain.retries).toEqual([]);
    expect((plain.error as ProviderError).message).toBe("anthropic: HTTP 503: upstream gone");
  });

  test("401 asks to check the key; an empty error body says so", async () => {
    const server = await rawServer((_req, res, n) => {
      res.writeHead(n === 1 ? 401 : 400);
      res.end(n === 1 ? JSON.stringify({ type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } }) : "");
    });
    const p = await provider(server.url);
    const auth = (await run(p, request())).error as ProviderError;
    expect([auth.code, auth.message]).toEqual([
      "auth",
      "anthropic: HTTP 401: invalid x-api-key (check the API key: is it set, valid and allowed to use this model?)",
    ]);
    expect(((await run(p, request())).error as ProviderError).message).toBe("anthropic: HTTP 400: status code (no body)");
  });

  test("abort mid-stream ends the stream with the signal's reason and closes the socket at once", async () => {
    const server = await rawServer((_req, res) => {
      sse(res);
      res.write(answer().split("event: content_block_stop")[0]);
      // …and nothing more, until the client goes away.
    });
    const controller = new AbortController();
    const p = await provider(server.url);
    const reason = new Error("user pressed Escape");
    const seen: string[] = [];
    let error: unknown;
    try {
      for await (const ev of p.stream(request(), controller.signal)) {
        seen.push(ev.type);
        if (ev.type === "text_delta" && ev.text === "é🙂") controller.abort(reason);
      }
    } catch (err) {
      error = err;
    }
    expect(error).toBe(reason);
    const at = Date.now();
    while (server.closed === 0 && Date.now() - at < 1000) await sleep(5);
    expect(server.closed).toBe(1);
    expect(Date.now() - at).toBeLessThan(500);
  });

  test("connection refused is retried and reported as unreachable", async () => {
    const gone = await rawServer(() => {});
    const url = gone.url;
    await new Promise((r) => servers.pop()!.close(r));
    const out = await run(await provider(url, { maxRetries: 1 }), request());
    const err = out.error as ProviderError;
    expect(err.code).toBe("connection");
    expect(err.message).toMatch(new RegExp(`^anthropic: cannot reach ${url}/v1/messages: connect ECONNREFUSED .+ \\(after 2 attempts\\)$`));
  });

  test("no response headers within the request timeout: timed out, as a connection failure", async () => {
    const server = await rawServer(() => {});
    const out = await run(await provider(server.url, { requestTimeoutMs: 150 }), request());
    const err = out.error as ProviderError;
    expect([err.code, err.message]).toEqual(["connection", `anthropic: request to ${server.url}/v1/messages timed out`]);
  });

  test("the socket cut mid-body: the stream broke off", async () => {
    const server = await rawServer((_req, res) => {
      sse(res);
      res.write(answer().slice(0, 200), () => setTimeout(() => res.socket?.destroy(), 10));
    });
    const out = await run(await provider(server.url), request());
    const err = out.error as ProviderError;
    expect([err.code, err.message]).toEqual(["stream", "anthropic: the stream broke off: other side closed"]);
  });

  test("the request: path under the base URL, version, bearer key, JSON; keep-alive between requests", async () => {
    const server = await rawServer((_req, res) => {
      sse(res);
      res.end(answer());
    });
    for (const base of [server.url, `${server.url}/`]) await run(await provider(base), request());
    await run(await provider(`${server.url}/gateway/`), request());
    expect(server.requests.map((r) => r.path)).toEqual(["/v1/messages", "/v1/messages", "/gateway/v1/messages"]);
    const headers = server.requests[0]!.headers;
    expect(headers).toMatchObject({
      authorization: `Bearer ${API_KEY}`,
      "anthropic-version": "2026-10-21",
      "content-type": "application/json",
      accept: "application/json",
    });
    expect(headers["x-api-key"]).toBeUndefined();
    const body = JSON.parse(server.requests[0]!.body);
    expect([body.model, body.stream, body.max_tokens]).toEqual(["test-model", true, 1024]);
    expect(server.closed).toBe(0);
  });

  test("without a key given: ANTHROPIC_API_KEY, else ANTHROPIC_AUTH_TOKEN, as a bearer token; ANTHROPIC_CUSTOM_HEADERS added", async () => {
    const server = await rawServer((_req, res) => {
      sse(res);
      res.end(answer());
    });
    vi.stubEnv("ANTHROPIC_API_KEY", "sk-env");
    vi.stubEnv("ANTHROPIC_AUTH_TOKEN", "tok-env");
    vi.stubEnv("ANTHROPIC_CUSTOM_HEADERS", "X-Team: blue\nanthropic-beta: some-beta");
    await run(await provider(server.url, { apiKey: null }), request());
    vi.stubEnv("ANTHROPIC_API_KEY", "");
    await run(await provider(server.url, { apiKey: null }), request());
    expect(server.requests.map((r) => r.headers.authorization)).toEqual(["Bearer sk-env", "Bearer tok-env"]);
    expect(server.requests[0]!.headers).toMatchObject({ "x-team": "blue", "anthropic-beta": "some-beta" });

    vi.stubEnv("ANTHROPIC_AUTH_TOKEN", "");
    const none = (await run(await provider(server.url, { apiKey: null }), request())).error as ProviderError;
    expect(none.code).toBe("auth");
    expect(server.requests.length).toBe(2);
  });

  test("HTTP_PROXY is not used (the SDK's fetch did not use it either)", async () => {
    const server = await rawServer((_req, res) => {
      sse(res);
      res.end(answer());
    });
    const proxy = await startTestProxy();
    try {
      vi.stubEnv("HTTP_PROXY", proxy.url);
      vi.stubEnv("http_proxy", proxy.url);
      const out = await run(await provider(server.url), request());
      expect(out.text).toBe("Hi é🙂");
      expect(proxy.seen).toEqual([]);
      expect(server.requests.length).toBe(1);
    } finally {
      await proxy.close();
    }
  });

  test("over TLS: a certificate the system does not trust is a failure to reach the server; trusted, the answer comes", async () => {
    const server = await rawServer((_req, res) => {
      sse(res);
      res.end(answer());
    }, selfSigned());
    const p = await provider(server.url);
    const refused = (await run(p, request())).error as ProviderError;
    expect(refused.code).toBe("connection");
    expect(refused.message).toBe(`anthropic: cannot reach ${server.url}/v1/messages: self-signed certificate`);
    expect(server.requests).toEqual([]);

    // The switch node reads at each TLS connection (it warns once, on stderr).
    vi.stubEnv("NODE_TLS_REJECT_UNAUTHORIZED", "0");
    const out = await run(p, request());
    expect(out.error).toBeUndefined();
    expect(out.text).toBe("Hi é🙂");
    expect(server.requests.map((r) => r.path)).toEqual(["/v1/messages"]);
  });
});
