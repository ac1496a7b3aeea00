// Delegation state outlives compaction, a restart and a failing model,
// through the built `yuj` and a real local SSE server (OpenAI Chat wire)
// that answers each agent from what its request holds: the main agent's
// context is compacted while its worker waits on an escalation; after
// `yuj resume` the reply by correlation_id still reaches the worker, which
// completes, and every mailbox message is delivered exactly once. A worker
// whose requests keep failing is failed by the runtime, its owner woken.

import { afterEach, describe, expect, it } from "vitest";
import { SUMMARY_PREFIX } from "../../core/compaction.js";
import { parseScenario, type ScenarioTurn } from "../../core/providers/scenario.js";
import { isolatedEnv, runCli } from "../support/cli.js";
import { deliveries, delegationProject, mainHistory, rowsOf, sessionDirOf, storeRows, workerHistory } from "../support/delegation.js";
import { startSseServer, type SseServer } from "../support/sse-server.js";

let server: SseServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

type Message = { role: string; content?: unknown; tool_calls?: unknown };
const text = (m: Message | undefined) => (typeof m?.content === "string" ? m.content : JSON.stringify(m?.content ?? ""));
const turn = (t: unknown): ScenarioTurn => parseScenario({ turns: [t] }).turns[0]!;
const call = (name: string, args: Record<string, unknown>, usage?: { input: number; output: number }) => turn({ tool_calls: [{ name, arguments: args }], ...(usage ? { usage } : {}) });

/** Each agent's next turn, from what its request carries. */
function answer(_api: string, body: { messages: Message[] }): ScenarioTurn {
  const msgs = body.messages;
  const users = msgs.filter((m) => m.role === "user").map(text);
  const last = users.at(-1) ?? "";
  const all = JSON.stringify(msgs);
  if (/^You are task-1, a explorer worker/.test(users[0] ?? "")) {
    if (!msgs.some((m) => m.role === "assistant")) return call("escalate", { reason: "which folder should I search?", kind: "needs_repair" });
    if (last.includes("search src/")) return call("complete", { summary: "found it in src/" });
    return turn({ text: "still waiting" });
  }
  if (last.includes("The conversation above is being compacted")) return turn({ text: "SUMMARY: task-1 (explorer) was delegated; it asked which folder to search." });
  if (last.includes("found it in src/")) return turn({ text: "all done" });
  if (last.includes("answer task-1 now")) return call("notify", { target_task_id: "task-1", message_type: "response", correlation_id: "esc-task-1-1", message: "search src/" });
  if (last.includes("which folder should I search?")) return turn({ text: "I will answer after a break" });
  if (!msgs.some((m) => m.role === "assistant")) return call("delegate", { description: "find the config", agent_type: "explorer", expected_write_scope: {} });
  // After the handle: a turn that fills the window, so the next request compacts first.
  if (all.includes('"status":"started"') || all.includes('\\"status\\":\\"started\\"')) return turn({ text: "waiting for task-1", usage: { input: 190_000, output: 10 } });
  return turn({ text: "waiting" });
}

describe("delegation across compaction and a restart", () => {
  it("keeps the task, its open escalation and the mailbox through a compaction and yuj resume; nothing is lost or delivered twice", async () => {
    server = await startSseServer({ scenario: parseScenario({ turns: [{ text: "unused" }] }), turnFor: answer as never });
    const cwd = delegationProject({ turns: [{ text: "unused" }] }, { toml: "[model]\ncontext_window = 200000\n[context]\ndigest_keep_recent_turns = 1\n" });
    const env = isolatedEnv({ OPENAI_API_KEY: "sk-test-not-a-key" });
    const provider = ["--config", "chord.toml", "--provider", "openai-chat", "--model", "m", "--base-url", server.baseUrlFor("openai-chat"), "--output", "jsonl"];

    const first = await runCli(["code", "go", ...provider], { cwd, env, timeoutMs: 90_000 });
    expect(first.code, first.stderr).toBe(0);
    const dir = sessionDirOf(env);
    // The compaction happened after the escalation was delivered, while the worker waited.
    expect(rowsOf(first.stdout).filter((r) => r.type === "context_compacted")).toHaveLength(1);
    let history = mainHistory(dir);
    const summaryAt = history.findIndex((h) => h.role === "summary");
    expect(summaryAt).toBeGreaterThan(0);
    const escalation = storeRows(dir).find((r) => r.t === "msg" && r.msg.type === "request");
    expect(escalation?.msg).toMatchObject({ to: "main", from: "task-1", kind: "needs_repair", correlationId: "esc-task-1-1" });
    expect(deliveries(history).get(escalation!.msg.id)).toBe(1);
    const stateRows = () => storeRows(dir).filter((r) => r.t === "state" && r.taskId === "task-1").map((r) => r.state);
    expect(stateRows().at(-1)).toBe("waiting_main");

    const id = dir.split("/").at(-1)!;
    const second = await runCli(["resume", id, "answer task-1 now", ...provider], { cwd, env, timeoutMs: 90_000 });
    expect(second.code, second.stderr).toBe(0);
    const rows = rowsOf(second.stdout);
    const notify = rows.find((r) => r.type === "tool_result" && r.name === "notify");
    expect(notify?.ok, notify?.modelText).toBe(true);
    // The resumed main agent's requests still carry the summary: the compaction was kept.
    const resumedMain = server.requests.filter((r) => JSON.stringify(r.body?.messages ?? []).includes("answer task-1 now"));
    expect(resumedMain.length).toBeGreaterThan(0);
    expect(JSON.stringify(resumedMain[0]!.body.messages)).toContain(SUMMARY_PREFIX);
    expect(rows.find((r) => r.type === "run_finished")).toMatchObject({ message: "all done" });

    expect(stateRows().at(-1)).toBe("completed");
    expect(stateRows()).toEqual(expect.arrayContaining(["waiting_main", "running", "completed"]));
    history = mainHistory(dir);
    const mail = storeRows(dir).filter((r) => r.t === "msg");
    const toMain = deliveries(history);
    const toWorker = deliveries(workerHistory(dir, "task-1"));
    for (const m of mail) expect(m.msg.to === "main" ? toMain.get(m.msg.id) : toWorker.get(m.msg.id), `${m.msg.id} (${m.msg.type})`).toBe(1);
    expect(mail.map((m) => m.msg.type)).toEqual(["request", "response", "completion"]);
  }, 200_000);
});

describe("a worker whose provider keeps failing", () => {
  it("is failed once its retries are spent, with a risk_alert that wakes its owner for a request", async () => {
    const isWorker = (body: { messages?: Message[] }) => /^You are task-1, /.test(text(body.messages?.find((m) => m.role === "user")));
    server = await startSseServer({
      scenario: parseScenario({ turns: [{ text: "unused" }] }),
      faultFor: (body) => (isWorker(body) ? { status: 500, retryAfterMs: "5", message: "the worker's model is down" } : undefined),
      turnFor: ((_api: string, body: { messages: Message[] }) => {
        const last = body.messages.filter((m) => m.role === "user").map(text).at(-1) ?? "";
        if (last.includes("risk_alert")) return turn({ text: "task-1 failed; noted" });
        if (!body.messages.some((m) => m.role === "assistant")) return call("delegate", { description: "look", agent_type: "explorer", expected_write_scope: {} });
        return turn({ text: "waiting" });
      }) as never,
    });
    const cwd = delegationProject({ turns: [{ text: "unused" }] }, { files: { "retries.toml": "[provider]\nmax_retries = 1\n" } });
    const env = isolatedEnv({ OPENAI_API_KEY: "sk-test-not-a-key" });
    const res = await runCli(["code", "go", "--config", "chord.toml", "--config", "retries.toml", "--provider", "openai-chat", "--model", "m", "--base-url", server.baseUrlFor("openai-chat"), "--output", "jsonl"], { cwd, env, timeoutMs: 90_000 });
    expect(res.code, res.stderr).toBe(0);
    const dir = sessionDirOf(env);
    // The first request and its one retry, no more.
    expect(server.requests.filter((r) => isWorker(r.body ?? {}))).toHaveLength(2);
    const last = storeRows(dir).filter((r) => r.t === "state" && r.taskId === "task-1").at(-1);
    expect(last).toMatchObject({ state: "failed" });
    expect(last!.reason).toContain("the worker's model is down");
    const alert = storeRows(dir).find((r) => r.t === "msg" && r.msg.type === "risk_alert");
    expect(deliveries(mainHistory(dir)).get(alert!.msg.id)).toBe(1);
    expect(rowsOf(res.stdout).find((r) => r.type === "run_finished")).toMatchObject({ message: "task-1 failed; noted" });
  }, 120_000);
});
