// The max_tools cap with the settings file the tool page itself shows
// (more-tools.toml, every optional tool on), loaded the way `--config` loads
// it: the surface stays within the profile's limit, tools that only work
// together stay together, plan mode keeps its inspection tools, and what the
// cap leaves out is reported — in a notice and by `yuj doctor`.

import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../core/config/load.js";
import type { Config } from "../../core/config/schema.js";
import type { EventBody } from "../../core/events.js";
import { activateTools } from "../../core/profiles/activate.js";
import { checkProfile, loadProfile } from "../../core/profiles/load.js";
import { builtinHandlers } from "../../tools/registry.js";
import { announceDroppedTools } from "../../app/tool-cap-notice.js";
import { isolatedEnv, runCli } from "../support/cli.js";
import { repoRoot } from "../support/loop-harness.js";

/**
 * The page's example, without `task_enabled = true`: yuj has no task tool
 * yet and refuses that setting with a clear error rather than ignore it.
 */
const MORE_TOOLS = `[tools.list_definitions]
enabled = true

[tools.run_tests]
enabled = true

[tools]
think_enabled = true
think_keep_turns = 4
edit_format = "apply_patch"
background_enabled = true
terminal_enabled = true
todos_enabled = true
checkpoint_enabled = true
notebook_edit_enabled = true
structural_enabled = true

[lsp]
tool_enabled = true
`;

const registry = builtinHandlers();
const base = loadProfile(join(repoRoot, "profiles"), "_base");
checkProfile(base, registry, "minimal");

function moreToolsConfig(extra = ""): { config: Config; file: string; cwd: string } {
  const cwd = mkdtempSync(join(tmpdir(), "yuj-cap-"));
  const file = join(cwd, "more-tools.toml");
  writeFileSync(file, MORE_TOOLS + extra);
  const env = isolatedEnv();
  const { config } = loadConfig({ cwd, env, home: env.HOME!, configFiles: [file] });
  return { config, file, cwd };
}

const surface = (config: Config) => activateTools(base, registry, config, { topLevel: true });
/** Tools that count against max_tools (done and ask_user ride outside it). */
const counted = (names: string[]) => names.filter((n) => !["done", "ask_user", "exit_plan_mode"].includes(n));
const together = (names: string[], group: string[]) => group.every((n) => names.includes(n)) || group.every((n) => !names.includes(n));

describe("max_tools with the page's more-tools.toml", () => {
  it("produces a surface within the profile's limit, keeping what the page promises", () => {
    const active = surface(moreToolsConfig().config);
    const names = active.specs.map((s) => s.name);
    expect(counted(names).length).toBeLessThanOrEqual(base.maxTools);
    expect(names).toEqual([
      "bash", "read", "write", "apply_patch", "structural_search", "structural_edit", "terminal_start", "terminal_io", "ask_user", "done",
    ]);
  });

  it("keeps tools that only work together together, and offers background bash only beside its controls", () => {
    const roomy = surface(moreToolsConfig().config);
    for (const group of [["bash_poll", "bash_kill"], ["checkpoint", "rewind"], ["terminal_start", "terminal_io"], ["structural_search", "structural_edit"]]) {
      expect(together(roomy.specs.map((s) => s.name), group)).toBe(true);
    }
    const bashParams = (a: ReturnType<typeof surface>) => Object.keys((a.tools.get("bash")!.spec.parameters.properties ?? {}) as object);
    // The cap left bash_poll and bash_kill out: bash has no `background` to offer.
    expect(roomy.tools.has("bash_poll")).toBe(false);
    expect(bashParams(roomy)).toEqual(["cmd"]);
    const wide = activateTools({ ...base, maxTools: 12 }, registry, moreToolsConfig().config, { topLevel: true });
    expect(wide.tools.has("bash_poll") && wide.tools.has("bash_kill")).toBe(true);
    expect(bashParams(wide)).toEqual(["cmd", "background"]);
    // One place left for a pair: neither half comes in, the place goes on.
    const odd = activateTools({ ...base, maxTools: 11 }, registry, moreToolsConfig().config, { topLevel: true });
    const oddNames = odd.specs.map((s) => s.name);
    expect(together(oddNames, ["bash_poll", "bash_kill"])).toBe(true);
    expect(together(oddNames, ["checkpoint", "rewind"])).toBe(true);
    expect(counted(oddNames).length).toBe(11);
  });

  it("keeps glob and grep in required plan mode", () => {
    const { config } = moreToolsConfig('\n[loop]\nplan_mode = "required"\n');
    const names = surface(config).specs.map((s) => s.name);
    expect(names).toContain("glob");
    expect(names).toContain("grep");
    expect(names).toContain("exit_plan_mode");
    expect(counted(names).length).toBeLessThanOrEqual(base.maxTools);
  });

  it("says once what the cap left out, and why", () => {
    const active = surface(moreToolsConfig().config);
    expect(active.dropped.map((d) => d.name)).toEqual([
      "glob", "grep", "bash_poll", "bash_kill", "checkpoint", "rewind", "notebook_edit", "list_definitions", "write_todos", "think", "run_tests", "lsp",
    ]);
    expect(active.dropped.find((d) => d.name === "rewind")?.reason).toBe(
      "max_tools = 8 is taken by tools with a higher priority: read, bash, write, apply_patch, terminal_start, terminal_io, structural_search, structural_edit " +
        "(checkpoint, rewind only work together: kept both or neither)",
    );
    const events: EventBody[] = [];
    announceDroppedTools(active, (e) => {
      events.push(e);
      return e as never;
    });
    expect(events).toEqual([
      {
        type: "notice",
        level: "warning",
        text:
          "the _base profile's max_tools = 8 leaves out enabled tools: glob, grep, bash_poll, bash_kill, checkpoint, rewind, notebook_edit, " +
          "list_definitions, write_todos, think, run_tests, lsp. `yuj doctor` lists the surface and why; disable tools you do not need " +
          "or raise [capacity].max_tools in the profile.",
      },
    ]);
    // The shipped defaults fit: no notice.
    const quiet: EventBody[] = [];
    const plain = loadConfig({ cwd: tmpdir(), env: isolatedEnv(), configFiles: [] }).config;
    announceDroppedTools(surface(plain), (e) => {
      quiet.push(e);
      return e as never;
    });
    expect(quiet).toEqual([]);
  });

  it("yuj doctor lists the surface and what the cap left out", async () => {
    const { file, cwd } = moreToolsConfig();
    const res = await runCli(["doctor", "--config", file], { cwd, env: isolatedEnv() });
    expect(res.stdout).toContain(
      "[ok  ] profile: _base: bash, read, write, apply_patch, structural_search, structural_edit, terminal_start, terminal_io, ask_user, done\n",
    );
    expect(res.stdout).toContain("[warn] tool cap: left out glob, grep, notebook_edit, list_definitions, write_todos, think, run_tests, lsp: max_tools = 8 is taken by");
    expect(res.stdout).toContain("[warn] tool cap: left out bash_poll, bash_kill: max_tools = 8 is taken by tools with a higher priority: read, bash, write, apply_patch, terminal_start, terminal_io, structural_search, structural_edit (bash_poll, bash_kill only work together: kept both or neither)\n");
  });
});
