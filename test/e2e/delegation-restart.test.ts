// A delegated session killed with SIGKILL at several points and resumed each
// time with `yuj resume`: every task is where it was, the worker keeps its
// task id (with a new agent id), and every mailbox message is delivered
// exactly once, counted in the histories that received it.

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isolatedEnv, runCli, startCli, waitUntil } from "../support/cli.js";
import { deliveries, delegationProject, mainHistory, rowsOf, sessionDirOf, storeRows, workerHistory } from "../support/delegation.js";
import { existsSync, readFileSync } from "node:fs";

// Blocks (at most 30 s) until the test lets it go; the kill comes while it waits.
const hold = (name: string) => `touch ${name}.waiting; for i in $(seq 1 600); do [ -f ${name}.go ] && exit 0; sleep 0.05; done; exit 1`;

describe("delegation across kill -9 and yuj resume", () => {
  it("keeps the mailbox, the task states and the task ids; no message is lost or delivered twice", async () => {
    const cwd = delegationProject({
      turns: [
        { tool_calls: [{ name: "delegate", arguments: { description: "write the file the owner names", agent_type: "builder", expected_write_scope: { path_prefix: ["out"] } } }] },
        { tool_calls: [{ name: "shell", arguments: { command: hold("main"), description: "busy" } }] },
        { tool_calls: [{ name: "notify", arguments: { target_task_id: "task-1", message_type: "response", correlation_id: "esc-task-1-1", message: "call it out/y.txt" } }] },
      ],
      agents: {
        builder: {
          turns: [
            { tool_calls: [{ name: "notify", arguments: { message: "halfway there" } }] },
            { tool_calls: [{ name: "escalate", arguments: { kind: "needs_repair", reason: "which file name?" } }] },
            { text: "waiting for my owner" },
            { tool_calls: [{ name: "shell", arguments: { command: hold("worker"), description: "busy" } }] },
            { tool_calls: [{ name: "write", arguments: { path: "out/y.txt", content: "Y\n" } }] },
            { tool_calls: [{ name: "complete", arguments: { summary: "wrote out/y.txt", files_changed: ["out/y.txt"] } }] },
          ],
        },
      },
    });
    const env = isolatedEnv();
    const waitFor = (file: string) => waitUntil(() => existsSync(join(cwd, file)), file, 60_000);

    // 1. The main agent is busy in a command; the worker has sent an update and an escalation, and is parked.
    const first = startCli(["code", "go", "--config", "chord.toml", "--output", "jsonl"], { cwd, env });
    await waitFor("main.waiting");
    const dir = sessionDirOf(env);
    await waitUntil(() => storeRows(dir).some((r) => r.t === "state" && r.state === "waiting_main"), "the worker parks", 60_000);
    first.child.kill("SIGKILL");
    await first.done;
    expect(deliveries(mainHistory(dir)).size).toBe(0);
    const firstAgent = storeRows(dir).find((r) => r.t === "delegated")!.task.agentId;

    // 2. Resumed: the main agent gets both messages in one delivery and answers; the worker, woken, is killed mid-command.
    const second = startCli(["resume", "--output", "jsonl"], { cwd, env });
    await waitFor("worker.waiting");
    second.child.kill("SIGKILL");
    const secondOut = await second.done;
    const rehydrated = rowsOf(secondOut.stdout).find((r) => r.type === "agent_update" && r.what === "rehydrated");
    // Shown in the owner's stream (its rows are the main agent's), naming the task and its new runtime.
    expect(rehydrated).toMatchObject({ agentId: "main", taskId: "task-1", state: "waiting_main" });
    expect(rehydrated!.workerId).not.toBe(firstAgent);
    const main2 = mainHistory(dir);
    const batch = main2.filter((h) => h.role === "user" && h.text?.includes("[mailbox m-1]"));
    expect(batch).toHaveLength(1);
    expect(batch[0]!.text).toContain("[mailbox m-2]");
    expect(deliveries(workerHistory(dir, "task-1")).get("m-3")).toBe(1);

    // 3. Resumed again: the worker goes on from its own transcript and completes; the owner hears once.
    const third = await runCli(["resume", "--output", "jsonl"], { cwd, env, timeoutMs: 90_000 });
    expect(third.code, third.stderr).toBe(0);
    expect(readFileSync(join(cwd, "out/y.txt"), "utf8")).toBe("Y\n");
    const rows = storeRows(dir);
    const tasks = rows.filter((r) => r.t === "delegated");
    expect(tasks).toHaveLength(1);
    const states = rows.filter((r) => r.t === "state" && r.taskId === "task-1");
    expect(states.at(-1)).toMatchObject({ state: "completed" });
    // Each runtime had its own agent id; the task id never changed.
    const agentIds = new Set([firstAgent, ...states.map((s) => s.agentId).filter(Boolean)]);
    expect(agentIds.size).toBe(3);
    const messages = rows.filter((r) => r.t === "msg").map((r) => r.msg);
    expect(messages.map((m) => `${m.id}:${m.type}:${m.to}`)).toEqual(["m-1:progress:main", "m-2:request:main", "m-3:response:task-1", "m-4:completion:main"]);
    const toMain = deliveries(mainHistory(dir));
    const toWorker = deliveries(workerHistory(dir, "task-1"));
    for (const m of messages) expect((m.to === "main" ? toMain : toWorker).get(m.id), m.id).toBe(1);
    writeFileSync(join(cwd, "main.go"), "");
    writeFileSync(join(cwd, "worker.go"), "");
  }, 180_000);
});
