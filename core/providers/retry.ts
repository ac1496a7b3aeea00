// The retry loop every adapter runs its HTTP attempts through. Retries are ours
// alone (the SDKs get `maxRetries: 0`) because a stream can fail after it has
// started delivering text, which the SDKs do not retry, and because the user
// should see each retry as an event rather than a silent pause.

import { createCaptureFetch, type Exchange } from "./capture-fetch.js";
import { classifyFailure, type Failure } from "./failure.js";
import { ProviderError, type ProviderEvent } from "./types.js";

export interface RetryOptions {
  /** Provider name, used in error messages. */
  provider: string;
  /** Retries after the first attempt (so `maxRetries + 1` attempts at most). */
  maxRetries: number;
  /** First backoff delay; doubles each retry. */
  backoffBaseMs?: number;
  /** Fails a response body that sends nothing for this long. */
  idleTimeoutMs?: number;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Jitter source; injectable so tests can pin delays. */
  random?: () => number;
}

/**
 * One HTTP attempt. It gets a fetch that records the exchange, yields the
 * neutral events as they arrive and returns the stop reason; it throws when
 * the attempt fails (the loop decides whether to try again).
 */
export type AttemptFn = (
  fetch: typeof globalThis.fetch,
  signal: AbortSignal,
  /** The record `fetch` keeps; a client of its own (not fetch) fills it in itself. */
  exchange: Exchange,
) => AsyncGenerator<ProviderEvent, string>;

const DEFAULT_BASE_MS = 1000;
const MAX_BACKOFF_MS = 30_000;
/** A server may ask for a long pause; past this we stop waiting on its word. */
const MAX_RETRY_AFTER_MS = 5 * 60_000;

/**
 * Runs attempts until one completes, yielding its events plus the raw bodies
 * and a `retry` event before each new try. Throws ProviderError on final
 * failure and the abort reason when `signal` aborts.
 */
export async function* runWithRetries(
  options: RetryOptions,
  signal: AbortSignal,
  attempt: AttemptFn,
): AsyncGenerator<ProviderEvent, void> {
  const sleep = options.sleep ?? abortableSleep;
  for (let attemptNo = 1; ; attemptNo++) {
    if (signal.aborted) throw abortError(signal);
    const capture = createCaptureFetch({ idleTimeoutMs: options.idleTimeoutMs });
    // The SDKs add an abort listener to the signal of each request and never
    // take it off: each attempt gets a signal of its own, tied to the run's
    // by one listener that is removed when the attempt ends.
    const tied = tiedSignal(signal);
    const run = attempt(capture.fetch, tied.signal, capture.exchange);
    let requestShown = false;
    let yieldedOutput = false;
    let finished = false;
    let failure: Failure;
    try {
      for (;;) {
        const step = await run.next();
        // The request event goes out as soon as the SDK has sent it and
        // before anything the response produced.
        if (!requestShown && capture.exchange.request) {
          requestShown = true;
          yield rawRequest(capture.exchange);
        }
        if (step.done) {
          finished = true;
          if (capture.exchange.response) yield rawResponse(capture.exchange);
          yield { type: "finish", stopReason: step.value };
          return;
        }
        yieldedOutput = true;
        yield step.value;
      }
    } catch (err) {
      finished = true;
      if (signal.aborted) throw abortError(signal);
      failure = classifyFailure(err, capture.exchange);
    } finally {
      // Stopped early by our consumer: close the SDK stream (and its socket).
      if (!finished) await run.return("").catch(() => {});
      tied.release();
    }

    if (!requestShown && capture.exchange.request) yield rawRequest(capture.exchange);
    if (capture.exchange.response) yield rawResponse(capture.exchange);
    if (!failure.retryable || attemptNo > options.maxRetries) {
      throw finalError(options.provider, failure, attemptNo);
    }
    const delayMs = failure.retryAfterMs !== undefined
      ? Math.min(failure.retryAfterMs, MAX_RETRY_AFTER_MS)
      : backoffDelayMs(attemptNo, options.backoffBaseMs ?? DEFAULT_BASE_MS, options.random);
    yield {
      type: "retry",
      attempt: attemptNo,
      delayMs,
      reason: failure.reason,
      ...(failure.status !== undefined ? { status: failure.status } : {}),
      discardedPartial: yieldedOutput,
    };
    try {
      await sleep(delayMs, signal);
    } catch (err) {
      if (signal.aborted) throw abortError(signal);
      throw err;
    }
  }
}

/**
 * Exponential backoff: base, 2×base, 4×base… capped at 30 s, each shortened by
 * up to a quarter at random so many clients hit by the same outage do not
 * come back in lockstep.
 */
export function backoffDelayMs(
  retryNo: number,
  baseMs: number,
  random: () => number = Math.random,
): number {
  const raw = Math.min(baseMs * 2 ** (retryNo - 1), MAX_BACKOFF_MS);
  return Math.round(raw * (1 - 0.25 * random()));
}

/** The error a final failure is reported with; says how many attempts were made. */
export function finalError(provider: string, failure: Failure, attempts: number): ProviderError {
  const suffix = attempts > 1 ? ` (after ${attempts} attempts)` : "";
  return new ProviderError(provider, failure.status, failure.message + suffix, failure.code);
}

/** What an aborted stream throws: the signal's own reason, else an AbortError. */
export function abortError(signal: AbortSignal): unknown {
  if (signal.reason !== undefined) return signal.reason;
  const err = new Error("The operation was aborted.");
  err.name = "AbortError";
  return err;
}

/** A signal that aborts with `parent`, until released. */
function tiedSignal(parent: AbortSignal): { signal: AbortSignal; release(): void } {
  const own = new AbortController();
  const forward = () => own.abort(parent.reason);
  if (parent.aborted) forward();
  else parent.addEventListener("abort", forward, { once: true });
  return { signal: own.signal, release: () => parent.removeEventListener("abort", forward) };
}

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(abortError(signal));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

function rawRequest(exchange: Exchange): ProviderEvent {
  const request = exchange.request ?? { url: "", body: "" };
  return { type: "raw_request", url: request.url, body: request.body };
}

function rawResponse(exchange: Exchange): ProviderEvent {
  const response = exchange.response ?? { status: 0, body: "" };
  return { type: "raw_response", status: response.status, body: response.body };
}
