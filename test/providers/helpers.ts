// Shared by the provider tests: run a stream to the end and read it back the
// way the agent loop does (dropping a failed attempt's output on retry).

import type { ModelRequest } from "../../core/history.js";
import { createProvider, type ProviderName, type ProviderOptions } from "../../core/providers/index.js";
import { parseScenario } from "../../core/providers/scenario.js";
import type { Provider, ProviderEvent } from "../../core/providers/types.js";
import { startSseServer, type Fault, type SseServer } from "../support/sse-server.js";

export const API_KEY = "sk-test-SECRET-0123456789abcdef";

const READ_FILE_TOOL = {
  name: "read_file",
  description: "Read a file",
  parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
};

export function request(history: ModelRequest["history"] = [{ role: "user", text: "hello" }]): ModelRequest {
  return { model: "test-model", system: "You are a test.", history, tools: [READ_FILE_TOOL], maxOutputTokens: 1024 };
}

export interface Outcome {
  events: ProviderEvent[];
  error?: unknown;
  text: string;
  calls: { id: string; name: string; args: string; ended: boolean }[];
  retries: Extract<ProviderEvent, { type: "retry" }>[];
  usage: Extract<ProviderEvent, { type: "usage" }>["usage"][];
  stopReason?: string;
  ms: number;
}

export async function run(provider: Provider, req: ModelRequest, signal = new AbortController().signal): Promise<Outcome> {
  const events: ProviderEvent[] = [];
  const started = Date.now();
  let error: unknown;
  try {
    for await (const ev of provider.stream(req, signal)) events.push(ev);
  } catch (err) {
    error = err;
  }
  return { ...replay(events), events, error, ms: Date.now() - started };
}

function replay(events: ProviderEvent[]) {
  let text = "";
  let calls: Outcome["calls"] = [];
  const retries: Outcome["retries"] = [];
  const usage: Outcome["usage"] = [];
  let stopReason: string | undefined;
  for (const ev of events) {
    if (ev.type === "text_delta") text += ev.text;
    else if (ev.type === "tool_call_start") calls.push({ id: ev.id, name: ev.name, args: "", ended: false });
    else if (ev.type === "tool_call_delta") calls.find((c) => c.id === ev.id)!.args += ev.delta;
    else if (ev.type === "tool_call_end") calls.find((c) => c.id === ev.id)!.ended = true;
    else if (ev.type === "usage") usage.push(ev.usage);
    else if (ev.type === "finish") stopReason = ev.stopReason;
    else if (ev.type === "retry") {
      retries.push(ev);
      if (ev.discardedPartial) {
        text = "";
        calls = [];
      }
    }
  }
  return { text, calls, retries, usage, ...(stopReason === undefined ? {} : { stopReason }) };
}

/** Starts servers and closes them after each test. */
export function serverPool() {
  const open: SseServer[] = [];
  return {
    /** `scenario` is scenario JSON (defaults are filled in). */
    async start(scenario: unknown, options: { faults?: Fault[]; eventDelayMs?: number } = {}) {
      const server = await startSseServer({ scenario: parseScenario(scenario), ...options });
      open.push(server);
      return server;
    },
    async closeAll() {
      await Promise.all(open.splice(0).map((s) => s.close()));
    },
  };
}

export function providerFor(name: ProviderName, server: SseServer, extra: Partial<ProviderOptions> = {}) {
  return createProvider({
    name,
    model: "test-model",
    apiKey: API_KEY,
    baseURL: server.baseUrlFor(name),
    maxRetries: 2,
    requestTimeoutMs: 5000,
    backoffBaseMs: 2,
    ...extra,
  });
}
