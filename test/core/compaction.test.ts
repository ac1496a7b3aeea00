// Compaction: where it may cut, what a request carries after it, and end to
// end — the real loop against the local SSE server through the Anthropic
// adapter — that a nearly full context is summarised before the next
// request, that /compact works idle and mid-run, and that /model moves later
// requests to another model. Assertions are on the bodies the server got.

import { afterEach, describe, expect, it } from "vitest";
import { compactionCut, nearlyFull, requestHistory, SUMMARY_PREFIX } from "../../core/compaction.js";
import { defaultConfig, type Config } from "../../core/config/schema.js";
import { createEmitter, type CoreEvent } from "../../core/events.js";
import type { HistoryItem } from "../../core/history.js";
import { replayEvents } from "../../core/reducer.js";
import { createOperator } from "../../core/controller/operator.js";
import { createSessionController } from "../../core/session-controller.js";
import { createSessionRecord } from "../../core/session-record.js";
import { newSessionState } from "../../core/session-state.js";
import { nodeServices } from "../../core/services.js";
import { baseToolset, runScenario, tempDemoRepo } from "../support/loop-harness.js";
import { anthropicAt, closeAnthropicServers } from "../support/anthropic-server.js";
import { createSessionMemory } from "../../core/session-memory.js";

const call = (id: string, name = "read") => ({ id, name, args: JSON.stringify({ path: "README.md" }) });
const turn = (n: number): HistoryItem[] => [
  { role: "assistant", text: `step ${n}`, toolCalls: [call(`c${n}`)] },
  { role: "tool", callId: `c${n}`, name: "read", text: `result ${n}`, isError: false },
];

describe("compaction cut and request view", () => {
  const history: HistoryItem[] = [{ role: "user", text: "task" }, ...turn(1), ...turn(2), ...turn(3), ...turn(4)];

  it("keeps the last turns whole and never parts a call from its result", () => {
    expect(compactionCut(history, 2)).toBe(5); // before "step 3"
    expect(history[5]).toMatchObject({ role: "assistant", text: "step 3" });
    expect(compactionCut(history, 4)).toBeUndefined(); // all turns are recent
  });

  it("sends the summary as a user message in place of what it covers", () => {
    const compacted: HistoryItem[] = [...history.slice(0, 5), { role: "summary", text: "S" }, ...history.slice(5)];
    const view = requestHistory(compacted);
    expect(view[0]).toEqual({ role: "user", text: `${SUMMARY_PREFIX}\n\nS` });
    expect(view.slice(1)).toEqual(history.slice(5));
    // The durable history still has every item.
    expect(compacted).toHaveLength(history.length + 1);
  });

  it("joins the summary with a user message that follows it", () => {
    const view = requestHistory([{ role: "user", text: "old" }, { role: "summary", text: "S" }, { role: "user", text: "new" }]);
    expect(view).toEqual([{ role: "user", text: `${SUMMARY_PREFIX}\n\nS\n\nnew` }]);
  });
});

describe("when the context counts as nearly full", () => {
  it("[model].max_tokens_fraction keeps that share free for the reply, in place of context_fill_ratio", () => {
    const config = defaultConfig();
    // Default: 0.95 - 0.05 of the window.
    expect(nearlyFull(8_900, 10_000, config)).toBe(false);
    expect(nearlyFull(9_000, 10_000, config)).toBe(true);
    config.model.max_tokens_fraction = 0.25;
    // 1 - 0.25 - 0.05 = 0.70, the compaction point of the reference default.
    expect(nearlyFull(6_900, 10_000, config)).toBe(false);
    expect(nearlyFull(7_000, 10_000, config)).toBe(true);
  });
});

describe("compaction over the wire", () => {
  afterEach(closeAnthropicServers);

  const readTurn = (n: number) => ({ text: `Reading, step ${n}.`, tool_calls: [{ name: "read", arguments: { path: "README.md" } }] });
  const texts = (body: any) => JSON.stringify(body.messages);

  it("summarises older turns before a request that would nearly fill the window", async () => {
    // Usage as the provider reports it: the third request used 4,800 of 5,000 tokens.
    const turns = [
      { ...readTurn(1), usage: { input: 1000, output: 50, cached: 0 } },
      { ...readTurn(2), usage: { input: 2000, output: 50, cached: 0 } },
      { ...readTurn(3), usage: { input: 4800, output: 50, cached: 0 } },
      { text: "SUMMARY: read README three times." },
      { text: "All done." },
    ];
    const { scenario, provider, bodies } = await anthropicAt(turns);
    const config: Config = defaultConfig();
    config.model.context_window = 5000;
    config.context.digest_keep_recent_turns = 1;
    const run = await runScenario(scenario, { config, provider });
    const sent = bodies();
    const compactAt = sent.findIndex((b) => texts(b).includes("being compacted"));
    // Not before: the first three requests were below 90% of the window.
    expect(compactAt).toBe(3);
    // The summary request carries no tools and ends with the instruction.
    expect(sent[compactAt].tools ?? []).toEqual([]);
    const after = sent[compactAt + 1];
    expect(after.messages[0].content).toContain(SUMMARY_PREFIX);
    expect(after.messages[0].content).toContain("SUMMARY: read README three times.");
    expect(texts(after)).not.toContain("Reading, step 1.");
    const event = run.events.find((e) => e.type === "context_compacted");
    expect(event).toMatchObject({ reason: "auto", tokensBefore: 4850 });
    // The durable history kept the summarised turns.
    expect(run.history.some((h) => h.role === "assistant" && h.text === "Reading, step 1.")).toBe(true);
    expect(run.history.some((h) => h.role === "summary")).toBe(true);
    // The view shows that it happened.
    expect(replayEvents(run.events).cards.some((c) => c.kind === "notice" && c.text.includes("compacted"))).toBe(true);
  });

  it("/compact while idle summarises at once; /model moves the next requests to the new model", async () => {
    const turns = [readTurn(1), readTurn(2), { text: "First answer." }, { text: "SUMMARY: two reads." }, { text: "Second answer." }];
    const { provider, bodies } = await anthropicAt(turns);
    const config: Config = defaultConfig();
    config.context.digest_keep_recent_turns = 1;
    const events: CoreEvent[] = [];
    const { emit, setTurn } = createEmitter("s", (e) => events.push(e));
    const cwd = tempDemoRepo();
    const usage = { inputTokens: 0, outputTokens: 0, cachedTokens: 0 };
    const state = newSessionState({ sessionId: "s", cwd, task: "", settings: { configFiles: [] } });
    const record = createSessionRecord(cwd, state, { usage, lastSeq: () => events.length });
    const controller = createSessionController({
      record,
      emit,
      operator: createOperator({ emit, attached: true }),
      runs: {
        loopDeps: {
          provider,
          model: "test-model",
          system: "sys",
          toolset: baseToolset(config),
          config,
          services: nodeServices(),
          emit,
          setTurn,
          cwd,
          sessionDir: cwd,
          memory: createSessionMemory(),
          usage,
        },
        toolsetFor: () => baseToolset(config),
      },
    });
    controller.submit({ type: "user_message", text: "first task" });
    await controller.idle();
    controller.submit({ type: "compact" });
    await controller.idle();
    expect(events.find((e) => e.type === "context_compacted")).toMatchObject({ reason: "manual" });
    controller.submit({ type: "switch_model", model: "other-model" });
    controller.submit({ type: "user_message", text: "second task" });
    await controller.idle();
    const sent = bodies();
    expect(sent).toHaveLength(5);
    expect(sent[3].model).toBe("test-model"); // the summary request
    const last = sent[4];
    expect(last.model).toBe("other-model");
    expect(last.messages[0].content).toContain("SUMMARY: two reads.");
    expect(texts(last)).not.toContain("Reading, step 1.");
    expect(texts(last)).toContain("second task");
    expect(replayEvents(events).model).toBe("other-model");
  });
});
