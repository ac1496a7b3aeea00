// Nested delegation on the Chord surface, with real child sessions: a worker
// delegates a worker of its own, whose report goes to that worker (its
// owner), never to the main agent; only a task's direct owner may message or
// cancel it; cancelling a task cancels the tasks under it.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isolatedEnv, runCli } from "../support/cli.js";
import { deliveries, delegationProject, untilLog, mainHistory, rowsOf, sessionDirOf, storeRows, workerHistory } from "../support/delegation.js";

const NO_SANDBOX = '[sandbox]\nmode = "off"\n';

async function run(cwd: string) {
  const env = isolatedEnv();
  const res = await runCli(["code", "go", "--config", "chord.toml", "--output", "jsonl"], { cwd, env, timeoutMs: 90_000 });
  return { res, rows: rowsOf(res.stdout), dir: sessionDirOf(env) };
}

const delegateTo = (role: string, scope: Record<string, string[]>, description = "sub-task") => ({
  name: "delegate",
  arguments: { description, agent_type: role, expected_write_scope: scope },
});

/** A worker's tool results, by tool name, in order. */
const toolTexts = (history: Array<{ role: string; name?: string; text?: string }>, name: string) =>
  history.filter((h) => h.role === "tool" && h.name === name).map((h) => h.text ?? "");


describe("a worker delegates a worker of its own", () => {
  it("the grandchild's report goes to the worker that delegated it, never to the main agent", async () => {
    const cwd = delegationProject(
      {
        turns: [{ tool_calls: [delegateTo("builder", { path_prefix: ["out"] }, "build out/")] }, { text: "waiting for task-1" }, { text: "all done" }],
        agents: {
          "task-1": {
            turns: [
              { tool_calls: [delegateTo("builder", { files: ["out/g.txt"] }, "write out/g.txt")] },
              { text: "waiting for my worker" },
              { tool_calls: [{ name: "complete", arguments: { summary: "task-1 done: task-2 wrote out/g.txt" } }] },
            ],
          },
          "task-2": {
            turns: [
              { tool_calls: [{ name: "write", arguments: { path: "out/g.txt", content: "G\n" } }] },
              { tool_calls: [{ name: "complete", arguments: { summary: "wrote out/g.txt" } }] },
            ],
          },
        },
      },
      { toml: NO_SANDBOX },
    );
    const { res, dir } = await run(cwd);
    expect(res.code, res.stderr).toBe(0);
    const store = storeRows(dir);
    const tasks = store.filter((r) => r.t === "delegated").map((r) => r.task);
    expect(tasks.map((t) => [t.taskId, t.owner ?? "main"])).toEqual([
      ["task-1", "main"],
      ["task-2", "task-1"],
    ]);
    // The worker's delegate answers with the grandchild's handle.
    const worker = workerHistory(dir, "task-1");
    const handle = JSON.parse(toolTexts(worker, "delegate")[0]!);
    expect(handle).toMatchObject({
      status: "started",
      task_id: "task-2",
      message: "running in background",
      expected_write_scope: { files: ["out/g.txt"] },
    });
    const messages = store.filter((r) => r.t === "msg").map((r) => r.msg);
    expect(messages.map((m) => `${m.id}:${m.type}:${m.from}->${m.to}`)).toEqual(["m-1:completion:task-2->task-1", "m-2:completion:task-1->main"]);
    // The worker read its grandchild's report, once; the main agent never saw it.
    const reported = worker.find((h) => h.role === "user" && h.text?.includes("[mailbox m-1]"));
    expect(reported!.text).toContain("[mailbox m-1] from task-2 (builder) (completion):\nwrote out/g.txt");
    expect(deliveries(worker).get("m-1")).toBe(1);
    const main = deliveries(mainHistory(dir));
    expect(main.has("m-1")).toBe(false);
    expect(main.get("m-2")).toBe(1);
    expect(toolTexts(worker, "complete")).toEqual(["Completed task-1: your owner has the report."]);
  }, 120_000);
});

const slow = { tool_calls: [{ name: "shell", arguments: { command: "sleep 30", description: "slow" } }] };
const results = (rows: Array<Record<string, any>>, name: string) => rows.filter((r) => r.type === "tool_result" && r.name === name);

describe("only a task's direct owner steers it", () => {
  it("the main agent cannot message or cancel a grandchild; the worker cannot complete over an open task, and cancels it", async () => {
    const cwd = delegationProject(
      {
        turns: [
          { tool_calls: [delegateTo("builder", { path_prefix: ["out"] })] },
          { tool_calls: [untilLog('"taskId":"task-2"')] },
          {
            tool_calls: [
              { name: "notify", arguments: { target_task_id: "task-2", message: "from the top" } },
              { name: "cancel", arguments: { target_task_id: "task-2", reason: "from the top" } },
            ],
          },
          { text: "waiting for task-1" },
        ],
        agents: {
          "task-1": {
            turns: [
              { tool_calls: [delegateTo("builder", { files: ["out/a.txt"] })] },
              { tool_calls: [{ name: "complete", arguments: { summary: "too early" } }] },
              { tool_calls: [{ name: "cancel", arguments: { target_task_id: "task-2", reason: "not needed" } }] },
              { tool_calls: [{ name: "notify", arguments: { target_task_id: "task-2", message: "still there?" } }] },
              { tool_calls: [{ name: "complete", arguments: { summary: "cancelled my worker" } }] },
            ],
          },
          "task-2": { turns: [slow] },
        },
      },
      { toml: NO_SANDBOX },
    );
    const { res, rows, dir } = await run(cwd);
    expect(res.code, res.stderr).toBe(0);
    const notOwned = (verb: string) => `${verb} refused: task task-2 is owned by task task-1; caller task main is not allowed: only a task's direct owner may message, answer or cancel it`;
    expect(results(rows, "notify").map((r) => [r.ok, r.modelText])).toEqual([[false, notOwned("notify")]]);
    expect(results(rows, "cancel").map((r) => [r.ok, r.modelText])).toEqual([[false, notOwned("cancel")]]);
    const worker = workerHistory(dir, "task-1");
    expect(toolTexts(worker, "complete")).toEqual([
      "complete refused: the tasks you delegated are still open: task-2 (running). Wait for their reports (they arrive as mailbox messages), or cancel them, then call complete.",
      "Completed task-1: your owner has the report.",
    ]);
    const [cancelled] = toolTexts(worker, "cancel");
    expect(JSON.parse(cancelled!)).toMatchObject({ status: "cancelled", task_id: "task-2", message: "worker stopped" });
    expect(toolTexts(worker, "notify")[0]).toContain("notify refused: task task-2 was cancelled; a message must not undo that decision");
    const states = storeRows(dir).filter((r) => r.t === "state" && r.taskId === "task-2");
    expect(states.at(-1)).toMatchObject({ state: "cancelled", reason: "not needed" });
  }, 120_000);

  it("cancelling a task cancels the tasks under it; the deepest worker is offered no delegate", async () => {
    const cwd = delegationProject(
      {
        turns: [
          { tool_calls: [delegateTo("builder", { path_prefix: ["out"] })] },
          { tool_calls: [untilLog('"taskId":"task-3"')] },
          { tool_calls: [{ name: "cancel", arguments: { target_task_id: "task-1", reason: "stop all" } }] },
          { text: "stopped" },
        ],
        agents: {
          "task-1": { turns: [{ tool_calls: [delegateTo("builder", { path_prefix: ["out/b"] })] }, { text: "waiting" }] },
          "task-2": { turns: [{ tool_calls: [delegateTo("builder", { files: ["out/b/c.txt"] })] }, { text: "waiting" }] },
          "task-3": { turns: [slow] },
        },
      },
      { toml: `${NO_SANDBOX}[orchestration]\nmax_depth = 3\n` },
    );
    const { res, dir } = await run(cwd);
    expect(res.code, res.stderr).toBe(0);
    const last = (id: string) => storeRows(dir).filter((r) => r.t === "state" && r.taskId === id).at(-1);
    expect(last("task-1")).toMatchObject({ state: "cancelled", reason: "stop all" });
    expect(last("task-2")).toMatchObject({ state: "cancelled", reason: "cancelled because ancestor task task-1 was stopped" });
    expect(last("task-3")).toMatchObject({ state: "cancelled", reason: "cancelled because ancestor task task-2 was stopped" });
    const toolsOf = (id: string): string[] => JSON.parse(rowsOf(readFileSync(join(dir, "tasks", id, "trace.jsonl"), "utf8")).find((r) => r.type === "provider_request")!.body).tools;
    expect(toolsOf("task-2")).toEqual(expect.arrayContaining(["delegate", "cancel", "notify", "complete"]));
    expect(toolsOf("task-2")).not.toContain("handoff");
    expect(toolsOf("task-3")).not.toContain("delegate");
    expect(toolsOf("task-3")).not.toContain("cancel");
  }, 120_000);
});

describe("a grandchild's escalation", () => {
  it("goes to the worker that delegated it, which answers it; the main agent may not", async () => {
    const cwd = delegationProject(
      {
        turns: [
          { tool_calls: [delegateTo("builder", { path_prefix: ["out"] })] },
          { tool_calls: [untilLog('"kind":"needs_repair"')] },
          { tool_calls: [{ name: "notify", arguments: { target_task_id: "task-2", message_type: "response", correlation_id: "esc-task-2-1", message: "from the top" } }] },
          { text: "waiting for task-1" },
        ],
        agents: {
          "task-1": {
            turns: [
              { tool_calls: [delegateTo("builder", { files: ["out/e.txt"] })] },
              { text: "waiting for task-2" },
              { tool_calls: [{ name: "notify", arguments: { target_task_id: "task-2", message_type: "response", correlation_id: "esc-task-2-1", message: "call it out/e.txt" } }] },
              { text: "waiting for task-2 again" },
              { tool_calls: [{ name: "complete", arguments: { summary: "task-2 wrote out/e.txt" } }] },
            ],
          },
          "task-2": {
            turns: [
              { tool_calls: [{ name: "escalate", arguments: { kind: "needs_repair", reason: "which file name?" } }] },
              { text: "waiting for my owner" },
              { tool_calls: [{ name: "write", arguments: { path: "out/e.txt", content: "E\n" } }] },
              { tool_calls: [{ name: "complete", arguments: { summary: "wrote out/e.txt" } }] },
            ],
          },
        },
      },
      { toml: NO_SANDBOX },
    );
    const { res, rows, dir } = await run(cwd);
    expect(res.code, res.stderr).toBe(0);
    expect(results(rows, "notify").map((r) => r.modelText)).toEqual([
      "notify refused: task task-2 is owned by task task-1; caller task main is not allowed: only a task's direct owner may message, answer or cancel it",
    ]);
    const messages = storeRows(dir).filter((r) => r.t === "msg").map((r) => r.msg);
    expect(messages.map((m) => `${m.type}:${m.from}->${m.to}`)).toEqual(["request:task-2->task-1", "response:task-1->task-2", "completion:task-2->task-1", "completion:task-1->main"]);
    const answered = JSON.parse(toolTexts(workerHistory(dir, "task-1"), "notify")[0]!);
    expect(answered).toMatchObject({ task_id: "task-2" });
    const grand = workerHistory(dir, "task-2");
    expect(grand.find((h) => h.role === "user" && h.text?.includes("[mailbox m-2]"))!.text).toContain(
      "[mailbox m-2] from task-1 (builder) (response, correlation_id esc-task-2-1):\ncall it out/e.txt",
    );
    expect(readFileSync(join(cwd, "out/e.txt"), "utf8")).toBe("E\n");
  }, 120_000);
});
