// Builds a real loop over real tools in a temporary copy of the demo repo,
// driven by a scripted model. Only the model is scripted: it is the one part
// that cannot run here.

import { cpSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultConfig, type Config } from "../../core/config/schema.js";
import { createEmitter, type CoreEvent } from "../../core/events.js";
import type { HistoryItem } from "../../core/history.js";
import { runLoop, type RunOutcome } from "../../core/loop.js";
import { activateTools, type ActiveToolset } from "../../core/profiles/activate.js";
import { checkProfile, loadProfile } from "../../core/profiles/load.js";
import { parseScenario } from "../../core/providers/scenario.js";
import { scriptedProvider } from "../../core/providers/scripted.js";
import type { Provider } from "../../core/providers/types.js";
import { nodeServices } from "../../core/services.js";
import { createJobManager } from "../../core/jobs/manager.js";
import type { ToolRegistry } from "../../core/tool-types.js";
import type { Guard } from "../../core/guards/types.js";
import { builtinHandlers } from "../../tools/registry.js";
import { createSessionMemory } from "../../core/session-memory.js";

export const repoRoot = join(import.meta.dirname, "..", "..");

export function tempDemoRepo(): string {
  const dir = mkdtempSync(join(tmpdir(), "yuj-test-repo-"));
  cpSync(join(repoRoot, "fixtures", "demo-repo"), dir, { recursive: true });
  return dir;
}

export function baseToolset(config: Config = defaultConfig(), registry: ToolRegistry = builtinHandlers()): ActiveToolset {
  const profile = loadProfile(join(repoRoot, "profiles"), "_base");
  checkProfile(profile, registry, "minimal");
  return activateTools(profile, registry, config, { topLevel: true });
}

/** The Chord surface as a model of the edit family gets it (write, edit, delete; no apply_patch). */
export function chordToolset(config: Config = defaultConfig(), registry: ToolRegistry = builtinHandlers()): ActiveToolset {
  const profile = loadProfile(join(repoRoot, "profiles"), "chord");
  checkProfile(profile, registry, "minimal");
  return activateTools(profile, registry, config, { topLevel: true, model: { provider: "anthropic", id: "claude-test" } });
}

export interface HarnessRun {
  outcome: RunOutcome;
  events: CoreEvent[];
  history: HistoryItem[];
  cwd: string;
}

export async function runScenario(
  scenario: unknown,
  opts: {
    cwd?: string;
    config?: Config;
    toolset?: ActiveToolset;
    provider?: Provider;
    signal?: AbortSignal;
    delayMs?: number;
    onEvent?: (e: CoreEvent) => void;
    /** Loop guards (stale file, plan mode, done guard) for this run. */
    guards?: Guard[];
    /** A headless session: ask_user pauses the run for an answer. */
    pauseForAnswer?: boolean;
    /** The session asks one question only, as a Yuj-surface session does. */
    oneQuestion?: boolean;
    /** Sees the history after each completed step (what the session saves). */
    onStep?: (history: readonly HistoryItem[]) => void;
  } = {},
): Promise<HarnessRun> {
  const cwd = opts.cwd ?? tempDemoRepo();
  const config = opts.config ?? defaultConfig();
  const events: CoreEvent[] = [];
  const { emit, setTurn } = createEmitter("test-session", (e) => {
    events.push(e);
    opts.onEvent?.(e);
  });
  const history: HistoryItem[] = [];
  const sessionDir = mkdtempSync(join(tmpdir(), "yuj-test-session-"));
  const jobs = createJobManager({ sessionDir, emit });
  const provider = opts.provider ?? scriptedProvider(parseScenario(scenario), { delayMs: opts.delayMs ?? 0 });
  const outcome = await runLoop(history, "the task", {
    session: { jobs, ...(opts.pauseForAnswer ? { pauseForAnswer: true } : {}) },
    ...(opts.onStep ? { onStep: opts.onStep } : {}),
    provider,
    model: "scripted",
    system: "test system prompt",
    toolset: opts.toolset ?? baseToolset(config),
    config,
    services: nodeServices(),
    emit,
    setTurn,
    cwd,
    sessionDir,
    memory: createSessionMemory(),
    signal: opts.signal ?? new AbortController().signal,
    usage: { inputTokens: 0, outputTokens: 0, cachedTokens: 0 },
    ...(opts.guards ? { guards: opts.guards } : {}),
    ...(opts.oneQuestion ? { oneQuestion: true } : {}),
  });
  await jobs.shutdown();
  return { outcome, events, history, cwd };
}

/** Every assistant tool call has exactly one result, right after its turn. */
export function assertValidHistory(history: HistoryItem[]): void {
  for (let i = 0; i < history.length; i++) {
    const item = history[i]!;
    if (item.role !== "assistant") continue;
    const results = new Set<string>();
    let j = i + 1;
    while (j < history.length && history[j]!.role === "tool") {
      results.add((history[j] as Extract<HistoryItem, { role: "tool" }>).callId);
      j++;
    }
    for (const call of item.toolCalls) {
      if (!results.has(call.id)) throw new Error(`call ${call.id} (${call.name}) has no result`);
    }
    if (results.size !== item.toolCalls.length) throw new Error(`turn at ${i} has extra results`);
  }
}
