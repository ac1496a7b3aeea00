// The bounds on delegation's load, through the built `yuj` against a real
// local SSE server (OpenAI Chat wire) that every agent's requests share and
// that counts the requests in flight, each streamed slowly:
// [orchestration].max_active_llm_requests caps the model requests of the
// main agent and its workers together, and max_live_runtimes caps the live
// workers (a delegate beyond is refused; a settled worker frees its place).

import { afterEach, describe, expect, it } from "vitest";
import { parseScenario, type ScenarioTurn } from "../../core/providers/scenario.js";
import { isolatedEnv, runCli } from "../support/cli.js";
import { delegationProject, rowsOf, type Row } from "../support/delegation.js";
import { startSseServer, type SseServer } from "../support/sse-server.js";

let server: SseServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const turn = (t: unknown): ScenarioTurn => parseScenario({ turns: [t] }).turns[0]!;
const explore = (n: number) => ({ name: "delegate", arguments: { description: `look at part ${n}`, agent_type: "explorer", expected_write_scope: {} } });

type Message = { role: string; content?: unknown };
const text = (m: Message | undefined) => (typeof m?.content === "string" ? m.content : JSON.stringify(m?.content ?? ""));

/**
 * Who asks, from the request: a worker's first user message is its brief.
 * A worker takes two slow requests (a look, then complete); the main agent
 * delegates `workers` explorers in its first response, then later ones
 * after the completions arrive.
 */
function turnFor(workers: number, later: number) {
  return (_api: string, body: { messages: Message[] }): ScenarioTurn => {
    const firstUser = body.messages.find((m) => m.role === "user");
    const mine = body.messages.filter((m) => m.role === "assistant").length;
    if (/^You are task-\d+, a explorer worker/.test(text(firstUser))) {
      if (mine === 0) return turn({ tool_calls: [{ name: "glob", arguments: { pattern: "*.txt" } }] });
      return turn({ tool_calls: [{ name: "complete", arguments: { summary: "looked" } }] });
    }
    if (mine === 0) return turn({ tool_calls: Array.from({ length: workers }, (_, i) => explore(i + 1)) });
    // Once every first worker has completed, the main agent delegates again: their places are free.
    const completions = body.messages.filter((m) => m.role === "user" && /\[mailbox m-\d+\]/.test(text(m))).map(text).join("\n").match(/looked/g)?.length ?? 0;
    if (later > 0 && completions >= workers - 1 && !body.messages.some((m) => JSON.stringify(m).includes("look at part 99"))) {
      return turn({ tool_calls: Array.from({ length: later }, () => ({ ...explore(99) })) });
    }
    return turn({ text: "waiting for my workers" });
  };
}

async function runWith(toml: string, workers: number, later = 0): Promise<{ rows: Row[]; maxInFlight: number }> {
  server = await startSseServer({ scenario: parseScenario({ turns: [{ text: "unused" }] }), eventDelayMs: 40, turnFor: turnFor(workers, later) as never });
  const cwd = delegationProject({ turns: [{ text: "unused" }] }, { toml, files: { "a.txt": "a\n" } });
  const env = isolatedEnv({ OPENAI_API_KEY: "sk-test-not-a-key" });
  const args = ["code", "go", "--config", "chord.toml", "--provider", "openai-chat", "--model", "m", "--base-url", server.baseUrlFor("openai-chat"), "--output", "jsonl"];
  const res = await runCli(args, { cwd, env, timeoutMs: 120_000 });
  expect(res.code, res.stderr).toBe(0);
  return { rows: rowsOf(res.stdout), maxInFlight: server.maxInFlight() };
}

const delegates = (rows: Row[]) => rows.filter((r) => r.type === "tool_result" && r.name === "delegate");
const completed = (rows: Row[]) => rows.filter((r) => r.type === "agent_update" && r.what === "completed").length;

describe("[orchestration] bounds", () => {
  it("max_active_llm_requests = 2: four workers and the main agent never have more than two requests in flight, and reach two", async () => {
    const { rows, maxInFlight } = await runWith("[orchestration]\nmax_active_llm_requests = 2\n", 4);
    expect(delegates(rows).every((r) => r.ok)).toBe(true);
    expect(completed(rows)).toBe(4);
    expect(maxInFlight).toBe(2);
  }, 150_000);

  it("without the bound the same workers do run more requests at once (so the bound above is what held them)", async () => {
    const { rows, maxInFlight } = await runWith("", 4);
    expect(completed(rows)).toBe(4);
    expect(maxInFlight).toBeGreaterThan(2);
  }, 150_000);

  it("max_live_runtimes = 3: a fourth delegate while three are live is refused; after they settle a new one starts", async () => {
    const { rows } = await runWith("[orchestration]\nmax_live_runtimes = 3\n", 4, 1);
    const [a, b, c, d, e] = delegates(rows);
    expect([a, b, c].map((r) => r!.ok)).toEqual([true, true, true]);
    expect(d!.ok).toBe(false);
    expect(d!.modelText).toContain("3 workers are live, the most [orchestration].max_live_runtimes allows");
    expect(e!.ok).toBe(true);
    expect(JSON.parse(e!.modelText)).toMatchObject({ status: "started", task_id: "task-4" });
    expect(completed(rows)).toBe(4);
  }, 150_000);
});
