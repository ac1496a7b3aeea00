// Delegation through the built `yuj` on the Chord surface, as a user runs it:
// the scripted model plays the main agent and each worker its own turns, the
// workers run at once in the yuj process, and every message is counted in
// the histories that received it.

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isolatedEnv, runCli } from "../support/cli.js";
import { deliveries, delegationProject, mainHistory, rowsOf, sessionDirOf, storeRows, workerHistory, type Row } from "../support/delegation.js";

const results = (rows: Row[], name: string) => rows.filter((r) => r.type === "tool_result" && r.name === name);
const updates = (rows: Row[]) => rows.filter((r) => r.type === "agent_update");

async function run(cwd: string, env = isolatedEnv(), extra: string[] = []) {
  const res = await runCli(["code", "go", "--config", "chord.toml", "--output", "jsonl", ...extra], { cwd, env, timeoutMs: 90_000 });
  return { res, rows: rowsOf(res.stdout), env };
}

// Each worker waits until the other has started: they finish only if they run at the same time.
const meetCommand = (me: string, other: string) => `touch ${me}.started; for i in $(seq 1 400); do [ -f ${other}.started ] && exit 0; sleep 0.05; done; exit 1`;

describe("delegate: workers in the background", () => {
  it("returns each handle at once; two workers with overlapping scopes run at the same time; the second handle reports the conflict; both completions reach the main agent once", async () => {
    const cwd = delegationProject({
      turns: [
        {
          tool_calls: [
            { name: "delegate", arguments: { description: "write a.txt", agent_type: "builder", expected_write_scope: { files: ["src/a.txt"] } } },
            { name: "delegate", arguments: { description: "write everything in src", agent_type: "builder", expected_write_scope: { path_prefix: ["src"] } } },
          ],
        },
      ],
      agents: {
        "task-1": {
          turns: [
            { tool_calls: [{ name: "shell", arguments: { command: meetCommand("one", "two"), description: "meet" } }] },
            { tool_calls: [{ name: "write", arguments: { path: "src/a.txt", content: "A\n" } }] },
            { tool_calls: [{ name: "complete", arguments: { summary: "wrote a.txt", files_changed: ["src/a.txt"] } }] },
          ],
        },
        "task-2": {
          turns: [
            { tool_calls: [{ name: "shell", arguments: { command: meetCommand("two", "one"), description: "meet" } }] },
            { tool_calls: [{ name: "complete", arguments: { summary: "src checked" } }] },
          ],
        },
      },
    });
    const { res, rows, env } = await run(cwd);
    expect(res.code, res.stderr).toBe(0);
    const [first, second] = results(rows, "delegate").map((r) => JSON.parse(r.modelText));
    expect(first).toMatchObject({ status: "started", task_id: "task-1" });
    expect(first.scope_conflict).toBeUndefined();
    expect(second).toMatchObject({ status: "started", task_id: "task-2", scope_conflict: true, suggested_task_id: "task-1", suggested_action: "serialize_or_worktree" });
    expect(readFileSync(join(cwd, "src/a.txt"), "utf8")).toBe("A\n");
    const dir = sessionDirOf(env);
    // Both meetings succeeded: each saw the other's file while it waited.
    for (const id of ["task-1", "task-2"]) expect(workerHistory(dir, id).find((h) => h.name === "shell")?.isError).toBe(false);
    const completes = storeRows(dir).filter((r) => r.t === "msg" && r.msg.type === "completion");
    expect(completes).toHaveLength(2);
    const got = deliveries(mainHistory(dir));
    for (const c of completes) expect(got.get(c.msg.id)).toBe(1);
    expect(updates(rows).filter((u) => u.what === "completed").map((u) => u.taskId).sort()).toEqual(["task-1", "task-2"]);
  }, 120_000);
});
