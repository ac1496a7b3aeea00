// Chord handoff's plan_path as the reference reads it: `~` is the user's
// home (the plan must still lie inside the project), and a missing plan or a
// folder is refused in the reference's words. Real plan files in a temp
// project, the real main roles.

import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { CoreEvent, Emit } from "../../core/events.js";
import { createMainRoles } from "../../core/orchestration/main-roles.js";
import { repoRoot } from "../support/loop-harness.js";

const savedHome = process.env.HOME;
afterEach(() => {
  process.env.HOME = savedHome;
});

// The role changes are not what these cases look at.
const emit: Emit = (body) => ({ ...body, seq: 0, ts: "" }) as unknown as CoreEvent;

function planner(cwd: string) {
  const agentDirs = { project: join(cwd, ".yuj", "agents"), user: join(cwd, "no-user-agents"), builtin: join(repoRoot, "agents") };
  return createMainRoles({ agentDirs, cwd, initial: "planner", save: () => {}, emit });
}

describe("chord handoff: plan_path with ~ and the refusals", () => {
  it("reads ~/… from the home folder; a missing plan and a folder are refused as the reference refuses them", () => {
    const cwd = realpathSync(mkdtempSync(join(tmpdir(), "yuj-handoff-")));
    mkdirSync(join(cwd, "plans", "drafts"), { recursive: true });
    writeFileSync(join(cwd, "plans", "plan-001.md"), "# Plan\n1. do it\n");
    process.env.HOME = dirname(cwd);
    const roles = planner(cwd);
    expect(roles.handoff("~/" + basename(cwd) + "/plans/missing.md", cwd)).toMatchObject({
      ok: false,
      modelText: "handoff refused: plan file plans/missing.md not found; write the plan before calling handoff (e.g. plans/plan-001.md)",
    });
    expect(roles.handoff("plans/drafts", cwd)).toMatchObject({ ok: false, modelText: "handoff refused: plan_path plans/drafts is a directory; expected a file" });
    const done = roles.handoff("~/" + basename(cwd) + "/plans/plan-001.md", cwd);
    expect(done.ok).toBe(true);
    expect(done.modelText).toContain("Handed off: the planner's plan plans/plan-001.md goes to the builder");
    expect(done.modelText.endsWith("Carry out this plan now:\n\n# Plan\n1. do it\n")).toBe(true);
    expect(roles.current()).toBe("builder");
  });
});
