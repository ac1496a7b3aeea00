// Only an isolated child leaves a patch. Asked for the patch of a read-only
// child (it changed nothing) or of a shared-workspace child (its changes are
// already in the parent's files), subagent_changes and apply_subagent refuse
// and say which of the two it is, through the built `yuj` and a real child.

import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { isolatedEnv, runCli } from "../support/cli.js";
import { rowsOf } from "../support/delegation.js";

function project(files: Record<string, string>, turns: unknown[]): string {
  const cwd = realpathSync(mkdtempSync(join(tmpdir(), "yuj-nopatch-")));
  for (const [rel, text] of Object.entries({ ...files, "scenario.json": JSON.stringify({ turns }) })) {
    mkdirSync(dirname(join(cwd, rel)), { recursive: true });
    writeFileSync(join(cwd, rel), text);
  }
  writeFileSync(join(cwd, "scripted.toml"), `[provider]\nname = "scripted"\nscenario = "scenario.json"\n[tools]\ntask_enabled = true\n`);
  return cwd;
}

const call = (name: string, args: Record<string, unknown>) => ({ tool_calls: [{ name, arguments: args }] });

describe("a child without a patch", () => {
  it("read-only and shared-workspace children: subagent_changes and apply_subagent refuse, naming why", async () => {
    const cwd = project({ "notes.txt": "42\n" }, [
      call("task", { agent: "explorer", prompt: "read notes.txt" }),
      call("read", { path: "notes.txt" }),
      { text: "it says 42" },
      call("subagent_changes", { task_id: "task-1" }),
      call("apply_subagent", { task_id: "task-1" }),
      call("task", { agent: "builder", prompt: "write out.txt" }),
      call("write", { path: "out.txt", content: "built\n" }),
      { text: "wrote out.txt" },
      call("subagent_changes", { task_id: "task-2" }),
      call("apply_subagent", { task_id: "task-2" }),
      call("done", { message: "checked" }),
    ]);
    const res = await runCli(["code", "go", "--config", "scripted.toml", "--output", "jsonl"], { cwd, env: isolatedEnv(), timeoutMs: 60_000 });
    expect(res.code, res.stderr).toBe(0);
    const results = rowsOf(res.stdout).filter((r) => r.type === "tool_result" && (r.name === "subagent_changes" || r.name === "apply_subagent"));
    expect(results.map((r) => [r.name, r.ok])).toEqual([
      ["subagent_changes", false],
      ["apply_subagent", false],
      ["subagent_changes", false],
      ["apply_subagent", false],
    ]);
    const readOnly = "task-1 has no patch: agent explorer is read-only, so it changed no files; only an isolated child";
    expect(results[0]!.modelText).toContain(readOnly);
    expect(results[1]!.modelText).toContain(`apply_subagent refused: ${readOnly}`);
    const shared = "task-2 has no patch: agent builder ran in the shared workspace, so whatever it changed is already in your files";
    expect(results[2]!.modelText).toContain(shared);
    expect(results[3]!.modelText).toContain(`apply_subagent refused: ${shared}`);
    expect(readFileSync(join(cwd, "out.txt"), "utf8")).toBe("built\n");
  }, 90_000);
});
