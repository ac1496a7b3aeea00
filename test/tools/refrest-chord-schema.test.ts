// The facts the reference's delete and done tests look for in those tools'
// texts (in yuj's words, as test/core/chord-descriptions.test.ts does for
// read and search), read from the request yuj builds for the chord profile.

import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../core/config/schema.js";
import { activateTools } from "../../core/profiles/activate.js";
import { checkProfile, loadProfile } from "../../core/profiles/load.js";
import { builtinHandlers } from "../../tools/registry.js";
import { repoRoot } from "../support/loop-harness.js";

interface Spec {
  name: string;
  description: string;
  parameters: { properties?: Record<string, { description?: string }>; required?: string[] };
}

function chordSpecs(loopRunning: boolean): Map<string, Spec> {
  const registry = builtinHandlers();
  const profile = loadProfile(join(repoRoot, "profiles"), "chord");
  checkProfile(profile, registry, "minimal");
  const tools = activateTools(profile, registry, defaultConfig(), { topLevel: true, model: { provider: "anthropic", id: "claude-sonnet-4" }, loopRunning });
  return new Map((tools.specs as unknown as Spec[]).map((s) => [s.name, s]));
}

const param = (spec: Spec, name: string) => spec.parameters.properties?.[name]?.description ?? "";

describe("chord delete and done texts say what the reference's tests look for", () => {
  it("delete: the paths are files or symlinks checked to exist, never guessed", () => {
    const desc = param(chordSpecs(false).get("delete")!, "paths");
    for (const want of ["Files or symlinks", "checked exist", "Never guess"]) expect(desc).toContain(want);
  });

  it("write: edit for targeted changes; replace by writing, not by deleting first; delete only what should no longer exist", () => {
    const desc = chordSpecs(false).get("write")!.description;
    for (const want of ["prefer edit for targeted changes", "write it directly rather than deleting it first", "delete is only for a file that should no longer exist"]) expect(desc).toContain(want);
  });

  it("done (only while a loop runs): the exit bar, never for partial progress, and the report's parts in the user's language", () => {
    expect(chordSpecs(false).has("done")).toBe(false);
    const done = chordSpecs(true).get("done")!;
    for (const want of ["exit from the running loop", "only when the objective is fully done", "no other tool call is needed", "Not for partial progress", "keep working instead of calling done"]) {
      expect(done.description).toContain(want);
    }
    for (const unwanted of ["DO NOT call", "final answer directly", "approval"]) expect(done.description).not.toContain(unwanted);
    const report = param(done, "report");
    for (const want of ["the language the user writes in", "completion status", "what changed", "verification", "remaining issues"]) expect(report).toContain(want);
    expect(done.parameters.required).toEqual(["report"]);
  });
});
