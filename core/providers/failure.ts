// Turns whatever an attempt threw into a decision: retry or not, and what to
// tell the user. It reads the SDKs' errors by shape (status, headers, error
// body) rather than by class, so it needs no SDK import (they load lazily) and
// treats both SDKs, which share a generator, alike.

import type { Exchange } from "./capture-fetch.js";
import type { ProviderError } from "./types.js";

export interface Failure {
  retryable: boolean;
  code: ProviderError["code"];
  /** HTTP status, when the server answered with one. */
  status?: number;
  /** The server's own words (or a plain account of what went wrong). */
  message: string;
  /** Short reason for the `retry` event. */
  reason: string;
  /** The wait the server asked for (Retry-After / retry-after-ms). */
  retryAfterMs?: number;
}

/**
 * A failure an adapter detects itself: an error event inside the stream, a
 * stream that ends before its terminal event.
 */
export class AttemptError extends Error {
  constructor(readonly failure: Failure) {
    super(failure.message);
    this.name = "AttemptError";
  }
}

/** A stream that ended without its terminal event; worth another try. */
export function incompleteStream(terminal: string): AttemptError {
  return new AttemptError({
    retryable: true,
    code: "stream",
    message: `the response stream ended before ${terminal}`,
    reason: "stream ended early",
  });
}

/** Error types/codes servers use for transient trouble inside a stream. */
const TRANSIENT = /overload|api_error|server_error|internal|rate_limit|timeout|unavailable|capacity/i;

/** An error reported inside a stream body (status 200 already sent). */
export function streamErrorFailure(kind: string | undefined, message: string | undefined): Failure {
  const text = message || kind || "the server reported an error in the stream";
  const retryable = kind !== undefined && TRANSIENT.test(kind);
  return { retryable, code: "stream", message: text, reason: kind ? `${kind}: ${text}` : text };
}

/** What is read of response headers (a fetch Headers, or yuj's own client's lookup). */
interface HeaderLookup {
  get(name: string): string | null;
}

interface ErrorShape {
  status?: unknown;
  headers?: unknown;
  error?: unknown;
  type?: unknown;
  message?: unknown;
  cause?: unknown;
  code?: unknown;
  name?: unknown;
}

/** An `error` event's body (Anthropic's `{type:"error", error:{type, message}}`, or raw text). */
export function streamErrorBodyFailure(body: unknown): Failure {
  const { type, message } = serverErrorBody(body);
  return streamErrorFailure(type, message);
}

/** No answer from the server: the connection or TLS failed (`detail` says how); worth another try. */
export function unreachable(url: string | undefined, detail: string): Failure {
  return { retryable: true, code: "connection", message: `cannot reach ${url ?? "the server"}: ${detail}`, reason: detail };
}

/** Decides about `err`, thrown by an attempt whose wire traffic is `exchange`. */
export function classifyFailure(err: unknown, exchange: Exchange): Failure {
  if (err instanceof AttemptError) return err.failure;
  const url = exchange.request?.url;
  const shape = (typeof err === "object" && err !== null ? err : {}) as ErrorShape;
  if (typeof shape.status === "number") return httpFailure(shape, shape.status);
  const kind = constructorName(err);

  // An SDK error built from an in-stream error event: no status, but a body.
  if (kind.endsWith("APIError") && shape.error !== undefined) {
    const body = serverErrorBody(shape.error);
    return streamErrorFailure(body.type ?? stringOr(shape.type), body.message);
  }
  if (kind === "APIConnectionTimeoutError") {
    return {
      retryable: true,
      code: "connection",
      message: `request to ${url ?? "the server"} timed out`,
      reason: "request timed out",
    };
  }
  if (kind === "StreamStalledError") {
    const message = String(shape.message);
    return { retryable: true, code: "stream", message, reason: message };
  }
  if (kind === "APIConnectionError" || isNetworkError(err)) {
    const detail = describeCause(err);
    if (exchange.response) {
      // The server answered and the body then broke off.
      return {
        retryable: true,
        code: "stream",
        message: `the stream broke off: ${detail}`,
        reason: `stream broke off: ${detail}`,
      };
    }
    return unreachable(url, detail);
  }
  if (err instanceof SyntaxError) {
    // A garbled event: the bytes were damaged or cut; a new attempt may fare better.
    const message = `malformed stream data: ${err.message}`;
    return { retryable: true, code: "stream", message, reason: "malformed stream data" };
  }
  // Anything else is not worth retrying: the SDK refusing to build the
  // request (no credentials, a bad option) or a bug here that a retry would hide.
  const message = err instanceof Error ? err.message : String(err);
  const code = exchange.request ? "stream" : /auth|credential|api.?key/i.test(message) ? "auth" : "config";
  return { retryable: false, code, message, reason: message };
}

function httpFailure(shape: ErrorShape, status: number): Failure {
  const body = serverErrorBody(shape.error);
  const message = body.message ?? stripStatus(stringOr(shape.message), status) ?? "no error message";
  // Read by shape: `instanceof Headers` would load fetch's implementation for nothing.
  const headers = typeof (shape.headers as HeaderLookup | undefined)?.get === "function" ? (shape.headers as HeaderLookup) : undefined;
  if (status === 401 || status === 403) {
    return {
      retryable: false,
      code: "auth",
      status,
      message: `${message} (check the API key: is it set, valid and allowed to use this model?)`,
      reason: message,
    };
  }
  // The APIs say outright whether a retry can help; believe them when they do.
  const hint = headers?.get("x-should-retry");
  const retryable =
    hint === "true" ? true : hint === "false" ? false : status === 408 || status === 429 || status >= 500;
  const retryAfterMs = headers ? parseRetryAfter(headers) : undefined;
  return {
    retryable,
    code: "http",
    status,
    message,
    reason: `HTTP ${status}: ${message}`,
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
  };
}

/** The wait a response asks for: `retry-after-ms`, else `Retry-After` (seconds or an HTTP date). */
export function parseRetryAfter(headers: HeaderLookup, now: number = Date.now()): number | undefined {
  const ms = Number.parseFloat(headers.get("retry-after-ms") ?? "");
  if (Number.isFinite(ms) && ms >= 0) return Math.round(ms);
  const value = headers.get("retry-after")?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number.parseFloat(value) * 1000);
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/**
 * The message and type inside an API error body, whichever API shaped it:
 * Anthropic `{type:"error", error:{type, message}}`, OpenAI `{message, type, code}`
 * (the SDK hands over the inner object) or `{error:{message,…}}`.
 */
function serverErrorBody(body: unknown): { message?: string; type?: string } {
  if (typeof body !== "object" || body === null) {
    return typeof body === "string" && body ? { message: body } : {};
  }
  const outer = body as { error?: unknown; message?: unknown; type?: unknown; code?: unknown };
  if (typeof outer.error === "object" && outer.error !== null) return serverErrorBody(outer.error);
  const message = stringOr(outer.message);
  const type = stringOr(outer.code) ?? stringOr(outer.type);
  return { ...(message ? { message } : {}), ...(type ? { type } : {}) };
}

const NETWORK_CODES =
  /^(ECONNRESET|ECONNREFUSED|ECONNABORTED|EPIPE|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|UND_ERR_\w+)$/;

/** undici reports a dropped body as `TypeError: terminated`, a failed connect as `fetch failed`. */
function isNetworkError(err: unknown): boolean {
  for (const e of causeChain(err)) {
    const shape = e as ErrorShape;
    if (typeof shape.code === "string" && NETWORK_CODES.test(shape.code)) return true;
    if (e instanceof TypeError && (e.message === "terminated" || e.message === "fetch failed")) return true;
  }
  return false;
}

/** The innermost useful description, e.g. "connect ECONNREFUSED 127.0.0.1:9". */
function describeCause(err: unknown): string {
  const chain = causeChain(err);
  for (let i = chain.length - 1; i >= 0; i--) {
    const message = stringOr((chain[i] as ErrorShape).message);
    if (message && message !== "fetch failed" && message !== "Connection error.") return message;
  }
  return "connection failed";
}

function causeChain(err: unknown): unknown[] {
  const chain: unknown[] = [];
  let current = err;
  while (typeof current === "object" && current !== null && chain.length < 8) {
    chain.push(current);
    current = (current as ErrorShape).cause;
  }
  return chain;
}

function constructorName(err: unknown): string {
  if (typeof err !== "object" || err === null) return "";
  const name = (err as ErrorShape).name;
  const ctor = (err as { constructor?: { name?: string } }).constructor?.name ?? "";
  // Anthropic's SDK names its errors; OpenAI's leave `name` as "Error".
  return typeof name === "string" && name !== "Error" ? name : ctor;
}

function stripStatus(message: string | undefined, status: number): string | undefined {
  if (!message) return undefined;
  return message.startsWith(`${status} `) ? message.slice(String(status).length + 1) : message;
}

function stringOr(value: unknown): string | undefined {
  return typeof value === "string" && value ? value : undefined;
}
