// A Chord tool called in the wrong kind of session, as Chord's agent tests
// pin it: the main agent calling `complete` is told the tool is reserved for
// SubAgents; a worker calling `delegate`, `cancel` or `handoff` that they are
// the main agent's; `done` outside a loop that it is mounted only while one
// runs. Each through the real dispatcher and the real chord profile.

import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../core/config/schema.js";
import { prepareCall } from "../../core/dispatch.js";
import { activateTools } from "../../core/profiles/activate.js";
import { checkProfile, loadProfile } from "../../core/profiles/load.js";
import { builtinHandlers } from "../../tools/registry.js";
import { repoRoot } from "../support/loop-harness.js";

function refusal(tool: string, args: Record<string, unknown>, topLevel: boolean): string {
  const registry = builtinHandlers();
  const profile = loadProfile(join(repoRoot, "profiles"), "chord");
  checkProfile(profile, registry, "minimal");
  const config = defaultConfig();
  const tools = activateTools(profile, registry, config, { topLevel, model: { provider: "anthropic", id: "claude-sonnet-4" } });
  const prepared = prepareCall({ id: "c1", name: tool, args: JSON.stringify(args) }, tools, config);
  expect(prepared.ready).toBe(false);
  return prepared.ready ? "" : prepared.text;
}

const upTo = (text: string) => text.slice(0, text.indexOf(" Available tools: ") + " Available tools:".length);

describe("chord: a tool of another kind of session", () => {
  it("complete and escalate in the main agent: reserved for SubAgents, and the tools that are offered", () => {
    const text = refusal("complete", { summary: "done" }, true);
    expect(upTo(text)).toBe("ERROR: the complete tool is disabled in this session (it is reserved for SubAgents: a delegated worker reports on its task with it). Available tools:");
    expect(text).toMatch(/Available tools: read, write, edit, .*delegate, cancel, handoff, notify\.$/);
    expect(upTo(refusal("escalate", { reason: "stuck", kind: "blocked" }, true))).toBe(
      "ERROR: the escalate tool is disabled in this session (it is reserved for SubAgents: a delegated worker reports on its task with it). Available tools:",
    );
  });

  it("delegate, cancel and handoff in a worker: reserved for the main agent; the worker's list has complete and escalate", () => {
    for (const [tool, args] of [
      ["delegate", { description: "x", agent_type: "builder", expected_write_scope: { files: ["a.ts"] } }],
      ["cancel", { target_task_id: "task-1" }],
      ["handoff", { plan_path: "plans/plan-001.md" }],
    ] as const) {
      const text = refusal(tool, args, false);
      expect(upTo(text)).toBe(`ERROR: the ${tool} tool is disabled in this session (it is reserved for the main agent). Available tools:`);
      expect(text).toContain("complete, escalate");
    }
  });

  it("done outside a loop: mounted only while one runs", () => {
    expect(upTo(refusal("done", { report: "all done" }, true))).toBe(
      "ERROR: the done tool is disabled in this session (it is mounted only while a loop runs: /loop on or yuj code --loop). Available tools:",
    );
  });
});
