// A setting of a feature yuj does not implement yet is refused: the run
// stops before it starts (exit 2), the error names the key and says to
// remove it, and nothing is written. Accepting it would let the user believe
// it does something.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { NOT_SUPPORTED_YET } from "../../core/config/not-supported.js";
import { isolatedEnv, runCli } from "../support/cli.js";
import { repoRoot, tempDemoRepo } from "../support/loop-harness.js";

/** Each key as a user would write it in a config file. */
const SNIPPETS: Record<string, string> = {
  "tools.edit_strict_match": "[tools]\nedit_strict_match = false",
  "tools.apply_patch": "[tools.apply_patch]\nenabled = true",
  "tools.unified_envelope": "[tools.unified_envelope]\nenabled = true",
  state: "[state]\ntodos_char_budget = 321",
  "loop.think_streak_nudge_after": "[loop]\nthink_streak_nudge_after = 3",
  "output.trace_args_summary_chars": "[output]\ntrace_args_summary_chars = 100",
  "output.trace_result_summary_chars": "[output]\ntrace_result_summary_chars = 100",
  "output.trace_reasoning_store_chars": "[output]\ntrace_reasoning_store_chars = 100",
};

const ORIGINAL = readFileSync(join(repoRoot, "fixtures/demo-repo/src/greet.js"), "utf8");
const SCRIPTED = `[provider]\nname = "scripted"\nmodel = "demo"\nscenario = ${JSON.stringify(join(repoRoot, "fixtures/scenarios/demo.json"))}\n\n`;

describe("config keys of features not implemented yet", () => {
  it("every key on the list has a snippet here", () => {
    expect(Object.keys(SNIPPETS).sort()).toEqual(NOT_SUPPORTED_YET.map((k) => k.key).sort());
  });

  it.each(NOT_SUPPORTED_YET.map((k) => k.key))("%s: exit 2, an error naming it, nothing written", async (key) => {
    const cwd = tempDemoRepo();
    const file = join(cwd, "extra.toml");
    // The scripted demo model would fix the file and finish (exit 0) if the key were accepted.
    writeFileSync(file, SCRIPTED + SNIPPETS[key] + "\n");
    const env = isolatedEnv();
    const res = await runCli(["code", "fix the greeting", "--config", file], { cwd, env });
    expect(res.stdout).toBe("");
    expect(res.stderr).toContain(`config error in ${file}: ${key} is not supported yet: yuj does not implement `);
    expect(res.stderr).toContain("so the setting would do nothing; remove it");
    expect(res.code).toBe(2);
    expect(existsSync(env.XDG_STATE_HOME!)).toBe(false);
    expect(readFileSync(join(cwd, "src/greet.js"), "utf8")).toBe(ORIGINAL);
    expect(existsSync(join(cwd, "hooked"))).toBe(false);
  });

  it("a project's own .yuj/config.toml is refused the same way", async () => {
    const cwd = tempDemoRepo();
    writeFileSync(join(cwd, "extra.toml"), SCRIPTED);
    mkdirSync(join(cwd, ".yuj"));
    writeFileSync(join(cwd, ".yuj/config.toml"), SNIPPETS["tools.unified_envelope"] + "\n");
    const env = isolatedEnv();
    const res = await runCli(["code", "fix the greeting", "--config", "extra.toml"], { cwd, env });
    expect(res.stderr).toContain(`config error in ${join(cwd, ".yuj/config.toml")}: tools.unified_envelope is not supported yet: yuj does not implement `);
    expect(res.code).toBe(2);
    expect(existsSync(env.XDG_STATE_HOME!)).toBe(false);
  });

  it("the settings of features that exist are accepted: language servers, run_tests, the structural tools, the measurement session limit", async () => {
    const cwd = tempDemoRepo();
    const existing = [
      "[lsp]\nenabled = false\ntool_enabled = false\n\n[lsp.servers.typescript]\nenabled = false",
      "[tools]\nstructural_enabled = true\nast_search_enabled = true\nast_search_max_rows = 50",
      "[tools.run_tests]\nenabled = true\ntimeout = 60",
      "[tools.list_definitions]\nenabled = true",
      "[loop]\nmax_sessions = 2",
    ];
    for (const snippet of existing) {
      const key = snippet.match(/^\[([^\]]+)\]/)![1]!;
      expect(NOT_SUPPORTED_YET.map((k) => k.key), key).not.toContain(key);
    }
    writeFileSync(join(cwd, "extra.toml"), SCRIPTED + existing.join("\n\n") + "\n");
    const res = await runCli(["code", "fix the greeting", "--config", "extra.toml"], { cwd, env: isolatedEnv() });
    expect(res.stderr).not.toContain("config error");
    expect(res.code, res.stderr).toBe(0);
    expect(readFileSync(join(cwd, "src/greet.js"), "utf8")).not.toBe(ORIGINAL);
  });
});
