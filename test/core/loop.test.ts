import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defaultConfig } from "../../core/config/schema.js";
import type { ToolHandler } from "../../core/tool-types.js";
import { assertValidHistory, baseToolset, repoRoot, runScenario, tempDemoRepo } from "../support/loop-harness.js";

const fourStep = JSON.parse(readFileSync(join(repoRoot, "fixtures/scenarios/four-step.json"), "utf8"));

describe("runLoop", () => {
  it("runs read → edit → bash → done and changes the file", async () => {
    const run = await runScenario(fourStep);
    expect(run.outcome.reason).toBe("done");
    expect(run.outcome.turns).toBe(4);
    expect(readFileSync(join(run.cwd, "src/greet.js"), "utf8")).toContain("return `Hello, ${name}!`;");
    const results = run.events.filter((e) => e.type === "tool_result");
    expect(results.map((r) => r.type === "tool_result" && [r.name, r.ok])).toEqual([
      ["read", true],
      ["edit", true],
      ["bash", true],
      ["done", true],
    ]);
    const bash = results[2]!;
    expect(bash.type === "tool_result" && bash.modelText).toContain("all tests passed");
    assertValidHistory(run.history);
    // Sequence numbers are dense and every event is plain JSON.
    run.events.forEach((e, i) => expect(e.seq).toBe(i + 1));
    expect(JSON.parse(JSON.stringify(run.events))).toEqual(run.events);
  });

  it("answers a malformed-JSON call with an error the model can act on, and goes on", async () => {
    const run = await runScenario({
      turns: [
        { tool_calls: [{ name: "read", arguments: '{"path": "src/greet.js"' }] },
        { text: "Sorry, retrying.", tool_calls: [{ name: "read", arguments: { path: "src/greet.js" } }] },
        { text: "Looks fine." },
      ],
    });
    expect(run.outcome.reason).toBe("answered");
    const first = run.history.find((h) => h.role === "tool")!;
    expect(first.role === "tool" && first.text).toMatch(/^ERROR: bad arguments for read: arguments are not valid JSON/);
    expect(first.role === "tool" && first.isError).toBe(true);
    assertValidHistory(run.history);
  });

  it("answers an unknown tool by naming the available ones", async () => {
    const run = await runScenario({
      turns: [{ tool_calls: [{ name: "delete_everything", arguments: {} }] }, { text: "ok" }],
    });
    const result = run.history.find((h) => h.role === "tool");
    expect(result?.role === "tool" && result.text).toBe(
      "ERROR: unknown tool 'delete_everything'. Available tools: bash, read, write, edit, glob, grep, ask_user, done.",
    );
    expect(run.outcome.reason).toBe("answered");
  });

  it("reports a schema mismatch by path and type without the value", async () => {
    const run = await runScenario({
      turns: [{ tool_calls: [{ name: "read", arguments: { path: 12345 } }] }, { text: "ok" }],
    });
    const result = run.history.find((h) => h.role === "tool");
    expect(result?.role === "tool" && result.text).toBe("ERROR: bad arguments for read: path: expected string, got integer");
  });

  it("uses the structured envelope when schema_validation = reject", async () => {
    const config = defaultConfig();
    config.tools.schema_validation = "reject";
    const run = await runScenario(
      { turns: [{ tool_calls: [{ name: "read", arguments: { path: "a", extra: true } }] }, { text: "ok" }] },
      { config },
    );
    const result = run.history.find((h) => h.role === "tool");
    const text = result?.role === "tool" ? result.text : "";
    expect(text.startsWith('ERROR: {"error":{"errors":[')).toBe(true);
    const body = JSON.parse(text.slice("ERROR: ".length));
    expect(body.error).toMatchObject({
      message: "Tool arguments do not match the declared schema.",
      tool: "read",
      type: "tool_schema_reject",
      version: 1,
    });
    expect(body.error.errors[0]).toMatchObject({ path: "$.extra", keyword: "additionalProperties" });
  });

  it("stops at max_turns", async () => {
    const config = defaultConfig();
    config.loop.max_turns = 2;
    const looping = { turns: Array.from({ length: 5 }, () => ({ tool_calls: [{ name: "glob", arguments: { pattern: "*.js" } }] })) };
    const run = await runScenario(looping, { config });
    expect(run.outcome.reason).toBe("max_turns");
    expect(run.outcome.turns).toBe(2);
    assertValidHistory(run.history);
  });

  it("does not run calls that follow done in the same response", async () => {
    const run = await runScenario({
      turns: [
        {
          tool_calls: [
            { name: "done", arguments: { message: "finished" } },
            { name: "write", arguments: { path: "late.txt", content: "x" } },
          ],
        },
      ],
    });
    expect(run.outcome).toMatchObject({ reason: "done", message: "finished" });
    const late = run.history.filter((h) => h.role === "tool")[1];
    expect(late?.role === "tool" && late.text).toMatch(/^ERROR: not run/);
    assertValidHistory(run.history);
  });

  it("runs consecutive read-only calls in parallel and writes in order", async () => {
    const log: string[] = [];
    const slow = (id: string, readOnly: boolean): ToolHandler => ({
      id,
      effects: new Set([readOnly ? "inspect" : "mutate"]),
      view: { card: "foldable" },
      schema: z.object({ tag: z.string() }),
      async run(raw) {
        const args = raw as { tag: string };
        log.push(`start ${args.tag}`);
        await new Promise((r) => setTimeout(r, 40));
        log.push(`end ${args.tag}`);
        return { ok: true, modelText: args.tag };
      },
    });
    // The real surface, with read and write swapped for slow probes.
    const toolset = baseToolset();
    toolset.tools.get("read")!.handler = slow("read", true);
    toolset.tools.get("write")!.handler = slow("write", false);
    const run = await runScenario(
      {
        turns: [
          {
            tool_calls: [
              { name: "read", arguments: { tag: "r1" } },
              { name: "read", arguments: { tag: "r2" } },
              { name: "write", arguments: { tag: "w1" } },
              { name: "read", arguments: { tag: "r3" } },
            ],
          },
          { text: "ok" },
        ],
      },
      { toolset },
    );
    expect(run.outcome.reason).toBe("answered");
    expect(log).toEqual(["start r1", "start r2", "end r1", "end r2", "start w1", "end w1", "start r3", "end r3"]);
    // Results are appended in call order.
    expect(run.history.filter((h) => h.role === "tool").map((h) => h.role === "tool" && h.text)).toEqual(["r1", "r2", "w1", "r3"]);
  });

  it("cancels mid-stream and leaves every call with a result", async () => {
    const controller = new AbortController();
    const run = await runScenario(
      {
        turns: [
          {
            text: "Reading two files now, and this sentence is long enough to be cut while it streams.",
            tool_calls: [
              { name: "read", arguments: { path: "src/greet.js" } },
              { name: "read", arguments: { path: "test.js" } },
            ],
          },
        ],
      },
      {
        delayMs: 5,
        signal: controller.signal,
        onEvent: (e) => {
          if (e.type === "tool_call_started" && e.callId === "call_0_1") controller.abort();
        },
      },
    );
    expect(run.outcome.reason).toBe("cancelled");
    assertValidHistory(run.history);
    const results = run.history.filter((h) => h.role === "tool");
    expect(results.length).toBe(2);
    for (const r of results) expect(r.role === "tool" && r.text).toMatch(/cancelled/);
    expect(run.events.at(-1)).toMatchObject({ type: "run_finished", reason: "cancelled" });
  });

  it("cancels a running command and kills it", async () => {
    const controller = new AbortController();
    const started = Date.now();
    const run = await runScenario(
      { turns: [{ tool_calls: [{ name: "bash", arguments: { cmd: "sleep 30" } }] }, { text: "never" }] },
      {
        signal: controller.signal,
        onEvent: (e) => {
          if (e.type === "tool_call_finished") setTimeout(() => controller.abort(), 200);
        },
      },
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(run.outcome.reason).toBe("cancelled");
    const result = run.events.find((e) => e.type === "tool_result");
    expect(result).toMatchObject({ cancelled: true, ok: false });
    assertValidHistory(run.history);
  });

  it("bounds a huge tool result centrally and saves the full text", async () => {
    const config = defaultConfig();
    config.output.max_output_chars = 2000;
    const cwd = tempDemoRepo();
    writeFileSync(join(cwd, "big.txt"), Array.from({ length: 5000 }, (_, i) => `row ${i + 1}`).join("\n") + "\n");
    const run = await runScenario(
      { turns: [{ tool_calls: [{ name: "read", arguments: { path: "big.txt" } }] }, { text: "ok" }] },
      { config, cwd },
    );
    const result = run.events.find((e) => e.type === "tool_result");
    if (result?.type !== "tool_result") throw new Error("no result");
    expect(result.modelText.length).toBeLessThan(2300);
    expect(result.modelText.startsWith("1: row 1\n2: row 2\n")).toBe(true);
    expect(result.modelText).toMatch(/\[\.\.\. \d+ chars omitted \(\d+ lines\); full output \(\d+ chars\) saved to .+\.txt/);
    expect(result.modelText.trimEnd().endsWith("5000: row 5000")).toBe(true);
    expect(readFileSync(result.fullOutputPath!, "utf8").split("\n").length).toBeGreaterThanOrEqual(5000);
  });
});
