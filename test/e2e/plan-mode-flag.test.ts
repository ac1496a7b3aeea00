// --plan-mode required in the real CLI: the scripted demo model tries to edit
// at once; the planning phase refuses the edit (a trace row says why) and the
// file stays as it was. Without the flag the same run edits the file.

import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { isolatedEnv, runCli, traceFiles } from "../support/cli.js";
import { repoRoot, tempDemoRepo } from "../support/loop-harness.js";

const SCRIPTED = `[provider]\nname = "scripted"\nmodel = "demo"\nscenario = ${JSON.stringify(join(repoRoot, "fixtures/scenarios/demo.json"))}\n`;

describe("--plan-mode", () => {
  it("required: the edit waits for a plan, headless", async () => {
    const cwd = tempDemoRepo();
    const original = readFileSync(join(cwd, "src/greet.js"), "utf8");
    writeFileSync(join(cwd, "cfg.toml"), SCRIPTED);
    const env = isolatedEnv();
    const res = await runCli(["code", "fix the greeting", "--config", "cfg.toml", "--plan-mode", "required"], { cwd, env });
    expect(res.stderr).not.toContain("usage");
    expect(readFileSync(join(cwd, "src/greet.js"), "utf8")).toBe(original);
    const trace = traceFiles(env).map((f) => readFileSync(f, "utf8")).join("\n");
    expect(trace).toContain("ERROR: plan_mode: edit is not available until the plan is accepted");
    // Kept for a resume: the session's stored settings carry the flag.
    const state = traceFiles(env).map((f) => readFileSync(join(dirname(f), "state.json"), "utf8")).join("\n");
    expect(state).toMatch(/"planMode": ?"required"/);
  }, 60_000);

  it("off (and a bad value is named)", async () => {
    const cwd = tempDemoRepo();
    writeFileSync(join(cwd, "cfg.toml"), SCRIPTED + '\n[loop]\nplan_mode = "required"\n');
    const res = await runCli(["code", "fix the greeting", "--config", "cfg.toml", "--plan-mode", "off"], { cwd, env: isolatedEnv() });
    expect(res.code, res.stderr).toBe(0);
    expect(readFileSync(join(cwd, "src/greet.js"), "utf8")).toContain("Hello, ${name}!");
    const bad = await runCli(["code", "x", "--plan-mode", "maybe"], { cwd, env: isolatedEnv() });
    expect(bad.stderr).toContain('--plan-mode must be one of off, required; got "maybe"');
    expect(bad.code).toBe(2);
  }, 60_000);

  it("resume: a session that accepted its plan before it paused stays past the phase", async () => {
    const cwd = tempDemoRepo();
    const turns = [
      { text: "Planning.", tool_calls: [{ name: "write", arguments: { path: ".solver/plan.md", content: "1. add the exclamation mark\n" } }] },
      { text: "Plan written.", tool_calls: [{ name: "exit_plan_mode", arguments: {} }] },
      { text: "One question.", tool_calls: [{ name: "ask_user", arguments: { question: "Go ahead?" } }] },
      {
        text: "Editing.",
        tool_calls: [{ name: "edit", arguments: { path: "src/greet.js", old_str: '  return "Hello, " + name;', new_str: "  return `Hello, ${name}!`;" } }],
      },
      { text: "Done.", tool_calls: [{ name: "done", arguments: { message: "fixed" } }] },
    ];
    writeFileSync(join(cwd, "scenario.json"), JSON.stringify({ turns }));
    writeFileSync(join(cwd, "cfg.toml"), `[provider]\nname = "scripted"\nmodel = "demo"\nscenario = ${JSON.stringify(join(cwd, "scenario.json"))}\n`);
    const env = isolatedEnv();
    const first = await runCli(["code", "fix the greeting", "--config", "cfg.toml", "--plan-mode", "required"], { cwd, env });
    expect(first.stderr).toContain("yuj answer");
    const answered = await runCli(["answer", "yes"], { cwd, env });
    expect(answered.code, answered.stderr).toBe(0);
    expect(readFileSync(join(cwd, "src/greet.js"), "utf8")).toContain("Hello, ${name}!");
    const trace = traceFiles(env).map((f) => readFileSync(f, "utf8")).join("\n");
    expect(trace).not.toContain("ERROR: plan_mode: edit is not available");
  }, 60_000);
});
