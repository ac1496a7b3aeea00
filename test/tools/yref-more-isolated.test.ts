// An isolated agent through the built `yuj` with the sandbox off: its
// commands would not be confined to its worktree, so a child that runs
// commands is refused before it starts; one without command tools still
// works in its worktree.

import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isolatedEnv, runCli } from "../support/cli.js";

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd, encoding: "utf8" });

function project(agent: string, turns: unknown[]): string {
  const cwd = realpathSync(mkdtempSync(join(tmpdir(), "yuj-iso-nosb-")));
  git(cwd, "init", "-q", "-b", "main");
  writeFileSync(join(cwd, ".gitignore"), "scenario.json\nscripted.toml\n");
  writeFileSync(join(cwd, "a.txt"), "parent\n");
  git(cwd, "add", "-A");
  git(cwd, "commit", "-q", "-m", "init");
  mkdirSync(join(cwd, ".yuj", "agents"), { recursive: true });
  writeFileSync(join(cwd, ".yuj", "agents", "worker.toml"), agent);
  writeFileSync(join(cwd, "scenario.json"), JSON.stringify({ turns }));
  writeFileSync(
    join(cwd, "scripted.toml"),
    `[provider]\nname = "scripted"\nscenario = "scenario.json"\n[tools]\ntask_enabled = true\n[sandbox]\nmode = "off"\n` +
      `[[permissions.rules]]\ntool = "bash"\naction = "allow"\n`,
  );
  return cwd;
}

type Row = { type: string; name?: string; ok?: boolean; modelText?: string };
const taskResult = (stdout: string) =>
  stdout.trim().split("\n").map((l) => JSON.parse(l) as Row).find((r) => r.type === "tool_result" && r.name === "task");
const args = ["code", "go", "--config", "scripted.toml", "--output", "jsonl"];
const env = () => isolatedEnv({ TMPDIR: mkdtempSync(join(tmpdir(), "yuj-iso-nosb-tmp-")) });

describe("an isolated agent without the sandbox", () => {
  it("with bash it is refused before the child starts, and the parent's file is untouched", async () => {
    const agent = 'description = "writes"\nread_only = false\nworkspace = "isolated"\ntools = ["read", "write", "bash"]\n';
    const cwd = project(agent, [
      { tool_calls: [{ name: "task", arguments: { agent: "worker", prompt: "go" } }] },
      // Were the child started, it would take this turn and write the parent's file by its path.
      { tool_calls: [{ name: "bash", arguments: { cmd: "echo leaked > PARENT/a.txt" } }] },
      { tool_calls: [{ name: "done", arguments: { message: "ok" } }] },
    ]);
    const scenario = readFileSync(join(cwd, "scenario.json"), "utf8").replace("PARENT", cwd);
    writeFileSync(join(cwd, "scenario.json"), scenario);
    const res = await runCli(args, { cwd, env: env(), timeoutMs: 60_000 });
    const task = taskResult(res.stdout);
    expect(task?.ok).toBe(false);
    expect(task?.modelText).toBe(
      `task refused: agent "worker" (${join(cwd, ".yuj", "agents", "worker.toml")}): an isolated agent's commands (bash) need an active sandbox, ` +
        `or they could change the parent's files; turn the sandbox on ([sandbox].mode = "on") or leave those tools out of the agent's tools`,
    );
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("parent\n");
  }, 60_000);

  it("without command tools it runs in its worktree and returns its change set", async () => {
    const agent = 'description = "writes"\nread_only = false\nworkspace = "isolated"\ntools = ["read", "write"]\n';
    const cwd = project(agent, [
      { tool_calls: [{ name: "task", arguments: { agent: "worker", prompt: "go" } }] },
      { tool_calls: [{ name: "write", arguments: { path: "a.txt", content: "child\n" } }] },
      { text: "changed a.txt" },
      { tool_calls: [{ name: "done", arguments: { message: "ok" } }] },
    ]);
    const res = await runCli(args, { cwd, env: env(), timeoutMs: 60_000 });
    const task = taskResult(res.stdout);
    expect(task?.ok, task?.modelText).toBe(true);
    expect(task?.modelText).toContain("Isolated change set task-1: ready.");
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("parent\n");
  }, 60_000);
});
