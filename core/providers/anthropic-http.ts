// The Anthropic Messages stream over node:http / node:https, without the SDK
// or fetch: loading those (and undici behind fetch) cost the headless run
// some 150 ms before its first request. It sends what the SDK sent (the same
// URL, version, auth and content headers), records the exchange for the
// trace as the capturing fetch does, and hands failures to classifyFailure
// with the same facts the SDK's errors carried (status, headers, parsed body).

import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { StreamStalledError, type Exchange } from "./capture-fetch.js";
import { AttemptError, unreachable } from "./failure.js";
import { abortError } from "./retry.js";
import { SseParser, type SseMessage } from "./sse-parse.js";
import { ProviderError } from "./types.js";
import { mark } from "../startup-timing.js";
import { claimSpeculativeRequest, firstRequestSent, keepAliveAgents, type SpeculativeRequest } from "./speculative-request.js";

/** The API version the SDK this replaces sent. */
const API_VERSION = "2026-10-21";
const DEFAULT_BASE_URL = "https://api.anthropic.com";

/** Where requests go and the headers every one carries (auth included: never stored or traced). */
export interface AnthropicTarget {
  url: URL;
  headers: Record<string, string>;
}

/**
 * The messages URL and headers, as the SDK built them: the base URL given,
 * else ANTHROPIC_BASE_URL, else the public API, with "/v1/messages" appended
 * (one slash between); the key given, else ANTHROPIC_API_KEY, else
 * ANTHROPIC_AUTH_TOKEN, sent as a bearer token; ANTHROPIC_CUSTOM_HEADERS
 * lines ("Name: value") added.
 */
export function anthropicTarget(apiKey: string | undefined, baseURL: string | undefined): AnthropicTarget {
  const env = process.env;
  const base = baseURL || env.ANTHROPIC_BASE_URL || DEFAULT_BASE_URL;
  let url: URL;
  try {
    url = new URL(base.endsWith("/") ? `${base}v1/messages` : `${base}/v1/messages`);
  } catch {
    throw new ProviderError("anthropic", undefined, `cannot create the client: invalid base URL ${base}`, "config");
  }
  const key = apiKey ?? (env.ANTHROPIC_API_KEY || env.ANTHROPIC_AUTH_TOKEN);
  if (!key) {
    const message = "cannot create the client: no API key (set ANTHROPIC_API_KEY)";
    throw new ProviderError("anthropic", undefined, message, "auth");
  }
  return {
    url,
    headers: {
      accept: "application/json",
      "user-agent": "yuj",
      "anthropic-version": API_VERSION,
      ...customHeaders(env.ANTHROPIC_CUSTOM_HEADERS),
      authorization: `Bearer ${key}`,
      "content-type": "application/json",
    },
  };
}

function customHeaders(lines: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of lines?.split("\n") ?? []) {
    const colon = line.indexOf(":");
    if (colon > 0) out[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return out;
}

/** Connections kept open between turns, as fetch's pool kept them (the entry's speculative request's pool). */
const agents = keepAliveAgents();

export interface PostOptions {
  /** Limit for the response headers to arrive. */
  timeoutMs: number;
  /** Limit for any silence in the body. */
  idleTimeoutMs: number;
}

/**
 * Posts `body` and yields the response's server-sent events. Throws what
 * classifyFailure reads: an AttemptError when the server cannot be reached or
 * the headers do not come in time, an HTTP status error, a reset (ECONNRESET)
 * or a StreamStalledError mid-body; the signal's reason on abort.
 */
export async function* postForEvents(
  target: AnthropicTarget,
  body: string,
  exchange: Exchange,
  options: PostOptions,
  signal: AbortSignal,
): AsyncGenerator<SseMessage> {
  if (signal.aborted) throw abortError(signal);
  exchange.request = { url: target.url.href, body };
  const headers = { ...target.headers, "content-length": String(Buffer.byteLength(body)) };
  const speculative = claimSpeculativeRequest({ url: target.url.href, method: "POST", headers: Object.entries(headers), body });
  let req: ReturnType<typeof httpRequest> | undefined;
  // Abort destroys the socket at once, whatever the request is waiting for.
  // A response already read to its end has nothing left to stop: its socket
  // may be on its way back to the pool, with no request's error listener on
  // it, where an error would end the process. The caller sees the abort at
  // its next step either way.
  const onAbort = () => {
    if (!res?.complete) req?.destroy(abortError(signal) as Error);
  };
  signal.addEventListener("abort", onAbort, { once: true });
  let res: IncomingMessage | undefined;
  try {
    if (speculative) {
      req = speculative.req;
      res = await adopted(speculative, target.url.href, options.timeoutMs);
      if (signal.aborted) throw abortError(signal);
    }
    if (!res) {
      mark("HTTP request started");
      const https = target.url.protocol === "https:";
      req = (https ? httpsRequest : httpRequest)(target.url, { method: "POST", headers, agent: https ? agents.https : agents.http });
      res = await response(req, body, target.url.href, options.timeoutMs);
    }
    const record = { status: res.statusCode ?? 0, body: "" };
    exchange.response = record;
    const chunks = bodyChunks(res, record, options.idleTimeoutMs);
    if (record.status < 200 || record.status > 299) {
      for await (const _ of chunks);
      throw new HttpStatusError(record.status, res, record.body);
    }
    const parser = new SseParser();
    for await (const chunk of chunks) yield* parser.push(chunk);
    yield* parser.end();
  } finally {
    signal.removeEventListener("abort", onAbort);
    // Stopped early (a consumer's return, a failure): the socket is not reused.
    if (req && !req.destroyed && !res?.complete) req.destroy();
  }
}

/**
 * The speculative request's response, taken as this request's; undefined
 * when it failed before its headers came (then the request is sent as
 * usual: speculation never surfaces an error). Its headers are awaited as
 * long as one's own would be.
 */
function adopted(speculative: SpeculativeRequest, url: string, timeoutMs: number): Promise<IncomingMessage | undefined> {
  mark("speculative request adopted");
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      speculative.req.destroy();
      reject(new AttemptError({ retryable: true, code: "connection", message: `request to ${url} timed out`, reason: "request timed out" }));
    }, timeoutMs);
    void speculative.outcome.then((r) => {
      clearTimeout(timer);
      resolve(r instanceof Error ? undefined : r);
    });
  });
}

function response(
  req: ReturnType<typeof httpRequest>,
  body: string,
  url: string,
  timeoutMs: number,
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      req.destroy();
      reject(
        new AttemptError({
          retryable: true,
          code: "connection",
          message: `request to ${url} timed out`,
          reason: "request timed out",
        }),
      );
    }, timeoutMs);
    // A pooled socket is already connected: only a new one gets the listener.
    req.on("socket", (socket) => {
      if (socket.connecting) socket.once("connect", () => mark("socket connected"));
    });
    req.on("response", (res) => {
      clearTimeout(timer);
      resolve(res);
    });
    // Anything before the response (refused, reset, DNS, TLS) is a failure to reach the server.
    req.on("error", (err) => {
      clearTimeout(timer);
      // Connecting to every address of a name fails as one AggregateError without a message of its own.
      const each = (err as Partial<AggregateError>).errors?.map((e: Error) => e.message).join("; ");
      reject(new AttemptError(unreachable(url, err.message || each || "connection failed")));
    });
    req.end(body, () => {
      mark("request headers sent");
      firstRequestSent();
    });
  });
}

/**
 * The body's chunks, their text appended to `record.body` as they come (the
 * trace keeps what arrived before a failure). A read that waits `idleMs`
 * fails the body; a connection closed before the body's end is a reset.
 */
async function* bodyChunks(res: IncomingMessage, record: { body: string }, idleMs: number): AsyncGenerator<Uint8Array> {
  const decoder = new TextDecoder();
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => res.destroy(new StreamStalledError(idleMs)), idleMs);
  };
  arm();
  try {
    for await (const chunk of res as AsyncIterable<Buffer>) {
      arm();
      record.body += decoder.decode(chunk, { stream: true });
      yield chunk;
    }
    if (!res.complete) throw connectionClosed();
  } catch (err) {
    throw (err as { code?: string }).code === "ECONNRESET" ? connectionClosed() : err;
  } finally {
    clearTimeout(timer);
    record.body += decoder.decode();
  }
}

function connectionClosed(): Error {
  return Object.assign(new Error("other side closed"), { code: "ECONNRESET" });
}

/** A non-2xx answer, shaped as the SDK's status errors were: status, headers, parsed body, message. */
class HttpStatusError extends Error {
  readonly status: number;
  readonly headers: { get(name: string): string | null };
  readonly error: unknown;

  constructor(status: number, res: IncomingMessage, text: string) {
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    const inner = (parsed as { message?: unknown } | undefined)?.message;
    const detail = typeof inner === "string" ? inner : parsed !== undefined ? JSON.stringify(parsed) : text;
    super(detail ? `${status} ${detail}` : `${status} status code (no body)`);
    this.name = "HttpStatusError";
    this.status = status;
    this.error = parsed;
    this.headers = {
      get(name) {
        const value = res.headers[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
      },
    };
  }
}
