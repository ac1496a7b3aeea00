import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../core/config/schema.js";
import { conditionHolds, profileToolSchema } from "../../core/profiles/tool-entry.js";
import { baseToolset } from "../support/loop-harness.js";

describe("config:<key>=<value> conditions", () => {
  const ctx = (plan: "off" | "required") => {
    const config = defaultConfig();
    config.loop.plan_mode = plan;
    return { editFormat: "exact", topLevel: true, interactive: false, config };
  };

  it("compares the config value's string form", () => {
    expect(conditionHolds("config:loop.plan_mode=required", ctx("required"))).toBe(true);
    expect(conditionHolds("config:loop.plan_mode=required", ctx("off"))).toBe(false);
    expect(conditionHolds("config:loop.max_turns=200", ctx("off"))).toBe(true);
    expect(conditionHolds("config:tools.stale_file=off", ctx("off"))).toBe(true);
    // An unset or missing key never matches.
    expect(conditionHolds("config:tools.edit_format=undefined", ctx("off"))).toBe(false);
    expect(conditionHolds("config:no.such_key=x", ctx("off"))).toBe(false);
    // The bare form still means "is true".
    expect(conditionHolds("config:loop.plan_mode", ctx("required"))).toBe(false);
  });

  it("is accepted by the profile schema, and malformed forms are not", () => {
    const entry = (cond: string) =>
      profileToolSchema.safeParse({ handler: "x", description: "x.txt", enabled_when: [cond] }).success;
    expect(entry("config:loop.plan_mode=required")).toBe(true);
    expect(entry("config:loop.plan_mode=")).toBe(false);
    expect(entry("config:loop.plan_mode=a b")).toBe(false);
  });
});

describe("exit_plan_mode in the _base profile", () => {
  it("is on only with plan_mode = required, kept inside max_tools, and takes no parameters", () => {
    expect(baseToolset().tools.has("exit_plan_mode")).toBe(false);
    const config = defaultConfig();
    config.loop.plan_mode = "required";
    const toolset = baseToolset(config);
    expect(toolset.specs.map((s) => s.name)).toEqual(["bash", "read", "write", "edit", "glob", "grep", "exit_plan_mode", "ask_user", "done"]);
    const spec = toolset.tools.get("exit_plan_mode")!.spec;
    expect(spec.parameters).toMatchObject({ type: "object", properties: {} });
    expect(spec.description).toMatch(/\.solver\/plan\.md/);
    // With every optional tool on, the cap still keeps it.
    config.tools.terminal_enabled = true;
    config.tools.background_enabled = true;
    expect(baseToolset(config).tools.has("exit_plan_mode")).toBe(true);
  });
});
