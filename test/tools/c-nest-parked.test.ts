// Two workers parked at once (both waiting for their owner's answer) must
// not wake each other without end: each tells the runtime once that it
// parked. Before, each wake-up told again, the other woke, and the process
// spun on the CPU, never answering.

import { describe, expect, it } from "vitest";
import { isolatedEnv, runCli } from "../support/cli.js";
import { delegationProject, rowsOf, sessionDirOf, storeRows } from "../support/delegation.js";

const escalateThenComplete = (file: string) => ({
  turns: [
    { tool_calls: [{ name: "escalate", arguments: { kind: "needs_repair", reason: `may I write ${file}?` } }] },
    { text: "waiting for my owner" },
    { tool_calls: [{ name: "complete", arguments: { summary: `answered about ${file}` } }] },
  ],
});

// Waits (at most 20 s) until the log holds `count` rows of `pattern`.
const untilCount = (pattern: string, count: number) => ({
  name: "shell",
  arguments: {
    description: "wait",
    command: `for i in $(seq 1 400); do [ "$(grep -c '${pattern}' "$XDG_STATE_HOME"/yuj/sessions/*/orchestration.jsonl)" -ge ${count} ] && exit 0; sleep 0.05; done; exit 1`,
  },
});

describe("two parked workers", () => {
  it("both wait for their answers, get them, and complete", async () => {
    const build = (file: string) => ({ name: "delegate", arguments: { description: file, agent_type: "builder", expected_write_scope: { files: [file] } } });
    const answer = (task: string) => ({ name: "notify", arguments: { target_task_id: task, message_type: "response", correlation_id: `esc-${task}-1`, message: "yes" } });
    const cwd = delegationProject(
      {
        turns: [
          { tool_calls: [build("a.txt"), build("b.txt")] },
          { tool_calls: [untilCount('"state":"waiting_main"', 2)] },
          { tool_calls: [answer("task-1"), answer("task-2")] },
          { tool_calls: [untilCount('"type":"completion"', 2)] },
          { text: "both done" },
        ],
        agents: { "task-1": escalateThenComplete("a.txt"), "task-2": escalateThenComplete("b.txt") },
      },
      { toml: '[sandbox]\nmode = "off"\n' },
    );
    const env = isolatedEnv();
    const res = await runCli(["code", "go", "--config", "chord.toml", "--output", "jsonl"], { cwd, env, timeoutMs: 60_000 });
    expect(res.code, res.stderr).toBe(0);
    const notes = rowsOf(res.stdout).filter((r) => r.type === "tool_result" && r.name === "notify");
    expect(notes.map((n) => n.ok)).toEqual([true, true]);
    const completions = storeRows(sessionDirOf(env)).filter((r) => r.t === "msg" && r.msg.type === "completion");
    expect(completions.map((c) => c.msg.text).sort()).toEqual(["answered about a.txt", "answered about b.txt"]);
  }, 90_000);
});
