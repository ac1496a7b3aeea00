// Chord delegate against the reference's own delegate tests, through the
// built `yuj` with real workers: the scope is normalised (trimmed, blanks
// dropped, repeats removed) and a writing role's empty scope is refused
// with the read-only roles named; an empty, unknown or main-mode agent_type
// answers with the subagent types there are; a started handle says the
// worker is "running in background"; a read-only role may declare a scope
// and never clashes; a probable repeat (the same opening words, the same
// plan_task_ref) starts with a hint to notify or cancel; an overlap with a
// live writing task starts with the serialize_or_worktree hint; and past
// [orchestration].max_live_runtimes the reference's words refuse it.

import { describe, expect, it } from "vitest";
import { isolatedEnv, runCli } from "../support/cli.js";
import { startSseServer } from "../support/sse-server.js";
import { parseScenario } from "../../core/providers/scenario.js";
import { delegationProject, rowsOf } from "../support/delegation.js";

const d = (agent_type: string, description: string, expected_write_scope: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  name: "delegate",
  arguments: { description, agent_type, expected_write_scope, ...extra },
});

// Every worker parks at once on a question, so each task stays live for the whole batch.
const park = { turns: [{ tool_calls: [{ name: "escalate", arguments: { kind: "needs_repair", reason: "waiting" } }] }] };
const BOSS = 'description = "Leads the session."\nmode = "main"\nread_only = false\n';
const AGENT = /^task-\d+\.[a-z0-9]+$/;

describe("chord delegate: checks, handles and hints as the reference's delegate tests pin them", () => {
  it("refuses, starts and annotates each call in the reference's words", async () => {
    const cwd = delegationProject(
      {
        turns: [
          {
            tool_calls: [
              d("builder", "write a", { files: ["  "] }),
              d("", "write a", { files: ["a.txt"] }),
              d("wizard", "write a", { files: ["a.txt"] }),
              d("boss", "write a", { files: ["a.txt"] }),
              d("explorer", "Look at a.ts", { files: ["src/a.ts"] }),
              d("builder", "Fix the parser bug.", { files: [" src/a.ts ", "src/a.ts", ""], modules: [" "] }),
              d("builder", "FIX the Parser  bug!!", { files: ["src/b.ts"] }),
              d("builder", "refactor the lexer", { path_prefix: ["src"] }),
              d("builder", "write the guide", { files: ["docs/a.md"] }, { plan_task_ref: "plan-7" }),
              d("builder", "write the index", { files: ["docs/b.md"] }, { plan_task_ref: "plan-7" }),
              d("builder", "one too many", { files: ["c.txt"] }),
            ],
          },
          { text: "done" },
        ],
        agents: { builder: park, explorer: park },
      },
      { files: { ".yuj/agents/boss.toml": BOSS }, toml: '[sandbox]\nmode = "off"\n[orchestration]\nmax_live_runtimes = 6\n' },
    );
    const env = isolatedEnv();
    const res = await runCli(["code", "go", "--config", "chord.toml", "--output", "jsonl"], { cwd, env, timeoutMs: 90_000 });
    expect(res.code, res.stderr).toBe(0);
    const results = rowsOf(res.stdout).filter((r) => r.type === "tool_result" && r.name === "delegate");
    expect(results).toHaveLength(11);
    const [blank, empty, unknown, mainMode, explorer, first, repeat, overlap, guide, index, beyond] = results;
    expect([blank!.ok, blank!.modelText]).toEqual([
      false,
      "delegate refused: expected_write_scope is required: this task must either declare at least one of files/path_prefix/modules covering what it plans to write, " +
        "or use an agent_type whose role registers no file-writing tools and pass an empty object {}. Available read-only agent types: explorer, planner",
    ]);
    expect([empty!.ok, empty!.modelText]).toEqual([false, "delegate refused: agent_type is required; available types: [builder explorer planner]"]);
    expect([unknown!.ok, unknown!.modelText]).toEqual([
      false,
      'delegate refused: unknown agent type "wizard"; available subagent types: [builder explorer planner] ' +
        "(builder non_empty_scope=required, explorer empty_scope=allowed, planner empty_scope=allowed)",
    ]);
    expect([mainMode!.ok, mainMode!.modelText]).toEqual([
      false,
      'delegate refused: agent "boss" has mode "main" and cannot be used as a SubAgent; only subagent-mode agents are allowed',
    ]);
    // A read-only role may declare a scope; it never writes, so it clashes with nobody.
    expect(JSON.parse(explorer!.modelText)).toEqual({
      status: "started",
      task_id: "task-1",
      agent_id: expect.stringMatching(AGENT),
      message: "running in background",
      semantic_task_key: "look at a ts",
      expected_write_scope: { files: ["src/a.ts"] },
    });
    const firstHandle = JSON.parse(first!.modelText);
    expect(firstHandle).toEqual({
      status: "started",
      task_id: "task-2",
      agent_id: expect.stringMatching(AGENT),
      message: "running in background",
      semantic_task_key: "fix the parser bug",
      expected_write_scope: { files: ["src/a.ts"] },
    });
    expect(first!.modelText).toBe(JSON.stringify(firstHandle));
    expect(JSON.parse(repeat!.modelText)).toEqual({
      status: "started",
      task_id: "task-3",
      agent_id: expect.stringMatching(AGENT),
      message:
        "task started, but it may duplicate an earlier task task-2 from the same caller: if both are the same deliverable, " +
        "continue that task with notify (target_task_id=task-2) and cancel this new one instead of running both; otherwise ignore this note and let the new task run",
      semantic_task_key: "fix the parser bug",
      expected_write_scope: { files: ["src/b.ts"] },
      suggested_task_id: "task-2",
      suggested_agent_id: firstHandle.agent_id,
      suggested_action: "notify_existing_if_same_deliverable",
      duplicate_detected: true,
    });
    expect(JSON.parse(overlap!.modelText)).toEqual({
      status: "started",
      task_id: "task-4",
      agent_id: expect.stringMatching(AGENT),
      message:
        "task started, but its declared write scope overlaps the still-active task task-2: both workers may edit the same files, so run them serially, " +
        "coordinate the shared edits with that task via notify (target_task_id=task-2), or move this work to its own git worktree before touching the same paths",
      semantic_task_key: "refactor the lexer",
      expected_write_scope: { path_prefix: ["src"] },
      scope_conflict: true,
      suggested_task_id: "task-2",
      suggested_agent_id: firstHandle.agent_id,
      suggested_action: "serialize_or_worktree",
    });
    expect(JSON.parse(guide!.modelText)).toMatchObject({ status: "started", task_id: "task-5", message: "running in background", plan_task_ref: "plan-7" });
    expect(JSON.parse(index!.modelText)).toMatchObject({
      status: "started",
      task_id: "task-6",
      plan_task_ref: "plan-7",
      suggested_task_id: "task-5",
      suggested_action: "notify_existing_if_same_deliverable",
      duplicate_detected: true,
    });
    expect([beyond!.ok, beyond!.modelText]).toEqual([
      false,
      "delegate refused: max concurrent agents reached (cap=6), wait for a running agent to complete: 6 workers are live, the most [orchestration].max_live_runtimes allows; or cancel one",
    ]);
  }, 120_000);

  it("describes each role in agent_type with its empty-scope rule, as the reference's schema does", async () => {
    const server = await startSseServer({ scenario: parseScenario({ turns: [{ text: "nothing to do" }] }) });
    try {
      const cwd = delegationProject({ turns: [{ text: "unused" }] });
      const env = isolatedEnv({ ANTHROPIC_API_KEY: "sk-ant-test-key-0000" });
      const args = ["code", "go", "--config", "chord.toml", "--provider", "anthropic", "--model", "m", "--base-url", server.baseUrlFor("anthropic"), "--output", "jsonl"];
      const res = await runCli(args, { cwd, env });
      expect(res.code, res.stderr).toBe(0);
      const body = server.requests.find((r) => r.method === "POST")!.body as { tools: Array<{ name: string; input_schema: any }> };
      const schema = body.tools.find((t) => t.name === "delegate")!.input_schema;
      expect(schema.properties.agent_type.description).toBe(
        "Agent type to use for this task. Available types:\n" +
          "- builder: Implements a change in the files of its declared scope, checks it, and reports what it did. [non_empty_scope=required]\n" +
          "- explorer: Reads and searches the project to answer a question; changes nothing. [empty_scope=allowed]\n" +
          "- planner: Reads the project and writes a step-by-step plan for a change; changes nothing. [empty_scope=allowed]\n",
      );
      expect(schema.required).toEqual(["description", "agent_type", "expected_write_scope"]);
    } finally {
      await server.close();
    }
  }, 60_000);
});
