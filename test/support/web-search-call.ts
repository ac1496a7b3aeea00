// One Chord web_search call through the real dispatcher and the chord
// profile, its provider requests going to a local SSE server: shared by the
// web_search tests so each states only its server's answers and its checks.

import { join } from "node:path";
import { defaultConfig } from "../../core/config/schema.js";
import { prepareCall, runPrepared } from "../../core/dispatch.js";
import { activateTools } from "../../core/profiles/activate.js";
import { checkProfile, loadProfile } from "../../core/profiles/load.js";
import { createProvider, type ProviderName } from "../../core/providers/index.js";
import { builtinHandlers } from "../../tools/registry.js";
import { repoRoot } from "./loop-harness.js";
import type { SseServer } from "./sse-server.js";
import type { TestToolContext } from "./tool-context.js";

export interface WebSearchCall {
  t: TestToolContext;
  server: SseServer;
  provider: ProviderName;
  args: unknown;
  signal?: AbortSignal;
  maxRetries?: number;
  /** The session's token counts before the call; the call adds its own. */
  usage?: { inputTokens: number; outputTokens: number; cachedTokens: number };
}

export async function chordWebSearch(c: WebSearchCall) {
  const config = defaultConfig();
  config.compat.hosted_tools = ["web_search"];
  const registry = builtinHandlers();
  const profile = loadProfile(join(repoRoot, "profiles"), "chord");
  checkProfile(profile, registry, "minimal");
  const toolset = activateTools(profile, registry, config, { topLevel: true, model: { provider: c.provider, id: "m" } });
  const client = await createProvider({
    name: c.provider,
    model: "m",
    apiKey: "sk-test",
    baseURL: c.server.baseUrlFor(c.provider),
    maxRetries: c.maxRetries ?? 0,
    backoffBaseMs: 1,
    requestTimeoutMs: 10_000,
  });
  const usage = c.usage ?? { inputTokens: 0, outputTokens: 0, cachedTokens: 0 };
  const prepared = prepareCall({ id: "c1", name: "web_search", args: JSON.stringify(c.args) }, toolset, config);
  const outcome = await runPrepared(prepared, {
    toolset,
    config,
    services: c.t.ctx.services,
    emit: c.t.ctx.emit,
    cwd: c.t.cwd,
    sessionDir: c.t.ctx.sessionDir,
    signal: c.signal ?? new AbortController().signal,
    memory: c.t.ctx.memory,
    session: { model: { provider: client, id: "m", usage } },
  });
  const posts = c.server.requests.filter((r) => r.method === "POST");
  return { ok: outcome.ok, text: outcome.modelText, posts, usage };
}
