// complete(result_ref) and complete(artifacts) on the Chord surface, against
// the reference's reference checks, with real workers: the reference
// save_artifact returned is read back; one whose id, path or size was
// changed is not a stored result, and the task fails at once naming what
// disagrees. A listed artifact that does not match its file refuses the
// complete, and the worker may correct it.

import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { isolatedEnv, runCli } from "../support/cli.js";
import { delegationProject, sessionDirOf, storeRows, workerHistory } from "../support/delegation.js";

const sha = (s: string) => createHash("sha256").update(s).digest("hex");
// What save_artifact stores for {"value":1} as type/test: canonical JSON and a newline.
const STORED = '{"value":1}\n';
const DIGEST = sha(STORED);
const ID = `sha256-${sha(`type/test\0${DIGEST}`)}`;
const REF = { id: ID, result_type: "type/test", rel_path: `artifacts/results/${ID}.json`, sha256: DIGEST, size_bytes: STORED.length };

const worker = (ref: Record<string, unknown>) => ({
  turns: [
    { tool_calls: [{ name: "save_artifact", arguments: { result_type: "type/test", result: { value: 1 } } }] },
    { tool_calls: [{ name: "complete", arguments: { summary: "stored", result_ref: ref } }] },
  ],
});

describe("complete(result_ref) is read back only when the reference matches what was stored", () => {
  it("the true reference completes; a changed id, path or size fails the task naming the mismatch", async () => {
    const delegate = (n: number) => ({ name: "delegate", arguments: { description: `result ${n}`, agent_type: "builder", expected_write_scope: { files: [`r${n}.txt`] } } });
    const cwd = delegationProject(
      {
        turns: [{ tool_calls: [delegate(1), delegate(2), delegate(3), delegate(4)] }, { text: "waiting" }, { text: "waiting" }, { text: "waiting" }, { text: "waiting" }, { text: "done" }],
        agents: {
          "task-1": worker(REF),
          "task-2": worker({ ...REF, id: `sha256-${"0".repeat(64)}` }),
          "task-3": worker({ ...REF, rel_path: "artifacts/results/../results/other.json" }),
          "task-4": worker({ ...REF, size_bytes: REF.size_bytes + 1 }),
        },
      },
      { toml: '[sandbox]\nmode = "off"\n' },
    );
    const env = isolatedEnv();
    const res = await runCli(["code", "go", "--config", "chord.toml", "--output", "jsonl"], { cwd, env, timeoutMs: 90_000 });
    expect(res.code, res.stderr).toBe(0);
    const rows = storeRows(sessionDirOf(env));
    const final = (id: string) => rows.filter((r) => r.t === "state" && r.taskId === id).at(-1);
    expect(final("task-1")).toMatchObject({ state: "completed" });
    const completion = rows.find((r) => r.t === "msg" && r.msg.type === "completion" && r.msg.from === "task-1");
    expect(completion!.msg.text).toBe('stored\n\nResult: {"value":1}');
    expect([final("task-2")!.state, final("task-2")!.reason]).toEqual([
      "failed",
      `complete's result_ref cannot be read back: id does not match result_type and sha256 (expected ${ID}, got sha256-${"0".repeat(64)})`,
    ]);
    expect([final("task-3")!.state, final("task-3")!.reason]).toEqual([
      "failed",
      `complete's result_ref cannot be read back: rel_path does not match id: expected artifacts/results/${ID}.json, got artifacts/results/../results/other.json`,
    ]);
    expect([final("task-4")!.state, final("task-4")!.reason]).toEqual([
      "failed",
      `complete's result_ref cannot be read back: size mismatch: artifacts/results/${ID}.json holds 12 bytes, the reference says 13`,
    ]);
  }, 120_000);
});

describe("complete(artifacts) lists files that are there, as they are", () => {
  it("a wrong size, a wrong sha256 or a missing file refuses complete, naming the entry; the corrected list completes", async () => {
    const body = "report body\n";
    const rel = "artifacts/subagents/task-1/report.md";
    const entry = { id: "report", type: "report", rel_path: rel, size_bytes: body.length, sha256: sha(body) };
    const cwd = delegationProject(
      {
        turns: [{ tool_calls: [{ name: "delegate", arguments: { description: "report", agent_type: "builder", expected_write_scope: { files: ["r.txt"] } } }] }, { text: "waiting" }, { text: "done" }],
        agents: {
          "task-1": {
            turns: [
              { tool_calls: [{ name: "save_artifact", arguments: { filename: "report.md", content: body } }] },
              { tool_calls: [{ name: "complete", arguments: { summary: "wrote it", artifacts: [{ ...entry, size_bytes: 99 }] } }] },
              { tool_calls: [{ name: "complete", arguments: { summary: "wrote it", artifacts: [{ ...entry, sha256: "0".repeat(64) }] } }] },
              { tool_calls: [{ name: "complete", arguments: { summary: "wrote it", artifacts: [entry, { rel_path: "artifacts/missing.md" }] } }] },
              { tool_calls: [{ name: "complete", arguments: { summary: "wrote it", artifacts: [entry] } }] },
            ],
          },
        },
      },
      { toml: '[sandbox]\nmode = "off"\n' },
    );
    const env = isolatedEnv();
    const res = await runCli(["code", "go", "--config", "chord.toml", "--output", "jsonl"], { cwd, env, timeoutMs: 90_000 });
    expect(res.code, res.stderr).toBe(0);
    const dir = sessionDirOf(env);
    const fix = ". Fix the artifacts list (copy the reference save_artifact returned) and call complete again.";
    expect(workerHistory(dir, "task-1").filter((h) => h.role === "tool" && h.name === "complete").map((h) => h.text)).toEqual([
      `complete refused: artifact 1 size mismatch: expected 99, got ${body.length}${fix}`,
      `complete refused: artifact 1 digest mismatch: expected ${"0".repeat(64)}, got ${sha(body)}${fix}`,
      `complete refused: artifact 2: artifact not found: artifacts/missing.md${fix}`,
      "Completed task-1: your owner has the report.",
    ]);
    expect(storeRows(dir).filter((r) => r.t === "state" && r.taskId === "task-1").at(-1)).toMatchObject({ state: "completed" });
  }, 120_000);
});
