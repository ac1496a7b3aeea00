// Chord `cancel` against what the reference's cancel pins, with the built yuj
// and real workers: the answer is the task's handle exactly as the
// reference's encoder writes it (expected_write_scope always present); a
// task that already ended keeps its report and the handle says how it ended;
// a blank reason is no reason; a second cancel and an unknown id answer as
// the reference does.

import { describe, expect, it } from "vitest";
import { isolatedEnv, runCli } from "../support/cli.js";
import { delegationProject, rowsOf, sessionDirOf, storeRows, untilLog } from "../support/delegation.js";

const NO_SANDBOX = '[sandbox]\nmode = "off"\n';
const delegateTo = (description: string, file: string) => ({ name: "delegate", arguments: { description, agent_type: "builder", expected_write_scope: { files: [file] } } });
const cancelOf = (args: Record<string, unknown>) => ({ name: "cancel", arguments: args });

describe("chord cancel, as the reference's cancel answers", () => {
  it("completed, failed, running, again, unknown and blank: each answer's exact text; a finished task's report stands", async () => {
    const cwd = delegationProject(
      {
        turns: [
          { tool_calls: [delegateTo("finish quickly", "a.txt"), delegateTo("give up", "b.txt"), delegateTo("slow work", "c.txt")] },
          { tool_calls: [untilLog('"taskId":"task-1","state":"completed"')] },
          { tool_calls: [untilLog('"taskId":"task-2","state":"failed"')] },
          { tool_calls: [{ name: "shell", arguments: { command: "for i in $(seq 1 400); do [ -f started.flag ] && exit 0; sleep 0.05; done; exit 1", description: "wait" } }] },
          {
            tool_calls: [
              cancelOf({ target_task_id: "task-1" }),
              cancelOf({ target_task_id: "task-2", reason: "too late" }),
              cancelOf({ target_task_id: " task-3 ", reason: "   " }),
              cancelOf({ target_task_id: "task-3" }),
              cancelOf({ target_task_id: "task-9" }),
              cancelOf({ target_task_id: "  " }),
            ],
          },
          { text: "done" },
        ],
        agents: {
          "task-1": { turns: [{ tool_calls: [{ name: "complete", arguments: { summary: "finished" } }] }] },
          "task-2": { turns: [{ tool_calls: [{ name: "escalate", arguments: { kind: "blocked", reason: "the disk is read-only" } }] }] },
          "task-3": { turns: [{ tool_calls: [{ name: "shell", arguments: { command: "touch started.flag; sleep 20", description: "slow" } }] }] },
        },
      },
      { toml: NO_SANDBOX },
    );
    const env = isolatedEnv();
    const res = await runCli(["code", "go", "--config", "chord.toml", "--output", "jsonl"], { cwd, env, timeoutMs: 90_000 });
    expect(res.code, res.stderr).toBe(0);
    const rows = rowsOf(res.stdout);
    const agentOf = new Map(
      rows
        .filter((r) => r.type === "tool_result" && r.name === "delegate")
        .map((r) => JSON.parse(r.modelText) as { task_id: string; agent_id: string })
        .map((h) => [h.task_id, h.agent_id]),
    );
    const handle = (status: string, taskId: string, message: string) =>
      `{"status":"${status}","task_id":"${taskId}","agent_id":"${agentOf.get(taskId)}","message":"${message}","expected_write_scope":{}}`;
    const cancels = rows.filter((r) => r.type === "tool_result" && r.name === "cancel").map((r) => [r.ok, r.modelText]);
    expect(cancels).toEqual([
      [true, handle("completed", "task-1", "parked worker already completed")],
      [true, handle("failed", "task-2", "parked worker already failed")],
      [true, handle("cancelled", "task-3", "worker stopped")],
      [true, handle("cancelled", "task-3", "worker already cancelled")],
      [false, 'unknown task_id "task-9"; cannot stop a missing worker (the tasks are task-1, task-2, task-3)'],
      [false, "target_task_id is required: name the task to cancel, e.g. task-1"],
    ]);
    const last = (id: string) => storeRows(sessionDirOf(env)).filter((r) => r.t === "state" && r.taskId === id).at(-1);
    // Nothing rewrites an ended task's outcome; a blank reason records the default.
    expect(last("task-1")).toMatchObject({ state: "completed" });
    expect(last("task-2")).toMatchObject({ state: "failed" });
    expect(last("task-3")).toMatchObject({ state: "cancelled", reason: "cancelled by its owner" });
  }, 120_000);

  it("a failed owner's open workers are still cancelled, each with the reference's cascade reason", async () => {
    const cwd = delegationProject(
      {
        turns: [
          { tool_calls: [{ name: "delegate", arguments: { description: "lead", agent_type: "builder", expected_write_scope: { path_prefix: ["out"] } } }] },
          { tool_calls: [untilLog('"taskId":"task-1","state":"failed"')] },
          { tool_calls: [cancelOf({ target_task_id: "task-1", reason: "clean up" })] },
          { text: "done" },
        ],
        agents: {
          "task-1": {
            turns: [
              { tool_calls: [{ name: "delegate", arguments: { description: "slow part", agent_type: "builder", expected_write_scope: { files: ["out/a.txt"] } } }] },
              { tool_calls: [{ name: "escalate", arguments: { kind: "blocked", reason: "cannot go on" } }] },
            ],
          },
          "task-2": { turns: [{ tool_calls: [{ name: "shell", arguments: { command: "sleep 20", description: "slow" } }] }] },
        },
      },
      { toml: NO_SANDBOX },
    );
    const env = isolatedEnv();
    const res = await runCli(["code", "go", "--config", "chord.toml", "--output", "jsonl"], { cwd, env, timeoutMs: 90_000 });
    expect(res.code, res.stderr).toBe(0);
    const rows = rowsOf(res.stdout);
    const cancel = rows.find((r) => r.type === "tool_result" && r.name === "cancel")!;
    expect(JSON.parse(cancel.modelText)).toMatchObject({ status: "failed", task_id: "task-1", message: "parked worker already failed", expected_write_scope: {} });
    const last = (id: string) => storeRows(sessionDirOf(env)).filter((r) => r.t === "state" && r.taskId === id).at(-1);
    expect(last("task-1")).toMatchObject({ state: "failed" });
    expect(last("task-2")).toMatchObject({ state: "cancelled", reason: "cancelled because ancestor task task-1 was stopped" });
  }, 120_000);
});
