// A real Anthropic provider pointed at a local SSE server that plays a
// scenario, one turn per request, for tests of the loop over the wire. Each
// call starts a server; `closeAnthropicServers` (in an afterEach) stops them.

import { createProvider } from "../../core/providers/index.js";
import { parseScenario } from "../../core/providers/scenario.js";
import { startSseServer, type SseServer } from "./sse-server.js";

const running: SseServer[] = [];

export async function anthropicAt(turns: unknown[]) {
  const scenario = parseScenario({ turns });
  const server = await startSseServer({ scenario, turnByRequest: true });
  running.push(server);
  const provider = await createProvider({
    name: "anthropic",
    model: "test-model",
    apiKey: "sk-test",
    baseURL: server.baseUrlFor("anthropic"),
    maxRetries: 0,
    requestTimeoutMs: 10_000,
  });
  // The request bodies the provider sent, in order.
  const bodies = () => server.requests.filter((r) => r.method === "POST").map((r) => r.body as any);
  return { scenario, provider, bodies };
}

export async function closeAnthropicServers(): Promise<void> {
  await Promise.all(running.splice(0).map((s) => s.close()));
}
