// think_keep_turns and checkpoint/rewind change what the next request carries,
// never the durable history. Checked on the pure shaping function, then end to
// end: the real loop and tools against the local SSE server through the real
// Anthropic adapter, asserting on the request bodies the server received.

import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { defaultConfig } from "../../core/config/schema.js";
import { shapeHistory, type ConversationRoles } from "../../core/context/shape.js";
import type { HistoryItem } from "../../core/history.js";
import { createProvider } from "../../core/providers/index.js";
import { parseScenario } from "../../core/providers/scenario.js";
import { THINK_RESULT } from "../../tools/yuj/think.js";
import { activateTools } from "../../core/profiles/activate.js";
import { loadProfile } from "../../core/profiles/load.js";
import { builtinHandlers } from "../../tools/registry.js";
import { assertValidHistory, repoRoot, runScenario } from "../support/loop-harness.js";
import { startSseServer, type SseServer } from "../support/sse-server.js";

const call = (id: string, name: string, args: object = {}) => ({ id, name, args: JSON.stringify(args) });
const result = (callId: string, name: string, text = "ok", isError = false): HistoryItem => ({ role: "tool", callId, name, text, isError });
const roles: ConversationRoles = { think: new Set(["think"]), checkpoint: new Set(["checkpoint"]), rewind: new Set(["rewind"]), todos: new Set<string>() };

describe("shapeHistory", () => {
  const thinking: HistoryItem[] = [
    { role: "user", text: "task" },
    { role: "assistant", text: "", toolCalls: [call("t0", "think", { thought: "hmm" })] },
    result("t0", "think", THINK_RESULT),
    { role: "assistant", text: "Reading.", toolCalls: [call("r1", "read", { path: "a" }), call("t1", "think", { thought: "and" })] },
    result("r1", "read"),
    result("t1", "think", THINK_RESULT),
    { role: "assistant", text: "", toolCalls: [call("b2", "bash", { cmd: "ls" })] },
    result("b2", "bash"),
  ];

  it("keeps a think call for think_keep_turns later turns, then leaves it and its result out", () => {
    const before = structuredClone(thinking);
    // Two assistant turns follow t0, one follows t1.
    expect(shapeHistory(thinking, { roles, thinkKeepTurns: 3 })).toEqual(thinking);
    // t0 has been seen by two later turns: it goes; t1 by one: it stays.
    const two = shapeHistory(thinking, { roles, thinkKeepTurns: 2 });
    expect(two).toEqual([thinking[0], thinking[3], thinking[4], thinking[5], thinking[6], thinking[7]]);
    const one = shapeHistory(thinking, { roles, thinkKeepTurns: 1 });
    expect(one).toEqual([
      { role: "user", text: "task" },
      { role: "assistant", text: "Reading.", toolCalls: [call("r1", "read", { path: "a" })] },
      result("r1", "read"),
      thinking[6],
      thinking[7],
    ]);
    expect(shapeHistory(thinking, { roles, thinkKeepTurns: 0 })).toEqual(one);
    expect(thinking).toEqual(before); // the durable history is untouched
  });

  it("merges a turn left with text only into the next, so assistants never follow each other", () => {
    const h: HistoryItem[] = [
      { role: "user", text: "task" },
      { role: "assistant", text: "Let me think.", toolCalls: [call("t0", "think", { thought: "x" })] },
      result("t0", "think", THINK_RESULT),
      { role: "assistant", text: "Now reading.", toolCalls: [call("r1", "read")] },
      result("r1", "read"),
    ];
    expect(shapeHistory(h, { roles, thinkKeepTurns: 0 })).toEqual([
      { role: "user", text: "task" },
      { role: "assistant", text: "Let me think.\n\nNow reading.", toolCalls: [call("r1", "read")] },
      result("r1", "read"),
    ]);
  });

  it("replaces everything after the active checkpoint with the rewind call, keeping user messages", () => {
    const h: HistoryItem[] = [
      { role: "user", text: "task" },
      { role: "assistant", text: "Before exploring.", toolCalls: [call("c1", "checkpoint", { goal: "g" })] },
      result("c1", "checkpoint"),
      { role: "assistant", text: "", toolCalls: [call("b1", "bash", { cmd: "find ." })] },
      result("b1", "bash"),
      { role: "user", text: "[yuj] job 1 finished" },
      { role: "assistant", text: "Found it.", toolCalls: [call("g1", "grep"), call("w1", "rewind", { report: "it is in a.ts" })] },
      result("g1", "grep"),
      result("w1", "rewind", "Rewound"),
      { role: "assistant", text: "", toolCalls: [call("d1", "done")] },
      result("d1", "done"),
    ];
    expect(shapeHistory(h, { roles, thinkKeepTurns: 4 })).toEqual([
      h[0], h[1], h[2],
      { role: "user", text: "[yuj] job 1 finished" },
      { role: "assistant", text: "", toolCalls: [call("w1", "rewind", { report: "it is in a.ts" })] },
      result("w1", "rewind", "Rewound"),
      h[9], h[10],
    ]);
  });

  it("ignores a failed rewind and a checkpoint that failed, and nests checkpoints", () => {
    const h: HistoryItem[] = [
      { role: "user", text: "task" },
      { role: "assistant", text: "", toolCalls: [call("c1", "checkpoint", { goal: "outer" })] },
      result("c1", "checkpoint"),
      { role: "assistant", text: "", toolCalls: [call("c2", "checkpoint", { goal: "inner" })] },
      result("c2", "checkpoint"),
      { role: "assistant", text: "", toolCalls: [call("b1", "bash")] },
      result("b1", "bash"),
      { role: "assistant", text: "", toolCalls: [call("w1", "rewind", { report: "inner done" })] },
      result("w1", "rewind"),
      { role: "assistant", text: "", toolCalls: [call("c3", "checkpoint", {})] },
      result("c3", "checkpoint", "ERROR: bad arguments", true),
      { role: "assistant", text: "", toolCalls: [call("w2", "rewind", { report: "outer done" })] },
      result("w2", "rewind"),
    ];
    expect(shapeHistory(h, { roles, thinkKeepTurns: 4 })).toEqual([
      h[0], h[1], h[2],
      { role: "assistant", text: "", toolCalls: [call("w2", "rewind", { report: "outer done" })] },
      h[12],
    ]);
  });
});

describe("request bodies over the Anthropic adapter", () => {
  let server: SseServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function runAgainstServer(turns: unknown[], adjust: (c: ReturnType<typeof defaultConfig>) => void) {
    const scenario = parseScenario({ turns });
    server = await startSseServer({ scenario, turnByRequest: true });
    const config = defaultConfig();
    adjust(config);
    const provider = await createProvider({
      name: "anthropic",
      model: "test-model",
      apiKey: "sk-test",
      baseURL: server.baseUrlFor("anthropic"),
      maxRetries: 0,
      requestTimeoutMs: 10_000,
    });
    // Room for every enabled tool: the cap is not what these tests are about.
    const profile = loadProfile(join(repoRoot, "profiles"), "_base");
    const toolset = activateTools({ ...profile, maxTools: 100 }, builtinHandlers(), config, { topLevel: true });
    const run = await runScenario(scenario, { config, provider, toolset });
    const bodies = server.requests.filter((r) => r.method === "POST").map((r) => r.body);
    return { run, bodies };
  }

  const toolUses = (body: any): string[] =>
    body.messages.flatMap((m: any) => (Array.isArray(m.content) ? m.content.filter((b: any) => b.type === "tool_use").map((b: any) => b.name) : []));

  it("sends a think call for think_keep_turns turns, then leaves it out; the trace keeps it", async () => {
    const { run, bodies } = await runAgainstServer(
      [
        { tool_calls: [{ name: "think", arguments: { thought: "start with the failing test" } }] },
        { tool_calls: [{ name: "bash", arguments: { cmd: "echo one" } }] },
        { tool_calls: [{ name: "bash", arguments: { cmd: "echo two" } }] },
        { tool_calls: [{ name: "done", arguments: { message: "ok" } }] },
      ],
      (c) => {
        c.tools.think_enabled = true;
        c.tools.think_keep_turns = 2;
      },
    );
    expect(run.outcome.reason).toBe("done");
    expect(bodies).toHaveLength(4);
    expect(bodies[0].tools.map((t: any) => t.name)).toContain("think");
    expect(toolUses(bodies[1])).toEqual(["think"]);
    expect(toolUses(bodies[2])).toEqual(["think", "bash"]);
    // The third request after the think: gone, with its result.
    expect(toolUses(bodies[3])).toEqual(["bash", "bash"]);
    expect(JSON.stringify(bodies[3].messages)).not.toContain("failing test");
    expect(JSON.stringify(bodies[3].messages)).not.toContain("tool_result tool_name");
    expect(bodies[3].messages.map((m: any) => m.role)).toEqual(["user", "assistant", "user", "assistant", "user"]);
    // The think result the model got, and the rows the history and trace keep.
    const thinkResult = bodies[1].messages[2].content[0];
    expect(thinkResult).toMatchObject({ type: "tool_result", content: THINK_RESULT, is_error: false });
    expect(run.history.some((h) => h.role === "assistant" && h.toolCalls.some((c) => c.name === "think"))).toBe(true);
    expect(run.events.find((e) => e.type === "tool_call_finished" && e.name === "think")).toBeDefined();
    assertValidHistory(run.history);
  });

  it("rewinds the next request to the checkpoint with the report, keeps files and the trace", async () => {
    const { run, bodies } = await runAgainstServer(
      [
        { text: "Exploring first.", tool_calls: [{ name: "checkpoint", arguments: { goal: "find where greet is defined" } }] },
        { tool_calls: [{ name: "bash", arguments: { cmd: "touch explored.txt" } }, { name: "write_todos", arguments: { todos: [{ description: "explore", status: "in_progress" }] } }] },
        { tool_calls: [{ name: "grep", arguments: { pattern: "function greet" } }] },
        { text: "Found it.", tool_calls: [{ name: "rewind", arguments: { report: "greet is defined in src/greet.js" } }] },
        { tool_calls: [{ name: "done", arguments: {} }] },
      ],
      (c) => {
        c.tools.checkpoint_enabled = true;
        c.tools.todos_enabled = true;
      },
    );
    expect(run.outcome.reason).toBe("done");
    expect(bodies).toHaveLength(5);
    // Before the rewind's results are in, the exploration is all there.
    expect(toolUses(bodies[3])).toEqual(["checkpoint", "bash", "write_todos", "grep"]);
    // After: the checkpoint turn, then the rewind call carrying the report, then its result.
    const after = bodies[4].messages;
    expect(after.map((m: any) => m.role)).toEqual(["user", "assistant", "user", "assistant", "user"]);
    expect(after[1].content).toEqual([
      { type: "text", text: "Exploring first." },
      expect.objectContaining({ type: "tool_use", name: "checkpoint", input: { goal: "find where greet is defined" } }),
    ]);
    expect(after[3].content).toEqual([
      expect.objectContaining({ type: "tool_use", name: "rewind", input: { report: "greet is defined in src/greet.js" } }),
    ]);
    expect(after[4].content[0]).toMatchObject({ type: "tool_result", is_error: false });
    expect(after[4].content[0].content).toContain('Rewound to the checkpoint "find where greet is defined"');
    expect(JSON.stringify(after)).not.toContain("explored.txt");
    // Files are never restored; the todo list follows the checkpoint (none then).
    expect(existsSync(join(run.cwd, "explored.txt"))).toBe(true);
    const todoEvents = run.events.filter((e) => e.type === "todo_updated").map((e) => (e as any).todos);
    expect(todoEvents).toEqual([[{ description: "explore", status: "in_progress" }], []]);
    // The durable history and the trace keep the abandoned exploration.
    expect(run.history.filter((h) => h.role === "tool").map((h) => (h as any).name)).toEqual(["checkpoint", "bash", "write_todos", "grep", "rewind", "done"]);
    expect(run.events.filter((e) => e.type === "tool_result").map((e) => (e as any).name)).toContain("grep");
    assertValidHistory(run.history);
  });

  it("refuses a rewind without a checkpoint, and the request stays as it was", async () => {
    const { run, bodies } = await runAgainstServer(
      [{ tool_calls: [{ name: "rewind", arguments: { report: "nothing" } }] }, { tool_calls: [{ name: "done", arguments: {} }] }],
      (c) => (c.tools.checkpoint_enabled = true),
    );
    expect(run.outcome.reason).toBe("done");
    expect(bodies[1].messages[2].content[0]).toMatchObject({
      type: "tool_result",
      is_error: true,
      content: "ERROR: no_active_checkpoint: rewind requires an active checkpoint; call checkpoint(goal) before an exploration and rewind(report) in a later turn",
    });
  });
});
