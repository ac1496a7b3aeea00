// The loop's guardrails over the wire: the real loop against the local SSE
// server through the Anthropic adapter; what is checked is what the server
// received and how the run ended.

import { afterEach, describe, expect, it } from "vitest";
import { defaultConfig, type Config } from "../../core/config/schema.js";
import { runScenario } from "../support/loop-harness.js";
import { anthropicAt, closeAnthropicServers } from "../support/anthropic-server.js";
import { createGuards } from "../../tools/guards/index.js";

afterEach(closeAnthropicServers);


const readCall = (args: Record<string, unknown>) => ({ text: "", tool_calls: [{ name: "read", arguments: args }] });
const lastUserText = (body: any): string => {
  const m = body.messages.at(-1);
  return typeof m.content === "string" ? m.content : JSON.stringify(m.content);
};

describe("[loop].duplicate_abort", () => {
  it("three identical calls in a row end the run with the reason; the fourth request is never sent", async () => {
    const same = readCall({ path: "README.md" });
    const { scenario, provider, bodies } = await anthropicAt([same, same, same, same, { text: "never" }]);
    const config: Config = defaultConfig();
    config.loop.duplicate_abort = 3;
    const run = await runScenario(scenario, { config, provider });
    expect(run.outcome.reason).toBe("error");
    expect(run.outcome.message).toBe(
      "stopped: the model made the same call 3 times in a row (read with the same arguments) ([loop].duplicate_abort)",
    );
    expect(bodies()).toHaveLength(3);
    expect(run.events.find((e) => e.type === "run_finished")).toMatchObject({ reason: "error", message: run.outcome.message });
  });

  it("calls with other arguments in between do not count; 0 never stops", async () => {
    const a = readCall({ path: "README.md" });
    const b = readCall({ path: "package.json" });
    const { scenario, provider } = await anthropicAt([a, a, b, a, a, { text: "fine" }]);
    const config: Config = defaultConfig();
    config.loop.duplicate_abort = 3;
    const run = await runScenario(scenario, { config, provider });
    expect(run.outcome).toMatchObject({ reason: "answered", message: "fine" });
    const again = await anthropicAt([a, a, a, a, { text: "fine" }]);
    const off = await runScenario(again.scenario, { config: defaultConfig(), provider: again.provider });
    expect(off.outcome.reason).toBe("answered");
  });
});

describe("[loop].error_nudge_threshold", () => {
  it("after two failed calls the next request carries the nudge, once", async () => {
    const { scenario, provider, bodies } = await anthropicAt([
      readCall({ path: "missing-1.txt" }),
      readCall({ path: "missing-2.txt" }),
      readCall({ path: "README.md" }),
      { text: "ok" },
    ]);
    const config: Config = defaultConfig();
    config.loop.error_nudge_threshold = 2;
    const run = await runScenario(scenario, { config, provider });
    expect(run.outcome.reason).toBe("answered");
    const sent = bodies();
    expect(lastUserText(sent[1])).not.toContain("tool calls failed");
    expect(lastUserText(sent[2])).toContain("The last 2 tool calls failed. Stop and reread the errors");
    expect(lastUserText(sent[3])).not.toContain("tool calls failed");
  });

  it("is off by default", async () => {
    const { scenario, provider, bodies } = await anthropicAt([readCall({ path: "m1" }), readCall({ path: "m2" }), readCall({ path: "m3" }), { text: "ok" }]);
    await runScenario(scenario, { config: defaultConfig(), provider });
    expect(bodies().some((b) => JSON.stringify(b.messages).includes("tool calls failed"))).toBe(false);
  });
});

describe("[loop].plan_max_turns", () => {
  it("a planning phase that outlasts its turns (and two more) ends the run with the reason", async () => {
    const look = readCall({ path: "README.md" });
    const { scenario, provider, bodies } = await anthropicAt([look, readCall({ path: "package.json" }), look, { text: "never" }]);
    const config: Config = defaultConfig();
    config.loop.plan_mode = "required";
    config.loop.plan_max_turns = 1;
    const run = await runScenario(scenario, { config, provider, guards: createGuards(config) });
    expect(run.outcome).toMatchObject({
      reason: "error",
      message: "stopped: the planning phase used its 1 turns ([loop].plan_max_turns) and 2 more without an accepted plan",
    });
    expect(bodies()).toHaveLength(3);
    expect(run.events.some((e) => e.type === "error" && e.message === run.outcome.message)).toBe(true);
  });
});
