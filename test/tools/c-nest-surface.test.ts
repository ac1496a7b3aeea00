// A worker's own delegation surface, as a real provider sees it (a local SSE
// server on the OpenAI Chat wire that every agent's requests share): a
// writing worker is offered delegate, whose agent_type enum holds only the
// roles the rules allow, and cancel; handoff stays the main agent's; a
// denied role and a scope wider than the worker's own are refused.

import { afterEach, describe, expect, it } from "vitest";
import { parseScenario, type ScenarioTurn } from "../../core/providers/scenario.js";
import { isolatedEnv, runCli } from "../support/cli.js";
import { delegationProject, rowsOf, sessionDirOf, workerHistory } from "../support/delegation.js";
import { startSseServer, type SseServer } from "../support/sse-server.js";

let server: SseServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

type Message = { role: string; content?: unknown };
type Body = { messages: Message[]; tools?: Array<{ function: { name: string; parameters: any } }> };
const text = (m: Message | undefined) => (typeof m?.content === "string" ? m.content : JSON.stringify(m?.content ?? ""));
const turn = (t: unknown): ScenarioTurn => parseScenario({ turns: [t] }).turns[0]!;
const delegate = (role: string, scope: Record<string, string[]>) => ({ name: "delegate", arguments: { description: "part", agent_type: role, expected_write_scope: scope } });

/** Each agent's turns, by who asks: a worker's first user message is its brief. */
const scripts: Record<string, unknown[]> = {
  main: [{ tool_calls: [delegate("builder", { path_prefix: ["src"] })] }, { text: "waiting for task-1" }, { text: "done" }],
  "task-1": [
    { tool_calls: [delegate("planner", {}), delegate("builder", { files: ["lib/x.txt"] })] },
    { tool_calls: [{ name: "complete", arguments: { summary: "nothing handed on" } }] },
  ],
};
function turnFor(_api: string, body: Body): ScenarioTurn {
  const who = /^You are (task-\d+), a /.exec(text(body.messages.find((m) => m.role === "user")))?.[1] ?? "main";
  const mine = body.messages.filter((m) => m.role === "assistant").length;
  return turn(scripts[who]?.[mine] ?? { text: "(no more turns)" });
}

describe("a worker's delegation surface", () => {
  it("delegate with the allowed roles and cancel, no handoff; a denied role and a broader scope are refused", async () => {
    server = await startSseServer({ scenario: parseScenario({ turns: [{ text: "unused" }] }), turnFor: turnFor as never });
    const cwd = delegationProject(
      { turns: [{ text: "unused" }] },
      { rules: '[[permissions.rules]]\ntool = "delegate"\naction = "allow"\n[[permissions.rules]]\ntool = "delegate"\npattern = "planner"\naction = "deny"\n[[permissions.rules]]\ntool = "handoff"\naction = "allow"\n' },
    );
    const env = isolatedEnv({ OPENAI_API_KEY: "sk-test-not-a-key" });
    const args = ["code", "go", "--config", "chord.toml", "--provider", "openai-chat", "--model", "m", "--base-url", server.baseUrlFor("openai-chat"), "--output", "jsonl"];
    const res = await runCli(args, { cwd, env, timeoutMs: 90_000 });
    expect(res.code, res.stderr).toBe(0);
    const bodies = server.requests.filter((r) => r.method === "POST").map((r) => r.body as Body);
    const workerBody = bodies.find((b) => /^You are task-1, /.test(text(b.messages.find((m) => m.role === "user"))))!;
    const names = workerBody.tools!.map((t) => t.function.name);
    expect(names).toEqual(expect.arrayContaining(["delegate", "cancel", "notify", "complete", "escalate"]));
    expect(names).not.toContain("handoff");
    const schema = workerBody.tools!.find((t) => t.function.name === "delegate")!.function.parameters;
    expect(schema.properties.agent_type.enum).toEqual(["builder", "explorer"]);
    // The main agent still has handoff; its own enum is the same.
    const mainBody = bodies.find((b) => text(b.messages.find((m) => m.role === "user")) !== "" && !/^You are task-/.test(text(b.messages.find((m) => m.role === "user"))))!;
    expect(mainBody.tools!.map((t) => t.function.name)).toContain("handoff");
    const history = workerHistory(sessionDirOf(env), "task-1");
    const delegates = history.filter((h) => h.role === "tool" && h.name === "delegate");
    expect(delegates.map((d) => d.isError)).toEqual([true, true]);
    expect(delegates[0]!.text).toContain('denied by rule {tool="delegate", pattern="planner", action="deny"}');
    expect(delegates[1]!.text).toBe(
      'delegate refused: expected_write_scope must not be broader than your own task\'s (files [], path_prefix ["src"], modules []): lib/x.txt is outside it',
    );
    expect(rowsOf(res.stdout).some((r) => r.type === "agent_update" && r.taskId === "task-2")).toBe(false);
  }, 120_000);
});
