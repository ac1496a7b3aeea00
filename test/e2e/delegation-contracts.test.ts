// What a worker delivers and how it asks: result contracts checked at
// complete (a first violation back to the worker, a second fails the task),
// needs_repair escalations limited to two unanswered, blocked failing the
// task, and a worker that ends without a coordination tool.

import { describe, expect, it } from "vitest";
import { isolatedEnv, runCli } from "../support/cli.js";
import { deliveries, delegationProject, mainHistory, rowsOf, sessionDirOf, storeRows, workerHistory, type Row } from "../support/delegation.js";

const updates = (rows: Row[]) => rows.filter((r) => r.type === "agent_update");
const toolRows = (history: Array<{ role: string; name?: string; text?: string; isError?: boolean }>, name: string) =>
  history.filter((h) => h.role === "tool" && h.name === name);

async function run(cwd: string) {
  const env = isolatedEnv();
  const res = await runCli(["code", "go", "--config", "chord.toml", "--output", "jsonl"], { cwd, env, timeoutMs: 90_000 });
  return { res, rows: rowsOf(res.stdout), dir: sessionDirOf(env) };
}

const delegateTo = (agent_type: string, extra: Record<string, unknown> = {}) => ({
  name: "delegate",
  arguments: { description: "the job", agent_type, expected_write_scope: agent_type === "builder" ? { files: ["x.txt"] } : {}, ...extra },
});

const SCHEMA = { type: "object", required: ["count", "names"], properties: { count: { type: "integer" }, names: { type: "array", items: { type: "string" } } } };

describe("result contracts", () => {
  it("refuses a schema outside the subset at delegation; a first violation goes back to the worker with its paths; a second fails the task", async () => {
    const cwd = delegationProject({
      turns: [
        { tool_calls: [delegateTo("planner", { result_schema: { type: "object", properties: { n: { type: "integer", minimum: 1 } } } })] },
        { tool_calls: [delegateTo("planner", { result_schema: SCHEMA })] },
      ],
      agents: {
        planner: {
          turns: [
            { tool_calls: [{ name: "complete", arguments: { summary: "first try", result: { count: "three", names: ["a", 2] } } }] },
            { tool_calls: [{ name: "complete", arguments: { summary: "second try", result: { names: [] } } }] },
          ],
        },
      },
    });
    const { res, rows, dir } = await run(cwd);
    expect(res.code, res.stderr).toBe(0);
    const delegated = rows.filter((r) => r.type === "tool_result" && r.name === "delegate");
    expect(delegated[0]).toMatchObject({ ok: false });
    expect(delegated[0]!.modelText).toContain("result_schema.properties.n.minimum: not supported");
    expect(delegated[1]).toMatchObject({ ok: true });
    const completes = toolRows(workerHistory(dir, "task-1"), "complete");
    expect(completes[0]!.isError).toBe(true);
    expect(completes[0]!.text).toContain("result.count: expected integer, got string");
    expect(completes[0]!.text).toContain("result.names[1]: expected string, got integer");
    expect(completes[1]!.isError).toBe(true);
    expect(completes[1]!.text).toContain("result.count: required but missing");
    expect(completes[1]!.text).toContain("The task failed.");
    const last = storeRows(dir).filter((r) => r.t === "state" && r.taskId === "task-1").at(-1);
    expect(last).toMatchObject({ state: "failed" });
    expect(last!.reason).toContain("result.count: required but missing");
    expect(updates(rows).find((u) => u.what === "failed")).toMatchObject({ taskId: "task-1" });
    const alert = storeRows(dir).find((r) => r.t === "msg" && r.msg.type === "risk_alert");
    expect(deliveries(mainHistory(dir)).get(alert!.msg.id)).toBe(1);
  }, 120_000);

  it("accepts a valid result and an unreadable result_ref fails the task at once", async () => {
    const cwd = delegationProject({
      turns: [{ tool_calls: [delegateTo("planner", { result_schema: SCHEMA }), delegateTo("explorer", { result_schema: SCHEMA })] }],
      agents: {
        planner: { turns: [{ tool_calls: [{ name: "complete", arguments: { summary: "counted", result: { count: 2, names: ["a", "b"], extra: true } } }] }] },
        explorer: {
          turns: [
            {
              tool_calls: [
                { name: "complete", arguments: { summary: "see ref", result_ref: { id: "sha256-x", result_type: "t", rel_path: "artifacts/results/sha256-x.json", sha256: "00", size_bytes: 3 } } },
              ],
            },
          ],
        },
      },
    });
    const { res, dir } = await run(cwd);
    expect(res.code, res.stderr).toBe(0);
    const final = (id: string) => storeRows(dir).filter((r) => r.t === "state" && r.taskId === id).at(-1);
    expect(final("task-1")).toMatchObject({ state: "completed" });
    expect(final("task-2")).toMatchObject({ state: "failed" });
    expect(final("task-2")!.reason).toContain("result_ref cannot be read back");
    // One attempt only: no violation counted, the worker ran one turn.
    expect(workerHistory(dir, "task-2").filter((h) => h.role === "assistant")).toHaveLength(1);
    const done = storeRows(dir).find((r) => r.t === "msg" && r.msg.type === "completion");
    expect(done!.msg.text).toContain('Result: {"count":2,"names":["a","b"],"extra":true}');
  }, 120_000);
});

describe("escalation", () => {
  it("parks the worker on needs_repair; a third unanswered one is refused with the notice; the owner's reply clears the budget; blocked fails the task", async () => {
    const esc = (reason: string) => ({ tool_calls: [{ name: "escalate", arguments: { kind: "needs_repair", reason } }] });
    const cwd = delegationProject({
      turns: [
        { tool_calls: [delegateTo("builder")] },
        // Busy until the worker has escalated three times, then answers the second escalation.
        { tool_calls: [{ name: "shell", arguments: { command: "for i in $(seq 1 400); do [ -f escalated.flag ] && exit 0; sleep 0.05; done; exit 1", description: "wait" } }] },
        { tool_calls: [{ name: "notify", arguments: { target_task_id: "task-1", message_type: "response", correlation_id: "esc-task-1-2", message: "use x.txt" } }] },
      ],
      agents: {
        builder: {
          turns: [
            esc("one"),
            esc("two"),
            esc("three"),
            { tool_calls: [{ name: "shell", arguments: { command: "touch escalated.flag", description: "flag" } }] },
            { text: "waiting" },
            esc("after the reply"),
            { tool_calls: [{ name: "escalate", arguments: { kind: "blocked", reason: "the disk is read-only" } }] },
          ],
        },
      },
    });
    const { res, rows, dir } = await run(cwd);
    expect(res.code, res.stderr).toBe(0);
    const escalations = toolRows(workerHistory(dir, "task-1"), "escalate");
    expect(escalations.map((e) => e.isError)).toEqual([false, false, true, false, false]);
    expect(escalations[2]!.text).toContain("two needs_repair escalations your owner has not answered");
    expect(escalations[2]!.text).toContain("Make progress independently");
    expect(escalations[2]!.text).toContain("complete");
    const store = storeRows(dir);
    const requests = store.filter((r) => r.t === "msg" && r.msg.type === "request").map((r) => r.msg.correlationId);
    expect(requests).toEqual(["esc-task-1-1", "esc-task-1-2", "esc-task-1-3"]);
    expect(store.filter((r) => r.t === "state" && r.taskId === "task-1").map((r) => r.state)).toContain("waiting_main");
    const last = store.filter((r) => r.t === "state" && r.taskId === "task-1").at(-1);
    expect(last).toMatchObject({ state: "failed", reason: "the disk is read-only" });
    expect(updates(rows).find((u) => u.what === "blocked")).toMatchObject({ taskId: "task-1", text: "the disk is read-only" });
    const alert = store.find((r) => r.t === "msg" && r.msg.type === "risk_alert");
    expect(alert!.msg.subtype).toBe("blocked");
    const got = deliveries(mainHistory(dir));
    for (const r of store.filter((r) => r.t === "msg" && r.msg.to === "main")) expect(got.get(r.msg.id), r.msg.id).toBe(1);
  }, 120_000);
});

describe("a worker that ends without a coordination tool", () => {
  it("gets one follow-up request, then fails with a risk_alert that wakes its owner", async () => {
    const cwd = delegationProject({
      turns: [{ tool_calls: [delegateTo("explorer")] }],
      agents: { explorer: { turns: [{ text: "I looked around." }, { text: "Still nothing to report." }, { text: "never asked" }] } },
    });
    const { res, rows, dir } = await run(cwd);
    expect(res.code, res.stderr).toBe(0);
    const history = workerHistory(dir, "task-1");
    expect(history.filter((h) => h.role === "assistant")).toHaveLength(2);
    expect(history.filter((h) => h.role === "user" && h.text?.includes("without a coordination tool"))).toHaveLength(1);
    const last = storeRows(dir).filter((r) => r.t === "state" && r.taskId === "task-1").at(-1);
    expect(last).toMatchObject({ state: "failed" });
    expect(last!.reason).toContain("also after the follow-up request");
    const alert = storeRows(dir).find((r) => r.t === "msg" && r.msg.type === "risk_alert");
    expect(deliveries(mainHistory(dir)).get(alert!.msg.id)).toBe(1);
    expect(updates(rows).some((u) => u.what === "failed")).toBe(true);
  }, 120_000);
});
