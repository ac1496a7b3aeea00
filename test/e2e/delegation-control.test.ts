// Talking to workers and steering them: the three notify forms (and the
// forms refused), a finished worker resumed on its own transcript by a
// targeted message, cancel (a cancelled task is not resumable), the roles
// delegate offers, the scope each role must declare, and the permission
// rules' hold on delegate (YOLO never sweeps it aside; denying it takes
// cancel away).

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isolatedEnv, runCli } from "../support/cli.js";
import { startSseServer } from "../support/sse-server.js";
import { parseScenario } from "../../core/providers/scenario.js";
import { deliveries, delegationProject, mainHistory, rowsOf, sessionDirOf, storeRows, workerHistory, type Row } from "../support/delegation.js";

const NO_SANDBOX = "[sandbox]\nmode = \"off\"\n";
const results = (rows: Row[], name: string) => rows.filter((r) => r.type === "tool_result" && r.name === name);

async function run(cwd: string, extra: string[] = []) {
  const env = isolatedEnv();
  const res = await runCli(["code", "go", "--config", "chord.toml", "--output", "jsonl", ...extra], { cwd, env, timeoutMs: 90_000 });
  return { res, rows: rowsOf(res.stdout), dir: sessionDirOf(env) };
}

// The main agent waits (a command, at most 20 s) until the session's log holds `count` completions.
const untilCompletions = (count: number) => ({
  name: "shell",
  arguments: {
    description: "wait",
    command: `for i in $(seq 1 400); do [ "$(cat "$XDG_STATE_HOME"/yuj/sessions/*/orchestration.jsonl | grep -c '"type":"completion"')" -ge ${count} ] && exit 0; sleep 0.05; done; exit 1`,
  },
});
const build = (file: string, description = `write ${file}`) => ({ name: "delegate", arguments: { description, agent_type: "builder", expected_write_scope: { files: [file] } } });

describe("notify, resume and cancel", () => {
  it("refuses the malformed forms; a plain message resumes a finished worker on its own transcript; a cancelled task cannot be messaged", async () => {
    const cwd = delegationProject(
      {
        turns: [
          { tool_calls: [build("a.txt")] },
          {
            tool_calls: [
              { name: "notify", arguments: { message: "an update from main" } },
              { name: "notify", arguments: { target_task_id: "task-1", message: "x", message_type: "progress" } },
              { name: "notify", arguments: { target_task_id: "task-1", message: "x", message_type: "response" } },
              { name: "notify", arguments: { target_task_id: "task-1", message: "x", message_type: "response", correlation_id: "c-1", payload: { option: "a" } } },
              untilCompletions(1),
            ],
          },
          { tool_calls: [{ name: "notify", arguments: { target_task_id: "task-1", message: "also write b.txt", kind: "follow_up" } }, untilCompletions(2)] },
          {
            tool_calls: [
              build("c.txt"),
              { name: "cancel", arguments: { target_task_id: "task-2", reason: "changed my mind" } },
              { name: "notify", arguments: { target_task_id: "task-2", message: "hello?" } },
            ],
          },
        ],
        agents: {
          "task-1": {
            turns: [
              { tool_calls: [{ name: "write", arguments: { path: "a.txt", content: "A\n" } }] },
              { tool_calls: [{ name: "complete", arguments: { summary: "wrote a.txt" } }] },
              { tool_calls: [{ name: "write", arguments: { path: "b.txt", content: "B\n" } }] },
              { tool_calls: [{ name: "complete", arguments: { summary: "wrote b.txt" } }] },
            ],
          },
          "task-2": { turns: [{ tool_calls: [{ name: "shell", arguments: { command: "sleep 30", description: "slow" } }] }] },
        },
      },
      { toml: NO_SANDBOX },
    );
    const { res, rows, dir } = await run(cwd);
    expect(res.code, res.stderr).toBe(0);
    const notes = results(rows, "notify");
    expect(notes.map((n) => n.ok)).toEqual([false, false, false, false, true, false]);
    expect(notes[0]!.modelText).toContain("the main agent has no owner to update");
    expect(notes[1]!.modelText).toContain("plain targeted notify accepts message and kind");
    // The words Chord's own errors carry for these two forms.
    expect(notes[1]!.modelText).toContain("structured replies require");
    expect(notes[2]!.modelText).toContain("needs the correlation_id");
    expect(notes[3]!.modelText).toContain("unavailable for response");
    expect(notes[5]!.modelText).toContain("was cancelled; a message must not undo that decision");
    // The resumed worker saw its first run and the message, in one transcript.
    const history = workerHistory(dir, "task-1");
    const texts = history.map((h) => h.text ?? "");
    const first = texts.findIndex((t) => t.includes("Completed task-1"));
    const message = texts.findIndex((t) => t.includes("also write b.txt"));
    expect(first).toBeGreaterThan(0);
    expect(message).toBeGreaterThan(first);
    expect(texts[message]).toContain("[follow_up] ");
    const store = storeRows(dir);
    const completes = store.filter((r) => r.t === "msg" && r.msg.type === "completion");
    expect(completes.map((c) => c.msg.text.split("\n")[0])).toEqual(["wrote a.txt", "wrote b.txt"]);
    const got = deliveries(mainHistory(dir));
    for (const c of completes) expect(got.get(c.msg.id)).toBe(1);
    expect(store.filter((r) => r.t === "state" && r.taskId === "task-2").at(-1)).toMatchObject({ state: "cancelled", reason: "changed my mind" });
    expect(results(rows, "cancel")[0]).toMatchObject({ ok: true });
    expect(rows.some((r) => r.type === "agent_update" && r.taskId === "task-2" && r.what === "cancelled")).toBe(true);
  }, 120_000);
});

describe("roles, scopes and rules", () => {
  it("offers only the roles the rules allow; a writing role needs a scope, a read-only one may declare one or none; the live limit holds", async () => {
    const cwd = delegationProject(
      {
        turns: [
          {
            tool_calls: [
              { name: "delegate", arguments: { description: "plan", agent_type: "planner", expected_write_scope: {} } },
              { name: "delegate", arguments: { description: "build", agent_type: "builder", expected_write_scope: {} } },
              { name: "delegate", arguments: { description: "look", agent_type: "explorer", expected_write_scope: { files: ["a.txt"] } } },
              build("a.txt"),
              build("b.txt"),
            ],
          },
        ],
        agents: {
          builder: { turns: [{ tool_calls: [{ name: "complete", arguments: { summary: "ok" } }] }] },
          // The explorer parks on a question, so it holds its place for the whole batch.
          explorer: { turns: [{ tool_calls: [{ name: "escalate", arguments: { kind: "needs_repair", reason: "which part?" } }] }] },
        },
      },
      {
        toml: "[orchestration]\nmax_live_runtimes = 2\n",
        rules: '[[permissions.rules]]\ntool = "delegate"\naction = "allow"\n[[permissions.rules]]\ntool = "delegate"\npattern = "planner"\naction = "deny"\n',
      },
    );
    const { res, rows } = await run(cwd);
    expect(res.code, res.stderr).toBe(0);
    const [planner, emptyBuilder, scopedExplorer, first, second] = results(rows, "delegate");
    expect(planner!.ok).toBe(false);
    expect(planner!.modelText).toContain('denied by rule {tool="delegate", pattern="planner", action="deny"}');
    expect(emptyBuilder!.modelText).toContain("expected_write_scope is required: this task must either declare at least one of files/path_prefix/modules");
    // As in the reference, a read-only role may declare a scope: it is coordination metadata only.
    expect(JSON.parse(scopedExplorer!.modelText)).toMatchObject({ status: "started", expected_write_scope: { files: ["a.txt"] } });
    expect(first!.ok).toBe(true);
    expect(second!.modelText).toContain("[orchestration].max_live_runtimes");
  }, 120_000);

  it("lists the allowed roles as agent_type's enum in the request the provider gets", async () => {
    const server = await startSseServer({ scenario: parseScenario({ turns: [{ text: "nothing to do" }] }) });
    try {
      const cwd = delegationProject(
        { turns: [{ text: "unused" }] },
        { rules: '[[permissions.rules]]\ntool = "delegate"\naction = "allow"\n[[permissions.rules]]\ntool = "delegate"\npattern = "planner"\naction = "deny"\n' },
      );
      const env = isolatedEnv({ ANTHROPIC_API_KEY: "sk-ant-test-key-0000" });
      const args = ["code", "go", "--config", "chord.toml", "--provider", "anthropic", "--model", "m", "--base-url", server.baseUrlFor("anthropic"), "--output", "jsonl"];
      const res = await runCli(args, { cwd, env });
      expect(res.code, res.stderr).toBe(0);
      const body = server.requests.find((r) => r.method === "POST")!.body as { tools: Array<{ name: string; input_schema: any }> };
      const delegate = body.tools.find((t) => t.name === "delegate")!;
      expect(delegate.input_schema.properties.agent_type.enum).toEqual(["builder", "explorer"]);
      expect(body.tools.map((t) => t.name)).toContain("cancel");
    } finally {
      await server.close();
    }
  }, 60_000);

  it("with delegate denied (the baseline) neither delegate nor cancel is offered", async () => {
    const cwd = delegationProject({ turns: [{ text: "nothing to do" }] }, { rules: "" });
    const { res, rows } = await run(cwd);
    expect(res.code, res.stderr).toBe(0);
    const tools: string[] = JSON.parse(rows.find((r) => r.type === "provider_request")!.body).tools;
    expect(tools).toContain("notify");
    expect(tools).not.toContain("delegate");
    expect(tools).not.toContain("cancel");
    expect(tools).not.toContain("complete");
  }, 60_000);

  it("with delegate denied, a rule allowing cancel still does not bring it back, and a worker is offered neither delegate nor cancel", async () => {
    const denyDelegateAllowCancel = '[[permissions.rules]]\ntool = "cancel"\naction = "allow"\n';
    const cwd = delegationProject({ turns: [{ tool_calls: [{ name: "cancel", arguments: { target_task_id: "task-1" } }] }, { text: "nothing to do" }] }, { rules: denyDelegateAllowCancel });
    const { res, rows } = await run(cwd, ["--yolo"]);
    expect(res.code, res.stderr).toBe(0);
    const tools: string[] = JSON.parse(rows.find((r) => r.type === "provider_request")!.body).tools;
    expect(tools).not.toContain("delegate");
    expect(tools).not.toContain("cancel");
    const [cancel] = results(rows, "cancel");
    expect(cancel!.ok).toBe(false);
    expect(cancel!.modelText).not.toContain("Cancelled");

    // With delegate allowed but [orchestration].max_depth = 1, the worker's own requests carry neither: delegation does not nest.
    const nested = delegationProject(
      {
        turns: [{ tool_calls: [build("a.txt")] }],
        agents: { builder: { turns: [{ tool_calls: [{ name: "complete", arguments: { summary: "ok" } }] }] } },
      },
      { toml: "[orchestration]\nmax_depth = 1\n" },
    );
    const second = await run(nested);
    expect(second.res.code, second.res.stderr).toBe(0);
    const workerTrace = rowsOf(readFileSync(join(second.dir, "tasks", "task-1", "trace.jsonl"), "utf8"));
    const workerTools: string[] = JSON.parse(workerTrace.find((r) => r.type === "provider_request")!.body).tools;
    expect(workerTools).toContain("complete");
    expect(workerTools).not.toContain("delegate");
    expect(workerTools).not.toContain("cancel");
  }, 90_000);

  it("YOLO does not sweep an ask on delegate aside: the run pauses for the approval", async () => {
    const cwd = delegationProject({ turns: [{ tool_calls: [build("a.txt")] }] }, { rules: '[[permissions.rules]]\ntool = "delegate"\naction = "ask"\n' });
    const { rows } = await run(cwd, ["--yolo"]);
    expect(rows.find((r) => r.type === "run_finished")).toMatchObject({ reason: "approval_required" });
    expect(results(rows, "delegate")).toEqual([]);
  }, 60_000);
});
