// Chord's edit tool family (apply_patch for GPT and o-series models, exact
// edit for the rest): the real chord profile, activated for different models.

import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { defaultConfig, type Config } from "../../core/config/schema.js";
import { activateTools } from "../../core/profiles/activate.js";
import { checkProfile, loadProfile } from "../../core/profiles/load.js";
import { editFamily, isPatchNative } from "../../core/profiles/model-family.js";
import { conditionHolds, profileToolSchema } from "../../core/profiles/tool-entry.js";
import { builtinHandlers } from "../../tools/registry.js";
import { repoRoot } from "../support/loop-harness.js";

const registry = builtinHandlers();
const chord = loadProfile(join(repoRoot, "profiles"), "chord");
checkProfile(chord, registry, "minimal");

function fileTools(model?: { provider: string; id: string }, config: Config = defaultConfig()): string[] {
  const names = activateTools(chord, registry, config, { topLevel: true, model }).specs.map((s) => s.name);
  return names.filter((n) => ["read", "write", "edit", "apply_patch", "delete"].includes(n));
}

describe("model family", () => {
  it.each([
    ["gpt-5", true],
    ["gpt-4o", true],
    ["gpt-4.1-mini", true],
    ["gpt-5-codex", true],
    ["gpt-oss-120b", true],
    ["chatgpt-4o-latest", true],
    ["o1", true],
    ["o3-mini", true],
    ["o4-mini-2025-04-16", true],
    ["codex-mini-latest", true],
    ["openai/gpt-4o", true],
    ["ft:gpt-4o-mini:org::abc", true],
    ["GPT-5", true],
    ["claude-sonnet-4-5", false],
    ["anthropic/claude-3.7-sonnet", false],
    ["qwen2.5-coder-32b", false],
    ["llama-3.1-70b", false],
    ["omni-model", false],
    ["o", false],
    ["scripted", false],
  ])("%s → patch-native %s", (id, expected) => {
    expect(isPatchNative(id)).toBe(expected);
  });

  it("judges OpenAI-compatible providers by the id, Anthropic never as patch-native", () => {
    expect(editFamily({ provider: "openai", id: "gpt-5" })).toBe("patch");
    expect(editFamily({ provider: "openai-chat", id: "openai/o3" })).toBe("patch");
    expect(editFamily({ provider: "openai-chat", id: "deepseek-coder" })).toBe("edit");
    expect(editFamily({ provider: "anthropic", id: "gpt-lookalike" })).toBe("edit");
    expect(editFamily(undefined)).toBe("edit");
  });

  it("is a profile condition", () => {
    const ctx = { editFormat: "exact", topLevel: true, interactive: false, config: {} };
    expect(conditionHolds("model_family:patch", { ...ctx, model: { provider: "openai", id: "o4-mini" } })).toBe(true);
    expect(conditionHolds("model_family:edit", { ...ctx, model: { provider: "openai", id: "o4-mini" } })).toBe(false);
    expect(conditionHolds("model_family:edit", ctx)).toBe(true);
    const entry = (cond: string) => profileToolSchema.safeParse({ handler: "x", description: "x.txt", enabled_when: [cond] }).success;
    expect(entry("model_family:patch")).toBe(true);
    expect(entry("model_family:other")).toBe(false);
  });
});

describe("chord edit tool family selection", () => {
  it("gives GPT and o-series models apply_patch alone, without write or delete", () => {
    expect(fileTools({ provider: "openai", id: "gpt-5" })).toEqual(["read", "apply_patch"]);
    expect(fileTools({ provider: "openai", id: "o3" })).toEqual(["read", "apply_patch"]);
  });

  it("gives other models edit with write and delete", () => {
    expect(fileTools({ provider: "anthropic", id: "claude-sonnet-4-5" })).toEqual(["read", "write", "edit", "delete"]);
    expect(fileTools({ provider: "openai-chat", id: "qwen3-coder" })).toEqual(["read", "write", "edit", "delete"]);
  });

  it("takes the fallback pairing when the model is unknown (profile checks, yuj tool)", () => {
    expect(fileTools(undefined)).toEqual(["read", "write", "edit", "delete"]);
    expect(fileTools({ provider: "scripted", id: "scripted" })).toEqual(["read", "write", "edit", "delete"]);
  });

  it("ignores [tools].edit_format, a Yuj setting", () => {
    const cfg = defaultConfig();
    cfg.tools.edit_format = "apply_patch";
    expect(fileTools({ provider: "anthropic", id: "claude-sonnet-4-5" }, cfg)).toEqual(["read", "write", "edit", "delete"]);
    cfg.tools.edit_format = "exact";
    expect(fileTools({ provider: "openai", id: "gpt-5" }, cfg)).toEqual(["read", "apply_patch"]);
  });

  it("leaves the Yuj profile to the edit format, whatever the model", () => {
    const base = loadProfile(join(repoRoot, "profiles"), "_base");
    const names = activateTools(base, registry, defaultConfig(), { topLevel: true, model: { provider: "openai", id: "gpt-5" } }).specs.map(
      (s) => s.name,
    );
    expect(names).toContain("edit");
    expect(names).toContain("write");
    expect(names).not.toContain("apply_patch");
  });
});
