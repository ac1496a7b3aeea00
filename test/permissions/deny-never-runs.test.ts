// Property: whatever the model sends, a call the rules deny never reaches its
// handler. Random tool names, argument shapes and rule lists, through the
// real dispatcher and the real permission gate.

import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../core/config/schema.js";
import { prepareCall, runPrepared } from "../../core/dispatch.js";
import { createEmitter } from "../../core/events.js";
import { createPermissionGate } from "../../core/permissions/gate.js";
import type { Rule } from "../../core/permissions/types.js";
import { nodeServices } from "../../core/services.js";
import { baseToolset } from "../support/loop-harness.js";
import { createSessionMemory } from "../../core/session-memory.js";

/** A small deterministic generator (no dependencies, reproducible failures). */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s ^ (s >>> 15), 2246822507) + 0x9e3779b9) >>> 0) / 2 ** 32);
}

const WORDS = ["rm -rf /", "ls", "git push", "cat a; rm b", "echo $(rm x)", "src/a.ts", "../../etc/passwd", "*", "?", ""];
const TOOLS = ["bash", "read", "write", "edit", "glob", "grep", "done"];

describe("a denied call never runs", () => {
  it("holds for 500 random calls and rule lists", async () => {
    const random = rng(20261129);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
    const toolset = baseToolset();
    let ran = 0;
    for (const t of toolset.tools.values()) {
      const real = t.handler;
      t.handler = { ...real, run: async (...a) => (ran++, real.run(...a)) };
    }
    const cwd = mkdtempSync(join(tmpdir(), "yuj-prop-"));
    const { emit } = createEmitter("prop", () => {});
    for (let i = 0; i < 500; i++) {
      const tool = pick(TOOLS);
      // Some allow/ask noise first; the last rule that matches this tool is a deny.
      const rules: Rule[] = Array.from({ length: Math.floor(random() * 4) }, () => ({
        tool: pick([...TOOLS, "*"]),
        pattern: pick(WORDS),
        action: pick(["allow", "ask"] as const),
      }));
      rules.push({ tool: pick([tool, "*", `${tool.slice(0, 2)}*`]), action: "deny" });
      const args: Record<string, unknown> = {};
      for (const key of ["cmd", "path", "pattern", "content", "old_str", "new_str", "message"]) {
        if (random() < 0.5) args[key] = pick(WORDS);
      }
      const gate = createPermissionGate({
        cwd,
        rules,
        sessionRules: [],
        policy: { surface: pick(["yuj", "chord"] as const), yolo: random() < 0.5, measurement: false, tools: toolset.catalog },
        approver: { ask: async () => ({ decision: "allow_once" }) },
        emit,
      });
      const before = ran;
      const prepared = prepareCall({ id: `c${i}`, name: tool, args: JSON.stringify(args) }, toolset, defaultConfig());
      const outcome = await runPrepared(prepared, {
        toolset,
        config: defaultConfig(),
        services: nodeServices(),
        emit,
        cwd,
        sessionDir: cwd,
        memory: createSessionMemory(),
        signal: new AbortController().signal,
        gate,
      });
      expect(ran, `call ${i}: ${tool} ${JSON.stringify(args)} with ${JSON.stringify(rules)}`).toBe(before);
      expect(outcome.ok).toBe(false);
    }
  });
});
