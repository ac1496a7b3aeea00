// The Chord behaviour its own tests outside the tool folder pin (the agent
// runtime's tests of delegation, workers and their tools), on the Chord
// surface with real processes and a real session: each reading agent reads
// a background job through its own cursor, so the main agent and a worker
// reading one job each see all of its output; and a worker's owner update and
// escalations answer in the words of the reference's own tools.

import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isolatedEnv, runCli } from "../support/cli.js";
import { delegationProject, untilLog, mainHistory, rowsOf, sessionDirOf, storeRows, workerHistory } from "../support/delegation.js";
import { chordDoneTool } from "../../tools/chord/done.js";
import { chordCall } from "../support/chord-call.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
});
afterEach(() => t.cleanup());

/** Prints `one`, waits until a file `go` exists, prints `two`. */
const GATED = "printf 'one\\n'; while [ ! -e go ]; do sleep 0.05; done; printf 'two\\n'";

describe("chord job reads: a cursor per reading agent", () => {
  it("the main agent and a worker read one job: each sees every line once, and a read of one never takes the other's", async () => {
    const cwd = delegationProject(
      {
        turns: [
          { tool_calls: [{ name: "shell", arguments: { command: GATED, run_in_background: true, description: "gated job" } }] },
          { tool_calls: [{ name: "job_output", arguments: { job_id: "j1", wait: "output" } }] },
          { tool_calls: [{ name: "delegate", arguments: { description: "release the job", agent_type: "builder", expected_write_scope: { files: ["go"] } } }] },
          { tool_calls: [{ name: "job_output", arguments: { job_id: "j1", wait: "exit" } }] },
          { tool_calls: [{ name: "job_output", arguments: { job_id: "j1" } }] },
        ],
        agents: {
          "task-1": {
            turns: [
              { tool_calls: [{ name: "job_output", arguments: { job_id: "j1" } }] },
              { tool_calls: [{ name: "shell", arguments: { command: "touch go", description: "release" } }] },
              { tool_calls: [{ name: "job_output", arguments: { job_id: "j1", wait: "exit" } }] },
              { tool_calls: [{ name: "job_output", arguments: { job_id: "j1" } }] },
              { tool_calls: [{ name: "complete", arguments: { summary: "released the job" } }] },
            ],
          },
        },
      },
      { toml: '[sandbox]\nmode = "off"\n' },
    );
    const env = isolatedEnv();
    const res = await runCli(["code", "go", "--config", "chord.toml", "--output", "jsonl"], { cwd, env, timeoutMs: 60_000 });
    expect(res.code, res.stderr).toBe(0);
    const mainReads = rowsOf(res.stdout)
      .filter((r) => r.type === "tool_result" && r.name === "job_output")
      .map((r) => r.modelText);
    expect(mainReads).toEqual(["one\n[status: running]", "two\n[status: completed (exit code 0)]", "[status: completed (exit code 0)]"]);
    const worker = workerHistory(sessionDirOf(env), "task-1");
    const workerReads = worker.filter((h) => h.role === "tool" && h.name === "job_output").map((h) => h.text);
    expect(workerReads).toEqual(["one\n[status: running]", "two\n[status: completed (exit code 0)]", "[status: completed (exit code 0)]"]);
  }, 90_000);

  it("polling is counted per reading agent: the main agent's empty reads do not bring a worker's first read closer to refusal", async () => {
    const cwd = delegationProject(
      {
        turns: [
          { tool_calls: [{ name: "shell", arguments: { command: "while [ ! -e go ]; do sleep 0.05; done", run_in_background: true, description: "quiet job" } }] },
          { tool_calls: [{ name: "job_output", arguments: { job_id: "j1" } }] },
          { tool_calls: [{ name: "job_output", arguments: { job_id: "j1" } }] },
          { tool_calls: [{ name: "delegate", arguments: { description: "release the job", agent_type: "builder", expected_write_scope: { files: ["go"] } } }] },
        ],
        agents: {
          "task-1": {
            turns: [
              { tool_calls: [{ name: "job_output", arguments: { job_id: "j1" } }] },
              { tool_calls: [{ name: "shell", arguments: { command: "touch go", description: "release" } }] },
              { tool_calls: [{ name: "complete", arguments: { summary: "released the job" } }] },
            ],
          },
        },
      },
      { toml: '[sandbox]\nmode = "off"\n' },
    );
    const env = isolatedEnv();
    const res = await runCli(["code", "go", "--config", "chord.toml", "--output", "jsonl"], { cwd, env, timeoutMs: 60_000 });
    expect(res.code, res.stderr).toBe(0);
    const mainReads = rowsOf(res.stdout).filter((r) => r.type === "tool_result" && r.name === "job_output");
    expect(mainReads.map((r) => r.modelText)).toEqual([
      "[status: running]",
      expect.stringMatching(/^\[notice\] no new output across 2 consecutive non-blocking reads; stop polling\. .*\n\[status: running\]$/s),
    ]);
    const worker = workerHistory(sessionDirOf(env), "task-1");
    expect(worker.filter((h) => h.role === "tool" && h.name === "job_output").map((h) => [h.isError ?? false, h.text])).toEqual([[false, "[status: running]"]]);
  }, 90_000);

  it("without delegation the session's one agent reads each line once", async () => {
    const started = await chordCall(t, "shell", { command: "printf 'a\\nb\\n'", run_in_background: true });
    const id = /\bj\d+\b/.exec(started.text)![0];
    await t.ctx.jobs!.wait(id, "exit", 30_000);
    expect((await chordCall(t, "job_output", { job_id: id })).text).toBe("a\nb\n[status: completed (exit code 0)]");
    expect((await chordCall(t, "job_output", { job_id: id })).text).toBe("[status: completed (exit code 0)]");
  });
});

describe("chord worker coordination results, in the reference's words", () => {
  it("an owner update, a needs_repair and a blocked escalation answer the worker as the reference's tools do; a blank reason or message is refused by the schema", async () => {
    const cwd = delegationProject(
      {
        turns: [{ tool_calls: [{ name: "delegate", arguments: { description: "write a.txt", agent_type: "builder", expected_write_scope: { files: ["a.txt"] } } }] }],
        agents: {
          "task-1": {
            turns: [
              { tool_calls: [{ name: "notify", arguments: { message: "halfway there" } }] },
              { tool_calls: [{ name: "notify", arguments: { message: "  " } }] },
              { tool_calls: [{ name: "escalate", arguments: { kind: "needs_repair", reason: " " } }] },
              { tool_calls: [{ name: "escalate", arguments: { kind: "needs_repair", reason: "which file?" } }] },
              { tool_calls: [{ name: "escalate", arguments: { kind: "blocked", reason: "the disk is read-only" } }] },
            ],
          },
        },
      },
      { toml: '[sandbox]\nmode = "off"\n' },
    );
    const env = isolatedEnv();
    const res = await runCli(["code", "go", "--config", "chord.toml", "--output", "jsonl"], { cwd, env, timeoutMs: 60_000 });
    expect(res.code, res.stderr).toBe(0);
    const worker = workerHistory(sessionDirOf(env), "task-1");
    const results = worker.filter((h) => h.role === "tool").map((h) => [h.name, h.isError ?? false, h.text]);
    expect(results).toEqual([
      ["notify", false, "Owner coordination chain has been notified. Continue working."],
      ["notify", true, "ERROR: bad arguments for notify: message must be at least 1 character long"],
      ["escalate", true, "ERROR: bad arguments for escalate: reason must be at least 1 character long"],
      ["escalate", false, "The parent-agent coordination chain has been notified. This task will wait for its direct owner's reply."],
      ["escalate", false, "The parent-agent coordination chain has been notified that this task is blocked."],
    ]);
  }, 90_000);
});

describe("chord done, as the reference's tool counts the report", () => {
  it("counts the trimmed report in bytes, as the reference does: a report in Chinese is three bytes a character", async () => {
    const r = await chordDoneTool.run({ report: " 修复完成：测试通过 " }, t.ctx);
    expect(r).toMatchObject({ ok: true, modelText: "Done requested: report received (27 chars)", finish: { message: "修复完成：测试通过" } });
  });
});

const sha = (text: string) => createHash("sha256").update(text).digest("hex");
/** The ResultRef save_artifact returns for {ok: true} as type "survey": its id covers the type and the canonical JSON's digest. */
const SURVEY_REF = (() => {
  const digest = sha('{"ok":true}\n');
  const id = `sha256-${sha(`survey\0${digest}`)}`;
  return { id, result_type: "survey", rel_path: `artifacts/results/${id}.json`, sha256: digest, size_bytes: 12 };
})();

describe("chord artifacts a worker saves", () => {
  it("are kept in the session's artifacts (under subagents/<task_id>/), where the owner's read_artifact and the ref the worker got both find them", async () => {
    const cwd = delegationProject(
      {
        turns: [
          { tool_calls: [{ name: "delegate", arguments: { description: "survey", agent_type: "builder", expected_write_scope: { files: ["a.txt"] } } }] },
          { tool_calls: [{ name: "shell", arguments: { command: "for i in $(seq 1 400); do [ -f saved.flag ] && exit 0; sleep 0.05; done; exit 1", description: "wait" } }] },
          { tool_calls: [{ name: "read_artifact", arguments: { path: "artifacts/subagents/task-1/report.md" } }] },
        ],
        agents: {
          "task-1": {
            turns: [
              { tool_calls: [{ name: "save_artifact", arguments: { filename: "report.md", content: "# Findings\nall good\n", type: "research_report" } }] },
              { tool_calls: [{ name: "read_artifact", arguments: { path: "artifacts/subagents/task-1/report.md" } }] },
              { tool_calls: [{ name: "shell", arguments: { command: "touch saved.flag", description: "flag" } }] },
              { tool_calls: [{ name: "save_artifact", arguments: { result_type: "survey", result: { ok: true } } }] },
              { tool_calls: [{ name: "complete", arguments: { summary: "saved the report", result_ref: SURVEY_REF } }] },
            ],
          },
        },
      },
      { toml: '[sandbox]\nmode = "off"\n' },
    );
    const env = isolatedEnv();
    const res = await runCli(["code", "go", "--config", "chord.toml", "--output", "jsonl"], { cwd, env, timeoutMs: 60_000 });
    expect(res.code, res.stderr).toBe(0);
    const dir = sessionDirOf(env);
    // The stored result is the session's too, and complete's result_ref reads it back for the owner.
    expect(readFileSync(join(dir, SURVEY_REF.rel_path), "utf8")).toBe('{"ok":true}\n');
    expect(mainHistory(dir).some((h) => h.role === "user" && (h.text ?? "").includes('Result: {"ok":true}'))).toBe(true);
    const digest = createHash("sha256").update("# Findings\nall good\n").digest("hex");
    const worker = workerHistory(sessionDirOf(env), "task-1").filter((h) => h.role === "tool");
    expect(JSON.parse(worker[0]!.text!)).toMatchObject({ id: "report", type: "research_report", rel_path: "artifacts/subagents/task-1/report.md", size_bytes: 20, sha256: digest });
    const page = `ARTIFACT_RESULT lines=1-2 total=2 sha256=${digest}\n# Findings\nall good\n`;
    expect(worker[1]!.text).toBe(page);
    const mainRead = rowsOf(res.stdout).find((r) => r.type === "tool_result" && r.name === "read_artifact");
    expect([mainRead?.ok, mainRead?.modelText]).toEqual([true, page]);
    expect(readFileSync(join(sessionDirOf(env), "artifacts", "subagents", "task-1", "report.md"), "utf8")).toBe("# Findings\nall good\n");
  }, 90_000);
});

describe("chord delegate with an overlapping scope", () => {
  it("still starts, and the handle's message says to serialize, coordinate through notify, or use a worktree", async () => {
    const cwd = delegationProject(
      {
        turns: [
          {
            tool_calls: [
              { name: "delegate", arguments: { description: "fix agent wiring", agent_type: "builder", expected_write_scope: { path_prefix: ["src"] } } },
              { name: "delegate", arguments: { description: "extract helpers", agent_type: "builder", expected_write_scope: { files: ["src/main.ts"] } } },
            ],
          },
        ],
        agents: {
          "task-1": { turns: [{ tool_calls: [{ name: "complete", arguments: { summary: "done one" } }] }] },
          "task-2": { turns: [{ tool_calls: [{ name: "complete", arguments: { summary: "done two" } }] }] },
        },
      },
      { toml: '[sandbox]\nmode = "off"\n' },
    );
    const res = await runCli(["code", "go", "--config", "chord.toml", "--output", "jsonl"], { cwd, env: isolatedEnv(), timeoutMs: 60_000 });
    expect(res.code, res.stderr).toBe(0);
    const [first, second] = rowsOf(res.stdout)
      .filter((r) => r.type === "tool_result" && r.name === "delegate")
      .map((r) => JSON.parse(r.modelText));
    expect(first.message).not.toContain("overlaps");
    expect(second).toMatchObject({ status: "started", task_id: "task-2", scope_conflict: true, suggested_task_id: "task-1", suggested_action: "serialize_or_worktree" });
    expect(second.message).toBe(
      "task started, but its declared write scope overlaps the still-active task task-1: both workers may edit the same files, so run them serially, " +
        "coordinate the shared edits with that task via notify (target_task_id=task-1), or move this work to its own git worktree before touching the same paths",
    );
  }, 90_000);
});

describe("chord delegate with the explicit semantic_task_key of a live task", () => {
  it("starts nothing and answers already_exists, pointing at the task to continue with notify", async () => {
    const key = { semantic_task_key: "fix-parser" };
    const cwd = delegationProject(
      {
        turns: [
          {
            tool_calls: [
              { name: "delegate", arguments: { description: "fix the parser", agent_type: "builder", expected_write_scope: { files: ["parser.ts"] }, ...key } },
              { name: "delegate", arguments: { description: "repair parser.ts", agent_type: "builder", expected_write_scope: { files: ["lexer.ts"] }, ...key } },
            ],
          },
        ],
        agents: { "task-1": { turns: [{ tool_calls: [{ name: "complete", arguments: { summary: "fixed" } }] }] } },
      },
      { toml: '[sandbox]\nmode = "off"\n' },
    );
    const env = isolatedEnv();
    const res = await runCli(["code", "go", "--config", "chord.toml", "--output", "jsonl"], { cwd, env, timeoutMs: 60_000 });
    expect(res.code, res.stderr).toBe(0);
    const [first, second] = rowsOf(res.stdout)
      .filter((r) => r.type === "tool_result" && r.name === "delegate")
      .map((r) => JSON.parse(r.modelText));
    expect(first).toMatchObject({ status: "started", task_id: "task-1", semantic_task_key: "fix-parser" });
    expect(second).toMatchObject({
      status: "already_exists",
      task_id: "task-1",
      agent_id: first.agent_id,
      message: "a task with the same explicit semantic_task_key already exists; continue it with `notify` instead of creating a duplicate delegate",
      semantic_task_key: "fix-parser",
      expected_write_scope: { files: ["parser.ts"] },
      suggested_task_id: "task-1",
      suggested_agent_id: first.agent_id,
      suggested_action: "notify_existing",
      duplicate_detected: true,
    });
    expect(storeRows(sessionDirOf(env)).filter((r) => r.t === "delegated")).toHaveLength(1);
  }, 90_000);
});

describe("chord cancel answers with the task's handle", () => {
  it("a live worker: cancelled, worker stopped; again: worker already cancelled; an unknown id cannot be stopped", async () => {
    const cwd = delegationProject(
      {
        turns: [
          { tool_calls: [{ name: "delegate", arguments: { description: "slow work", agent_type: "builder", expected_write_scope: { files: ["a.txt"] } } }] },
          { tool_calls: [{ name: "shell", arguments: { command: "for i in $(seq 1 400); do [ -f started.flag ] && exit 0; sleep 0.05; done; exit 1", description: "wait" } }] },
          {
            tool_calls: [
              { name: "cancel", arguments: { target_task_id: "task-1", reason: "changed my mind" } },
              { name: "cancel", arguments: { target_task_id: "task-1" } },
              { name: "cancel", arguments: { target_task_id: "task-9" } },
            ],
          },
        ],
        agents: {
          "task-1": {
            turns: [
              { tool_calls: [{ name: "shell", arguments: { command: "touch started.flag; sleep 20", description: "slow" } }] },
              { tool_calls: [{ name: "complete", arguments: { summary: "never" } }] },
            ],
          },
        },
      },
      { toml: '[sandbox]\nmode = "off"\n' },
    );
    const res = await runCli(["code", "go", "--config", "chord.toml", "--output", "jsonl"], { cwd, env: isolatedEnv(), timeoutMs: 60_000 });
    expect(res.code, res.stderr).toBe(0);
    const rows = rowsOf(res.stdout);
    const agentId = JSON.parse(rows.find((r) => r.type === "tool_result" && r.name === "delegate")!.modelText).agent_id;
    const cancels = rows.filter((r) => r.type === "tool_result" && r.name === "cancel");
    expect(cancels.map((r) => [r.ok, r.ok ? JSON.parse(r.modelText) : r.modelText])).toEqual([
      [true, { status: "cancelled", task_id: "task-1", agent_id: agentId, message: "worker stopped", expected_write_scope: {} }],
      [true, { status: "cancelled", task_id: "task-1", agent_id: agentId, message: "worker already cancelled", expected_write_scope: {} }],
      [false, 'unknown task_id "task-9"; cannot stop a missing worker (the tasks are task-1)'],
    ]);
  }, 90_000);
});

/** Waits until the session's store holds a completion (the worker's run has ended). */
const FIRST_COMPLETION = untilLog('"type":"completion"');

describe("chord targeted notify answers with the task's handle", () => {
  it("queued for a running worker, rehydrated for a finished one; a cancelled task's message is refused in the reference's words", async () => {
    const waitFor = (file: string) => ({ name: "shell", arguments: { command: `for i in $(seq 1 400); do [ -f ${file} ] && exit 0; sleep 0.05; done; exit 1`, description: "wait" } });
    const cwd = delegationProject(
      {
        turns: [
          { tool_calls: [{ name: "delegate", arguments: { description: "work", agent_type: "builder", expected_write_scope: { files: ["a.txt"] } } }] },
          { tool_calls: [waitFor("started.flag")] },
          { tool_calls: [{ name: "notify", arguments: { target_task_id: "task-1", message: "keep going" } }] },
          { tool_calls: [{ name: "shell", arguments: { command: "touch go.flag", description: "release" } }] },
          { tool_calls: [FIRST_COMPLETION] },
          { tool_calls: [{ name: "notify", arguments: { target_task_id: "task-1", message: "one more thing", kind: "follow_up" } }] },
          { tool_calls: [waitFor("done.flag")] },
          { tool_calls: [{ name: "cancel", arguments: { target_task_id: "task-1" } }] },
          { tool_calls: [{ name: "notify", arguments: { target_task_id: "task-1", message: "hello?" } }] },
        ],
        agents: {
          "task-1": {
            turns: [
              { tool_calls: [{ name: "shell", arguments: { command: "touch started.flag; for i in $(seq 1 400); do [ -f go.flag ] && exit 0; sleep 0.05; done; exit 1", description: "hold" } }] },
              { tool_calls: [{ name: "complete", arguments: { summary: "first" } }] },
              { tool_calls: [{ name: "shell", arguments: { command: "touch done.flag; sleep 3", description: "slow" } }] },
            ],
          },
        },
      },
      { toml: '[sandbox]\nmode = "off"\n' },
    );
    const res = await runCli(["code", "go", "--config", "chord.toml", "--output", "jsonl"], { cwd, env: isolatedEnv(), timeoutMs: 60_000 });
    expect(res.code, res.stderr).toBe(0);
    const rows = rowsOf(res.stdout);
    const agentId = JSON.parse(rows.find((r) => r.type === "tool_result" && r.name === "delegate")!.modelText).agent_id;
    const notes = rows.filter((r) => r.type === "tool_result" && r.name === "notify");
    expect(notes.map((r) => [r.ok, r.ok ? JSON.parse(r.modelText) : r.modelText])).toEqual([
      [true, { status: "queued", task_id: "task-1", agent_id: agentId, message: "message delivered to running worker", expected_write_scope: {} }],
      [true, { status: "rehydrated", task_id: "task-1", agent_id: agentId, rehydrated: true, message: "message delivered and task rehydrated", expected_write_scope: {} }],
      [false, "notify refused: task task-1 was cancelled; a message must not undo that decision — delegate the work again if it should still be done"],
    ]);
  }, 90_000);
});
