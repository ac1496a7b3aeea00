// A real HTTP server on 127.0.0.1 that plays a scenario as the Anthropic,
// OpenAI Responses and OpenAI Chat APIs would stream it, so the adapters are
// tested through their SDKs, sockets and all. Faults (HTTP errors, cut
// streams, reset connections) are queued and used up one per request.

import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Scenario, ScenarioTurn } from "../../core/providers/scenario.js";
import {
  anthropicEvents,
  assistantTurns,
  chatEvents,
  errorBody,
  formatSse,
  missingToolResults,
  responsesEvents,
  streamErrorEvent,
  type SseEvent,
  type WireApi,
} from "./sse-wire.js";

export type Fault =
  /** Answer with this HTTP status and the API's error body (or `body` verbatim). */
  | { status: number; retryAfter?: string; retryAfterMs?: string; message?: string; body?: string }
  /** Stream this many events, then destroy the socket. */
  | { cutAfterEvents: number }
  /** Stream this many events, then an in-stream error event (overloaded by default), then end. */
  | { errorEventAfter: number; kind?: string; message?: string }
  /** Destroy the socket without answering. */
  | { reset: true }
  /** Take the request and never answer (until the client goes away). */
  | { hang: true }
  /** Stream this many events, then send nothing more (until the client goes away). */
  | { stallAfterEvents: number }
  /** Answer normally: a placeholder so that a later request gets the next fault. */
  | { none: true };

interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  /** The parsed JSON body, when there is one. */
  body: any;
  rawBody: string;
  /** Date.now() when the whole request body had arrived. */
  receivedAt: number;
}

export interface SseServerOptions {
  scenario: Scenario;
  faults?: Fault[];
  /** Pause between streamed events (to test aborts mid-stream). */
  eventDelayMs?: number;
  /** Ids GET /v1/models returns. */
  models?: string[];
  /**
   * Play turn N for the Nth model request instead of counting the assistant
   * turns in the body: needed when the request view shrinks (think, rewind).
   * A retried request then gets the next turn.
   */
  turnByRequest?: boolean;
  /** A fault for a request, chosen from its body (one agent's requests failing); undefined: the queue's next. */
  faultFor?: (body: any) => Fault | undefined;
  /** The turn for a request, chosen from its body (several agents sharing one server); undefined: the scenario's. */
  turnFor?: (api: WireApi, body: any) => ScenarioTurn | undefined;
  /** Events to stream for a turn in place of the scenario's (wire shapes a scenario cannot say, e.g. hosted tools); undefined: the scenario's. */
  wireTurn?: (api: WireApi, turnNo: number, model: string) => SseEvent[] | undefined;
}

export interface SseServer {
  url: string;
  /** What to pass as the SDK's base URL for a provider. */
  baseUrlFor(provider: "anthropic" | "openai" | "openai-chat"): string;
  requests: RecordedRequest[];
  /** The fault queue; push to it to fail later requests. */
  faults: Fault[];
  /** performance.now() at the end of each streamed response (for benchmarks). */
  responseEndTimes: number[];
  /** Responses hung or stalled by a fault so far (a test waits for one to act mid-response). */
  stalled(): number;
  /** The most model requests that were in flight at once (from the body's arrival to the response's end). */
  maxInFlight(): number;
  close(): Promise<void>;
}

const ROUTES: Record<string, WireApi> = {
  "/v1/messages": "anthropic",
  "/v1/responses": "responses",
  "/v1/chat/completions": "chat",
};

export async function startSseServer(options: SseServerOptions): Promise<SseServer> {
  const requests: RecordedRequest[] = [];
  const faults = [...(options.faults ?? [])];
  const responseEndTimes: number[] = [];
  let stalledNow = 0;
  let modelRequests = 0;
  let inFlight = 0;
  let maxInFlight = 0;

  const server = createServer((req, res) => {
    void handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, JSON.stringify({ error: { message: String(err) } }));
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const rawBody = await readBody(req);
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    let body: any;
    try {
      body = rawBody ? JSON.parse(rawBody) : undefined;
    } catch {
      body = undefined;
    }
    requests.push({ method: req.method ?? "", path, headers: req.headers, body, rawBody, receivedAt: Date.now() });
    const anthropic = req.headers["anthropic-version"] !== undefined || path === "/v1/messages";

    const fault = (body !== undefined ? options.faultFor?.(body) : undefined) ?? faults.shift();
    if (fault && "reset" in fault) {
      req.socket.destroy();
      return;
    }
    if (fault && "hang" in fault) {
      await untilClosed(res, () => stalledNow++);
      return;
    }
    if (fault && "status" in fault) {
      const headers: Record<string, string> = {};
      if (fault.retryAfter !== undefined) headers["retry-after"] = fault.retryAfter;
      if (fault.retryAfterMs !== undefined) headers["retry-after-ms"] = fault.retryAfterMs;
      sendJson(res, fault.status, fault.body ?? errorBody(anthropic, fault.status, fault.message), headers);
      return;
    }

    if (req.method === "GET" && path === "/v1/models") {
      sendJson(res, 200, modelsBody(anthropic, options.models ?? ["test-model-a", "test-model-b"]));
      return;
    }
    const api = req.method === "POST" ? ROUTES[path] : undefined;
    if (!api) {
      sendJson(res, 404, errorBody(anthropic, 404, `no route for ${req.method} ${path}`));
      return;
    }
    if (typeof body !== "object" || body === null) {
      sendJson(res, 400, errorBody(anthropic, 400, "the request body is not JSON"));
      return;
    }
    const problem = missingToolResults(api, body);
    if (problem) {
      sendJson(res, 400, errorBody(anthropic, 400, problem));
      return;
    }

    // Retries resend the same conversation, so they get the same turn.
    const turnNo = options.turnByRequest ? modelRequests++ : assistantTurns(api, body);
    const turn: ScenarioTurn = options.turnFor?.(api, body) ??
      options.scenario.turns[turnNo] ?? {
        text: options.scenario.fallback_text,
        tool_calls: [],
      };
    const model = String(body.model ?? "test-model");
    const events =
      options.wireTurn?.(api, turnNo, model) ??
      (api === "anthropic"
        ? anthropicEvents(turn, turnNo, model)
        : api === "responses"
          ? responsesEvents(turn, turnNo, model)
          : chatEvents(turn, turnNo, model));
    maxInFlight = Math.max(maxInFlight, ++inFlight);
    try {
      await stream(res, events, fault, api, options.eventDelayMs ?? 0, () => stalledNow++);
    } finally {
      inFlight--;
    }
    responseEndTimes.push(performance.now());
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    baseUrlFor: (provider) => (provider === "anthropic" ? url : `${url}/v1`),
    requests,
    faults,
    responseEndTimes,
    stalled: () => stalledNow,
    maxInFlight: () => maxInFlight,
    close: () =>
      new Promise<void>((resolve) => {
        // Keep-alive sockets would hold close() open; the tests are done with them.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function stream(
  res: ServerResponse,
  events: SseEvent[],
  fault: Fault | undefined,
  api: WireApi,
  delayMs: number,
  onStall: () => void,
): Promise<void> {
  res.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache",
    ...(api === "anthropic" ? { "request-id": "req_test" } : { "x-request-id": "req_test" }),
  });
  const cutAt = fault && "cutAfterEvents" in fault ? fault.cutAfterEvents : undefined;
  const errorAt = fault && "errorEventAfter" in fault ? fault.errorEventAfter : undefined;
  const stallAt = fault && "stallAfterEvents" in fault ? fault.stallAfterEvents : undefined;
  for (const [i, ev] of events.entries()) {
    if (res.destroyed) return; // the client went away (an abort)
    if (i === stallAt) {
      await untilClosed(res, onStall);
      return;
    }
    if (i === cutAt) {
      res.socket?.destroy();
      return;
    }
    if (i === errorAt && fault && "errorEventAfter" in fault) {
      await write(res, formatSse(streamErrorEvent(api, fault.kind, fault.message)));
      res.end();
      return;
    }
    if (delayMs > 0 && i > 0) await new Promise((r) => setTimeout(r, delayMs));
    await write(res, formatSse(ev));
  }
  res.end();
}

/** Counts the response as stalled until the client closes the connection. */
function untilClosed(res: ServerResponse, onStall: () => void): Promise<void> {
  onStall();
  return new Promise((resolve) => {
    if (res.socket?.destroyed ?? true) return resolve();
    res.socket!.once("close", () => resolve());
  });
}

/** Resolves once the bytes are handed to the socket, so a cut that follows cannot swallow them. */
function write(res: ServerResponse, text: string): Promise<void> {
  return new Promise((resolve) => {
    if (res.destroyed) return resolve();
    res.write(text, () => resolve());
  });
}

function sendJson(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(body);
}

function modelsBody(anthropic: boolean, ids: string[]): string {
  if (anthropic) {
    return JSON.stringify({
      data: ids.map((id) => ({ type: "model", id, display_name: id, created_at: "2025-01-01T00:00:00Z" })),
      has_more: false,
      first_id: ids[0] ?? null,
      last_id: ids[ids.length - 1] ?? null,
    });
  }
  return JSON.stringify({
    object: "list",
    data: ids.map((id) => ({ id, object: "model", created: 1_700_000_000, owned_by: "test" })),
  });
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}
