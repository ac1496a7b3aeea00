// An agent file in the `[agent]`-table layout (model_profile, tools,
// system_prompt_file, max_turns, read_only, workspace) is read as yuj's
// fields: loaded from a real folder, then run as a child through the built
// yuj with a scripted model.

import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { findAgent } from "../../core/agents/find.js";
import { isolatedEnv, runCli } from "../support/cli.js";

function agentsDir(files: Record<string, string>): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "yuj-agent-table-")));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(dir, rel, ".."), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return dir;
}

const PROBE =
  '[agent]\nmodel_profile = "_base"\ntools = ["read", "bash", "done"]\nsystem_prompt_file = "prompts/probe.md"\nmax_turns = 5\nread_only = true\n';
const find = (dir: string, name = "probe") => findAgent(name, { project: dir, user: join(dir, "none"), builtin: join(dir, "none") });

describe("an [agent]-table agent file", () => {
  it("reads its fields, its prompt from the file it names, and a plain description", () => {
    const dir = agentsDir({ "probe.toml": PROBE, "prompts/probe.md": "Return one exact finding.\n" });
    expect(find(dir)).toMatchObject({
      name: "probe",
      description: "the probe agent",
      tools: ["read", "bash", "done"],
      systemPrompt: "Return one exact finding.",
      maxTurns: 5,
      readOnly: true,
      workspace: "shared",
    });
  });

  it.each([
    ['[agent]\nmodel_profile = "other"\n', 'field model_profile: "other": a child runs on its parent\'s profile in yuj; remove the field or set it to "_base"'],
    ['[agent]\nsystem_prompt_file = "prompts/missing.md"\n', "field system_prompt_file: cannot read prompts/missing.md"],
    ['[agent]\nsystem_prompt_file = "../outside.md"\n', "field system_prompt_file: ../outside.md is outside the agent file's folder"],
    ['read_only = true\n[agent]\nmax_turns = 3\n', "fields read_only sit outside the [agent] table"],
    ['[agent]\nworkspace = "remote"\n', "field workspace:"],
  ])("names what is wrong: %j", (text, message) => {
    const dir = agentsDir({ "probe.toml": text });
    expect(() => find(dir)).toThrow(message);
  });

  it("runs as a child through the built yuj, which returns the child's final text", async () => {
    const cwd = realpathSync(mkdtempSync(join(tmpdir(), "yuj-agent-table-run-")));
    execFileSync("git", ["init", "-q"], { cwd });
    mkdirSync(join(cwd, ".yuj", "agents", "prompts"), { recursive: true });
    writeFileSync(join(cwd, ".yuj", "agents", "probe.toml"), PROBE);
    writeFileSync(join(cwd, ".yuj", "agents", "prompts", "probe.md"), "Return one exact finding.\n");
    writeFileSync(
      join(cwd, "scenario.json"),
      JSON.stringify({
        turns: [
          { tool_calls: [{ name: "task", arguments: { agent: "probe", prompt: "Find the owner." } }] },
          { text: "exact child result" },
          { tool_calls: [{ name: "done", arguments: { message: "ok" } }] },
        ],
      }),
    );
    writeFileSync(join(cwd, "scripted.toml"), '[provider]\nname = "scripted"\nscenario = "scenario.json"\n[tools]\ntask_enabled = true\n');
    const env = isolatedEnv({ TMPDIR: mkdtempSync(join(tmpdir(), "yuj-agent-table-tmp-")) });
    const res = await runCli(["code", "go", "--config", "scripted.toml", "--output", "jsonl"], { cwd, env, timeoutMs: 60_000 });
    const rows = res.stdout.trim().split("\n").map((l) => JSON.parse(l) as { type: string; name?: string; ok?: boolean; modelText?: string });
    const task = rows.find((r) => r.type === "tool_result" && r.name === "task");
    expect(task?.ok, task?.modelText).toBe(true);
    expect(task?.modelText).toContain("agent: probe");
    expect(task?.modelText).toMatch(/\nexact child result$/);
  }, 60_000);
});
