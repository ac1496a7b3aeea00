// Required plan mode against the reference's plan-mode tests: its read-only
// shell table (the commands it lets through and the ones it fails closed
// on, a background command among them), and the cap that keeps the plan
// write and exit_plan_mode even when max_tools is 1. Real files, the real
// dispatcher and guards, the real _base profile.

import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { defaultConfig } from "../../core/config/schema.js";
import { activateTools } from "../../core/profiles/activate.js";
import { checkProfile, loadProfile } from "../../core/profiles/load.js";
import { planText } from "../../tools/guards/index.js";
import { builtinHandlers } from "../../tools/registry.js";
import { guardedSession, type GuardedSession } from "../guards/session.js";
import { isolatedEnv, runCli } from "../support/cli.js";
import { repoRoot, tempDemoRepo } from "../support/loop-harness.js";

let s: GuardedSession | undefined;
afterEach(async () => {
  await s?.cleanup();
  s = undefined;
});

const planning = async () => {
  s = await guardedSession((c) => {
    c.loop.plan_mode = "required";
    c.tools.background_enabled = true;
  });
  await s.put({ "config.toml": "value1 = 1\n", "data.json": '{"items":[1]}', "file.py": "a\n", "input.txt": "b\na\n", "scripts/x.py": "plan = 1\n", "README.md": "r\n" });
  execFileSync("git", ["init", "-q"], { cwd: s.cwd });
  return s;
};

describe("the planning phase's shell", () => {
  it("runs the reference's read-only commands", async () => {
    const s = await planning();
    const outputs: Record<string, string> = {
      "git status --short": "?? README.md\n?? config.toml\n?? data.json\n?? file.py\n?? input.txt\n?? scripts/",
      "git -C . diff --stat && rg plan scripts | head -20": "scripts/x.py:plan = 1",
      "grep 'value[0-9]' config.toml": "value1 = 1",
      "jq '.items[]' data.json": "1",
      "sed -n '1,40p' config.toml": "value1 = 1",
      "find scripts -maxdepth 2 -type f": "scripts/x.py",
      "ls -la | wc -l": "10",
    };
    for (const [cmd, text] of Object.entries(outputs)) {
      expect(await s.call("bash", { cmd }), cmd).toMatchObject({ ok: true, modelText: text.replace(/\n/g, "\n") });
    }
  });

  it("refuses the reference's mutating or asynchronous calls before they run, a background ls too", async () => {
    const s = await planning();
    const calls: Array<Record<string, unknown>> = [
      "touch changed.txt", "sed -i 's/a/b/' file.py", "printf x > changed.txt", "find . -delete", "sed -n 'w changed.txt' file.py",
      "sort input.txt -o changed.txt", "git diff --output=changed.patch", "git branch -d old-branch",
      "git -c diff.external='touch changed.txt' diff", "GIT_EXTERNAL_DIFF='touch changed.txt' git diff", "find . $ACTION",
      "find . {-print,-delete}", "git diff *", "git diff --ext-diff", "/tmp/cat README.md", "sed -n -e '1p' -e 'w changed.txt' file.py",
      "sed -n -i '1p' file.py", "printf -v SHELL_STATE x", "hostname changed-host", "python -c \"open('changed.txt', 'w').write('x')\"",
      "git checkout -- file.py",
    ].map((cmd) => ({ cmd }));
    calls.push({ cmd: "ls", background: true }, { cmd: "touch bg.txt", background: true });
    for (const args of calls) expect(await s.call("bash", args), JSON.stringify(args)).toMatchObject({ ok: false, modelText: planText.shell("bash") });
    for (const f of ["changed.txt", "changed.patch", "bg.txt"]) expect(existsSync(join(s.cwd, f)), f).toBe(false);
    expect(readFileSync(join(s.cwd, "file.py"), "utf8")).toBe("a\n");
    expect(s.ctx.jobs!.list()).toEqual([]);
  });

  it("starts a background command once the plan is accepted", async () => {
    const s = await planning();
    expect((await s.call("write", { path: ".solver/plan.md", content: "1. look\n" })).ok).toBe(true);
    expect((await s.call("exit_plan_mode")).ok).toBe(true);
    s.hidden(); // the next model request
    expect(await s.call("bash", { cmd: "ls", background: true })).toMatchObject({
      ok: true,
      modelText: "Started background process j1. Poll it with bash_poll(proc_id='j1').",
    });
  });
});

describe("the cap in required plan mode", () => {
  const registry = builtinHandlers();
  const base = loadProfile(join(repoRoot, "profiles"), "_base");
  checkProfile(base, registry, "minimal");
  const names = (plan: "off" | "required", topLevel: boolean) => {
    const c = defaultConfig();
    c.loop.plan_mode = plan;
    return activateTools({ ...base, maxTools: 1 }, registry, c, { topLevel }).specs.map((t) => t.name);
  };

  it("keeps the plan write and exit_plan_mode under max_tools = 1, as the reference does", () => {
    expect(names("required", false)).toEqual(["write", "exit_plan_mode", "done"]);
    expect(names("required", true)).toEqual(["write", "exit_plan_mode", "ask_user", "done"]);
  });

  it("keeps read first outside plan mode", () => {
    expect(names("off", false)).toEqual(["read", "done"]);
  });
});

describe("required plan mode with code mode", () => {
  it("plans with the native tools, then hands over to the cell tools, as the reference does", async () => {
    s = await guardedSession((c) => {
      c.loop.plan_mode = "required";
      c.tools.code_mode = true;
    });
    await s.put({ "src/a.py": "x = 1\n" });
    expect(s.visible()).toEqual(["bash", "read", "write", "glob", "grep", "exit_plan_mode", "ask_user"]);
    expect(await s.call("read", { path: "src/a.py" })).toMatchObject({ ok: true, modelText: "1: x = 1" });
    expect(await s.call("write", { path: ".solver/plan.md", content: "1. change x\n" })).toMatchObject({ ok: true, modelText: "OK: wrote 12 bytes to .solver/plan.md" });
    expect((await s.call("exec_cell", { source: "print(1)" })).modelText).toBe(planText.tool("exec_cell"));
    expect((await s.call("exit_plan_mode")).ok).toBe(true);
    expect(s.visible()).toEqual(["list_functions", "get_function_details", "exec_cell", "ask_user", "done"]);
    // The native tools were the phase's only: once the plan is accepted a direct call is refused, nothing written.
    expect(await s.call("write", { path: "src/a.py", content: "x = 2\n" })).toMatchObject({
      ok: false,
      modelText: "ERROR: plan_mode: write was offered only while planning; the plan is accepted, so work through exec_cell now.",
    });
    expect(readFileSync(join(s.cwd, "src/a.py"), "utf8")).toBe("x = 1\n");
  });
});

describe("required plan mode with code mode, the built yuj", () => {
  it("reads and writes the plan natively, then runs cells; a native read after the plan is refused", async () => {
    const cwd = tempDemoRepo();
    const turns = [
      { tool_calls: [{ name: "read", arguments: { path: "src/greet.js" } }] },
      { tool_calls: [{ name: "write", arguments: { path: ".solver/plan.md", content: "1. fix greet\n" } }] },
      { tool_calls: [{ name: "exit_plan_mode", arguments: {} }] },
      { tool_calls: [{ name: "exec_cell", arguments: { source: "print(bash(\"printf 'row\\\\nrow\\\\nrow\\\\n'\"))" } }] },
      { tool_calls: [{ name: "read", arguments: { path: "src/greet.js" } }] },
      { tool_calls: [{ name: "done", arguments: { message: "finished" } }] },
    ];
    writeFileSync(join(cwd, "scenario.json"), JSON.stringify({ turns }));
    writeFileSync(
      join(cwd, "yuj.toml"),
      '[provider]\nname = "scripted"\nscenario = "scenario.json"\n[tools]\ncode_mode = true\n[loop]\nplan_mode = "required"\n[sandbox]\nmode = "off"\n',
    );
    const res = await runCli(["code", "work", "--config", "yuj.toml", "--output", "jsonl"], { cwd, env: isolatedEnv(), timeoutMs: 90_000 });
    expect(res.code).toBe(0);
    const results = res.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; name: string; modelText: string })
      .filter((r) => r.type === "tool_result")
      .map((r) => [r.name, r.modelText]);
    expect(results).toEqual([
      ["read", '1: // Greets a person by name.\n2: export function greet(name) {\n3:   return "Hello, " + name;\n4: }'],
      ["write", "OK: wrote 13 bytes to .solver/plan.md"],
      ["exit_plan_mode", "OK: plan accepted (.solver/plan.md, 1 line). Implementation tools are unlocked: edit files, run commands and tests, and call done when the task is finished."],
      ["bash", "row [×3]"],
      ["exec_cell", "row [×3]"],
      ["read", "ERROR: plan_mode: read was offered only while planning; the plan is accepted, so work through exec_cell now."],
      ["done", "done"],
    ]);
    expect(readFileSync(join(cwd, ".solver/plan.md"), "utf8")).toBe("1. fix greet\n");
  }, 120_000);
});
