import { mkdtempSync, mkdirSync, writeFileSync, cpSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../core/config/schema.js";
import { activateTools } from "../../core/profiles/activate.js";
import { checkProfile, loadProfile } from "../../core/profiles/load.js";
import { buildSystemPrompt } from "../../core/system-prompt.js";
import { builtinHandlers } from "../../tools/registry.js";
import { baseToolset, repoRoot } from "../support/loop-harness.js";

const profilesRoot = join(repoRoot, "profiles");

describe("the default profile", () => {
  it("pins exactly what the model is sent", async () => {
    const toolset = baseToolset();
    await expect(JSON.stringify(toolset.specs, null, 2) + "\n").toMatchFileSnapshot("__snapshots__/base-tools.json");
  });

  it("exposes the Yuj default tools in order", () => {
    expect(baseToolset().specs.map((s) => s.name)).toEqual(["bash", "read", "write", "edit", "glob", "grep", "ask_user", "done"]);
  });

  it("keeps the first request (system prompt and tools) within 12 KB", () => {
    const toolset = baseToolset();
    const system = buildSystemPrompt({ cwd: "/home/user/project", finishTool: "done", instructions: [], date: "2026-01-01" });
    const bytes = Buffer.byteLength(JSON.stringify({ system, tools: toolset.specs }));
    expect(bytes).toBeLessThan(12 * 1024);
  });

  it("shows bash's background parameter only when background work is on", () => {
    const props = (cfg = defaultConfig()) =>
      Object.keys((baseToolset(cfg).tools.get("bash")!.spec.parameters.properties ?? {}) as object);
    expect(props()).toEqual(["cmd"]);
    const cfg = defaultConfig();
    cfg.tools.background_enabled = true;
    expect(props(cfg)).toEqual(["cmd", "background"]);
  });

  it("selects the replacement tool by edit format", () => {
    const cfg = defaultConfig();
    cfg.tools.edit_format = "whole";
    const names = baseToolset(cfg).specs.map((s) => s.name);
    expect(names).not.toContain("edit");
    expect(names).toContain("write");
  });
});

describe("profile checks", () => {
  function copyProfile(): string {
    const root = mkdtempSync(join(tmpdir(), "yuj-profiles-"));
    cpSync(join(profilesRoot, "_base"), join(root, "p"), { recursive: true });
    return root;
  }

  it("names an unknown profile and where it looked", () => {
    expect(() => loadProfile(profilesRoot, "nope")).toThrow(/unknown profile "nope": no .*profiles\/nope\/profile\.toml/);
  });

  it("refuses a tool without a handler", () => {
    const root = copyProfile();
    writeFileSync(
      join(root, "p/tool_schemas.toml"),
      '[tools.frob]\nhandler = "frobnicate"\ndescription = "bash.txt"\n',
    );
    const profile = loadProfile(root, "p");
    expect(() => checkProfile(profile, builtinHandlers(), "minimal")).toThrow('profile p, tool frob: no handler "frobnicate" is registered');
  });

  it("refuses params that differ from the handler's", () => {
    const root = copyProfile();
    writeFileSync(
      join(root, "p/tool_schemas.toml"),
      '[tools.read]\nhandler = "read"\ndescription = "read.txt"\nparams = { path = "p", offset = "o" }\n',
    );
    const profile = loadProfile(root, "p");
    expect(() => checkProfile(profile, builtinHandlers(), "minimal")).toThrow(/params \[offset, path\] do not match handler "read" parameters \[limit, offset, path\]/);
  });

  it("refuses an unknown key in the TOML, naming file and key", () => {
    const root = copyProfile();
    mkdirSync(join(root, "p"), { recursive: true });
    writeFileSync(join(root, "p/profile.toml"), '[profile]\nname = "p"\nmax_tool = 3\n');
    expect(() => loadProfile(root, "p")).toThrow(/profile\.toml: profile: Unrecognized key: "max_tool"/);
  });

  it("caps the tool count in declared order when the profile gives no priority", () => {
    const root = copyProfile();
    writeFileSync(join(root, "p/profile.toml"), '[profile]\nname = "p"\n[capacity]\nmax_tools = 5\n');
    const profile = loadProfile(root, "p");
    const active = activateTools(profile, builtinHandlers(), defaultConfig(), { topLevel: true });
    // done and the top-level session's ask_user ride outside the count.
    expect(active.specs.map((s) => s.name)).toEqual(["bash", "read", "write", "edit", "glob", "ask_user", "done"]);
    expect(active.dropped.map((d) => d.name)).toEqual(["grep"]);
  });
});
