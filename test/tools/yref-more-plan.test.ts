// Required plan mode, driven through the real loop by a scripted model: what
// the model reads when it leaves the phase and acts in the same response.

import { existsSync, mkdtempSync, readFileSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../core/config/schema.js";
import { createGuards } from "../../tools/guards/index.js";
import { guardedSession } from "../guards/session.js";
import { runScenario } from "../support/loop-harness.js";

const planConfig = () => {
  const config = defaultConfig();
  config.loop.plan_mode = "required";
  return config;
};

const toolTexts = (history: { role: string; text?: string }[]) =>
  history.filter((h) => h.role === "tool").map((h) => h.text ?? "");

describe("leaving the planning phase", () => {
  it("a source write sent beside exit_plan_mode in the same response is still refused", async () => {
    const config = planConfig();
    const run = await runScenario(
      {
        turns: [
          {
            tool_calls: [
              { name: "write", arguments: { path: ".solver/plan.md", content: "Implement safely.\n" } },
              { name: "exit_plan_mode" },
              { name: "write", arguments: { path: "too-early.py", content: "unsafe = True\n" } },
            ],
          },
          { tool_calls: [{ name: "write", arguments: { path: "too-early.py", content: "unsafe = True\n" } }] },
          { text: "stopping" },
        ],
      },
      { config, guards: createGuards(config) },
    );
    const texts = toolTexts(run.history as never);
    expect(texts[1]).toMatch(/^OK: plan accepted/);
    expect(texts[2]).toBe(
      "ERROR: plan_mode: write was sent in the same response as exit_plan_mode, before the plan was accepted, " +
        "so it did not run. The implementation tools are unlocked now: send the call again.",
    );
    // Sent again in the next response, after the model has read the acceptance, it runs.
    expect(texts[3]).toBe("OK: wrote 14 bytes to too-early.py");
    expect(readFileSync(join(run.cwd, "too-early.py"), "utf8")).toBe("unsafe = True\n");
    expect(readFileSync(join(run.cwd, ".solver/plan.md"), "utf8")).toBe("Implement safely.\n");
  });
});

describe("the plan file's path", () => {
  it("a .solver directory that is a symlink to somewhere else is not the plan file", async () => {
    const s = await guardedSession((c) => {
      c.loop.plan_mode = "required";
    });
    try {
      const outside = mkdtempSync(join(tmpdir(), "yuj-outside-"));
      symlinkSync(outside, join(s.cwd, ".solver"), "dir");
      const write = await s.call("write", { path: ".solver/plan.md", content: "plan\n" });
      expect(write.ok).toBe(false);
      expect(write.modelText).toBe(
        "ERROR: plan_mode: write may only write .solver/plan.md until the plan is accepted — write your plan to .solver/plan.md, then call exit_plan_mode.",
      );
      expect(existsSync(join(outside, "plan.md"))).toBe(false);
    } finally {
      await s.cleanup();
    }
  });
});

describe("exit_plan_mode once the plan is accepted", () => {
  it("is refused as over, in the same response and later, and the phase stays over", async () => {
    const s = await guardedSession((c) => {
      c.loop.plan_mode = "required";
    });
    try {
      await s.put({ ".solver/plan.md": "1. change x\n" });
      expect((await s.call("exit_plan_mode")).ok).toBe(true);
      const again = "ERROR: plan_mode: exit_plan_mode: the plan was already accepted and the planning phase is over; the implementation tools are unlocked.";
      expect((await s.call("exit_plan_mode")).modelText).toBe(again);
      s.hidden(); // the next model request
      expect((await s.call("exit_plan_mode")).modelText).toBe(again);
      expect((await s.call("write", { path: "src.py", content: "x = 1\n" })).ok).toBe(true);
    } finally {
      await s.cleanup();
    }
  });
});
