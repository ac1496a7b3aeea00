// The real CLI, sandboxed: a command that plants a program in a nested
// repository's git config gets a result that says what yuj undid, and the
// run's events carry a notice for the user.

import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isolatedEnv, runCli } from "../support/cli.js";
import { tempDemoRepo } from "../support/loop-harness.js";
import { noBwrap } from "../sandbox/support.js";

describe.skipIf(noBwrap)("a sandboxed command that plants git settings (real CLI)", () => {
  it("tells the model in the command's result and the user in a notice", async () => {
    const cwd = tempDemoRepo();
    execFileSync("git", ["init", "-q"], { cwd });
    const scenario = {
      turns: [
        { tool_calls: [{ name: "bash", arguments: { cmd: "git init -q sub && git -C sub config core.fsmonitor ./x.sh && echo made" } }] },
        { tool_calls: [{ name: "done", arguments: { message: "ok" } }] },
      ],
    };
    writeFileSync(join(cwd, "scenario.json"), JSON.stringify(scenario));
    writeFileSync(join(cwd, "cfg.toml"), '[provider]\nname = "scripted"\nscenario = "scenario.json"\n[sandbox]\nmode = "on"\n');
    const res = await runCli(["code", "make a repo", "--config", "cfg.toml", "--output", "jsonl"], { cwd, env: isolatedEnv() });
    expect(res.code, res.stderr).toBe(0);
    const events = res.stdout.trimEnd().split("\n").map((l) => JSON.parse(l));
    const result = events.find((e) => e.type === "tool_result" && e.name === "bash");
    expect(result.modelText).toBe(
      "made\n[yuj: the command left git settings in the project's repositories that git would run on the host, outside the sandbox; " +
        "yuj undid them: unset core.fsmonitor in sub/.git/config]",
    );
    const notice = events.find((e) => e.type === "notice" && e.level === "warning" && e.text.includes("yuj undid them"));
    expect(notice.text).toMatch(/^job j1 \(git init -q sub/);
    expect(readFileSync(join(cwd, "sub", ".git", "config"), "utf8")).not.toContain("fsmonitor");
  }, 60_000);
});
