// A fetch wrapper handed to the SDKs so every HTTP attempt leaves behind the
// exact request body and the exact response text (the SSE stream as it came
// off the wire). The trace wants these raw bodies; the SDKs only expose parsed
// objects. Headers are deliberately never looked at or stored: they carry the
// API key.
//
// It also guards against a stalled stream. The SDKs' own timeout stops at the
// response headers, so a server that goes silent mid-body would hang the turn
// forever; here a body that sends nothing for `idleTimeoutMs` is failed, which
// the retry layer treats like a dropped connection.

import { mark } from "../startup-timing.js";

/** One HTTP attempt as seen on the wire (bodies only, never headers). */
export interface Exchange {
  /** Set when the SDK hands the request to fetch. */
  request?: { url: string; body: string };
  /** Set when response headers arrive; `body` grows as the stream is read. */
  response?: { status: number; body: string };
}

export interface CaptureFetch {
  fetch: typeof globalThis.fetch;
  exchange: Exchange;
}

/** The error a stalled body fails with (the retry layer recognises the name). */
export class StreamStalledError extends Error {
  constructor(idleMs: number) {
    const wait = idleMs >= 1000 ? `${Math.round(idleMs / 1000)} s` : `${idleMs} ms`;
    super(`the stream stalled: no data for ${wait}`);
    this.name = "StreamStalledError";
  }
}

/**
 * Makes a fetch for a single attempt. Use a fresh one per attempt so that
 * concurrent streams (sub-agents sharing a provider) never mix their bodies.
 */
export function createCaptureFetch(
  options: { idleTimeoutMs?: number; baseFetch?: typeof globalThis.fetch } = {},
): CaptureFetch {
  const exchange: Exchange = {};
  const baseFetch = options.baseFetch ?? globalThis.fetch;

  const fetch: typeof globalThis.fetch = async (input, init) => {
    exchange.request = { url: urlOf(input), body: bodyText(init?.body) };
    mark("fetch called");
    const response = await baseFetch(input, init);
    const record = { status: response.status, body: "" };
    exchange.response = record;
    if (!response.body) return response;
    const teed = recordingBody(response.body, record, options.idleTimeoutMs);
    // A new Response over the teed body; status and headers pass through
    // untouched so the SDK still sees Retry-After, request ids and the like.
    return new Response(teed, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };

  return { fetch, exchange };
}

function urlOf(input: string | URL | Request): string {
  if (typeof input === "string") return input;
  if (input instanceof URL) return input.href;
  return input.url;
}

function bodyText(body: unknown): string {
  if (body === undefined || body === null) return "";
  if (typeof body === "string") return body;
  if (body instanceof Uint8Array) return new TextDecoder().decode(body);
  if (body instanceof ArrayBuffer) return new TextDecoder().decode(new Uint8Array(body));
  if (body instanceof URLSearchParams) return body.toString();
  // Streams and form data cannot be read without consuming them; the SDKs
  // send JSON strings for everything this program calls.
  return "[non-text request body]";
}

/**
 * Passes the bytes of `source` through unchanged while appending their text to
 * `record.body`. Each read from the server is timed: one that brings nothing
 * for `idleTimeoutMs` cancels the source and fails the body.
 */
function recordingBody(
  source: ReadableStream<Uint8Array>,
  record: { body: string },
  idleTimeoutMs: number | undefined,
): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  const decoder = new TextDecoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let stalled = false;
      const timer = idleTimeoutMs
        ? setTimeout(() => {
            stalled = true;
            reader.cancel().catch(() => {});
          }, idleTimeoutMs)
        : undefined;
      try {
        const { done, value } = await reader.read();
        if (stalled) throw new StreamStalledError(idleTimeoutMs ?? 0);
        if (done) {
          record.body += decoder.decode();
          controller.close();
          return;
        }
        record.body += decoder.decode(value, { stream: true });
        controller.enqueue(value);
      } catch (err) {
        // Keep whatever arrived before the failure: the trace shows it.
        record.body += decoder.decode();
        controller.error(stalled ? new StreamStalledError(idleTimeoutMs ?? 0) : err);
      } finally {
        clearTimeout(timer);
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}
