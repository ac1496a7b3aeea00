// Nesting across kill -9 and `yuj resume`: who owns a task is in
// orchestration.jsonl, so after a restart the grandchild's report still goes
// to the worker that delegated it (which a restart left parked, and which
// the report wakes), and only that worker's report reaches the main agent.

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isolatedEnv, runCli, startCli, waitUntil } from "../support/cli.js";
import { deliveries, delegationProject, mainHistory, sessionDirOf, storeRows, workerHistory } from "../support/delegation.js";

// Blocks (at most 30 s); the kill comes while it waits.
const hold = "touch grand.waiting; for i in $(seq 1 600); do [ -f grand.go ] && exit 0; sleep 0.05; done; exit 1";

describe("nested delegation across a restart", () => {
  it("keeps each task's owner: the grandchild reports to its worker, the worker to the main agent", async () => {
    const cwd = delegationProject(
      {
        turns: [
          { tool_calls: [{ name: "delegate", arguments: { description: "build out/", agent_type: "builder", expected_write_scope: { path_prefix: ["out"] } } }] },
          { text: "waiting for task-1" },
        ],
        agents: {
          "task-1": {
            turns: [
              { tool_calls: [{ name: "delegate", arguments: { description: "write out/y.txt", agent_type: "builder", expected_write_scope: { files: ["out/y.txt"] } } }] },
              { text: "waiting for task-2" },
              { tool_calls: [{ name: "complete", arguments: { summary: "task-1 done" } }] },
            ],
          },
          "task-2": {
            turns: [
              { tool_calls: [{ name: "shell", arguments: { command: hold, description: "busy" } }] },
              { tool_calls: [{ name: "write", arguments: { path: "out/y.txt", content: "Y\n" } }] },
              { tool_calls: [{ name: "complete", arguments: { summary: "wrote out/y.txt" } }] },
            ],
          },
        },
      },
      { toml: '[sandbox]\nmode = "off"\n' },
    );
    const env = isolatedEnv();
    const first = startCli(["code", "go", "--config", "chord.toml", "--output", "jsonl"], { cwd, env });
    await waitUntil(() => existsSync(join(cwd, "grand.waiting")), "the grandchild is busy", 60_000);
    const dir = sessionDirOf(env);
    await waitUntil(() => storeRows(dir).some((r) => r.t === "state" && r.taskId === "task-1" && r.state === "idle"), "task-1 parks", 60_000);
    first.child.kill("SIGKILL");
    await first.done;

    const second = await runCli(["resume", "--output", "jsonl"], { cwd, env, timeoutMs: 90_000 });
    expect(second.code, second.stderr).toBe(0);
    expect(readFileSync(join(cwd, "out/y.txt"), "utf8")).toBe("Y\n");
    const rows = storeRows(dir);
    expect(rows.filter((r) => r.t === "delegated").map((r) => [r.task.taskId, r.task.owner ?? "main"])).toEqual([
      ["task-1", "main"],
      ["task-2", "task-1"],
    ]);
    const messages = rows.filter((r) => r.t === "msg").map((r) => r.msg);
    expect(messages.map((m) => `${m.id}:${m.type}:${m.from}->${m.to}:${m.text}`)).toEqual(["m-1:completion:task-2->task-1:wrote out/y.txt", "m-2:completion:task-1->main:task-1 done"]);
    expect(deliveries(workerHistory(dir, "task-1")).get("m-1")).toBe(1);
    const main = deliveries(mainHistory(dir));
    expect(main.has("m-1")).toBe(false);
    expect(main.get("m-2")).toBe(1);
    for (const id of ["task-1", "task-2"]) expect(rows.filter((r) => r.t === "state" && r.taskId === id).at(-1)).toMatchObject({ state: "completed" });
  }, 180_000);
});
