// The settings that switch the code-intelligence tools on, as the profile
// applies them to the tools a request carries, and the priority of the
// structural pair under the default surface's eight-tool limit.

import { describe, expect, it } from "vitest";
import { defaultConfig, type Config } from "../../core/config/schema.js";
import { baseToolset } from "../support/loop-harness.js";

const names = (adjust: (c: Config) => void = () => undefined) => {
  const c = defaultConfig();
  adjust(c);
  return baseToolset(c).specs.map((s) => s.name);
};

describe("code-intelligence settings", () => {
  it("are all off by default", () => {
    const on = names();
    for (const tool of ["structural_search", "structural_edit", "list_definitions"]) expect(on).not.toContain(tool);
    expect(on).toEqual(["bash", "read", "write", "edit", "glob", "grep", "ask_user", "done"]);
  });

  it("structural_enabled turns on the pair, which takes priority inside max_tools", () => {
    const on = names((c) => (c.tools.structural_enabled = true));
    expect(on).toContain("structural_search");
    expect(on).toContain("structural_edit");
    // bash, read, write and edit come first, the pair next; glob and grep fill the eight places
    // (done and ask_user ride outside the count).
    expect(on).toEqual(["bash", "read", "write", "edit", "glob", "grep", "structural_search", "structural_edit", "ask_user", "done"]);
  });

  it("[tools.list_definitions] enabled turns on list_definitions; ast_search_enabled alone does nothing", () => {
    expect(names((c) => (c.tools.list_definitions.enabled = true))).toContain("list_definitions");
    expect(names((c) => (c.tools.ast_search_enabled = true))).toEqual(names());
  });

  it("under the limit, list_definitions gives way to the structural pair", () => {
    const on = names((c) => {
      c.tools.structural_enabled = true;
      c.tools.list_definitions.enabled = true;
    });
    expect(on).not.toContain("list_definitions");
    expect(on.filter((n) => n.startsWith("structural_"))).toEqual(["structural_search", "structural_edit"]);
  });

  it("list_definitions' parameters: path required, kind def or ref", () => {
    const c = defaultConfig();
    c.tools.list_definitions.enabled = true;
    const spec = baseToolset(c).specs.find((s) => s.name === "list_definitions")!;
    const params = spec.parameters as { required: string[]; properties: Record<string, { type?: string; enum?: string[] }> };
    expect(params.required).toEqual(["path"]);
    expect(params.properties.kind!.enum).toEqual(["def", "ref"]);
    expect(params.properties.repo_wide!.type).toBe("boolean");
    expect(params.properties.page!.type).toBe("integer");
    expect(params.properties.symbol!.type).toBe("string");
  });
});
