// Code mode's surface under the tightest profile cap: the three cell tools
// only work together, so a cap of one keeps all three (and done).

import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../core/config/schema.js";
import { activateTools } from "../../core/profiles/activate.js";
import { checkProfile, loadProfile } from "../../core/profiles/load.js";
import { builtinHandlers } from "../../tools/registry.js";
import { repoRoot } from "../support/loop-harness.js";

describe("code mode under max_tools = 1", () => {
  it("keeps list_functions, get_function_details and exec_cell, with done (and ask_user at the top level)", () => {
    const registry = builtinHandlers();
    const base = loadProfile(join(repoRoot, "profiles"), "_base");
    checkProfile(base, registry, "minimal");
    const config = defaultConfig();
    config.tools.code_mode = true;
    const names = (topLevel: boolean) => activateTools({ ...base, maxTools: 1 }, registry, config, { topLevel }).specs.map((t) => t.name);
    expect(names(false)).toEqual(["list_functions", "get_function_details", "exec_cell", "done"]);
    expect(names(true)).toEqual(["list_functions", "get_function_details", "exec_cell", "ask_user", "done"]);
  });
});
