// `yuj code` end to end against a real local server speaking each provider's
// wire format: read a file → edit it → bash to check it → done.

import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadScenario } from "../../core/providers/scenario.js";
import { isolatedEnv, runCli, traceFiles } from "../support/cli.js";
import { repoRoot, tempDemoRepo } from "../support/loop-harness.js";
import { startSseServer, type SseServer } from "../support/sse-server.js";

const PLANTED_KEY = "sk-planted-5d1f0c7e9a2b4c6d8e0f1a3b5c7d9e1f";
const scenario = loadScenario(join(repoRoot, "fixtures/scenarios/four-step.json"));

const KEY_VAR = { anthropic: "ANTHROPIC_API_KEY", openai: "OPENAI_API_KEY", "openai-chat": "OPENAI_API_KEY" } as const;

let server: SseServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function gitRepo(): string {
  const dir = tempDemoRepo();
  execFileSync("git", ["init", "-q"], { cwd: dir });
  return dir;
}

describe.each(["anthropic", "openai", "openai-chat"] as const)("yuj code over %s", (provider) => {
  it("completes the four-step scenario, streams every event as JSONL, and writes a clean trace", async () => {
    server = await startSseServer({ scenario });
    const cwd = gitRepo();
    const env = isolatedEnv({ [KEY_VAR[provider]]: PLANTED_KEY });
    const res = await runCli(
      ["code", "Fix the greeting so the tests pass.", "--provider", provider, "--model", "test-model", "--base-url", server.baseUrlFor(provider), "--output", "jsonl"],
      { cwd, env },
    );
    expect(res.stderr).toBe("");
    expect(res.code).toBe(0);

    // The file on disk is fixed and the check really ran.
    expect(readFileSync(join(cwd, "src/greet.js"), "utf8")).toContain("return `Hello, ${name}!`;");
    expect(execFileSync("node", ["test.js"], { cwd, encoding: "utf8" })).toContain("all tests passed");

    // Every event is one JSON object a line.
    const events = res.stdout.trimEnd().split("\n").map((l) => JSON.parse(l));
    const types = new Set(events.map((e) => e.type));
    for (const t of [
      "session_started", "user_message", "request_sent", "provider_request", "provider_response",
      "assistant_text_delta", "assistant_message", "tool_call_started", "tool_call_args_delta",
      "tool_call_finished", "tool_result", "usage", "turn_finished", "run_finished",
    ]) expect(types, t).toContain(t);
    expect(events.filter((e) => e.type === "tool_result").map((e) => [e.name, e.ok])).toEqual([
      ["read", true], ["edit", true], ["bash", true], ["done", true],
    ]);
    expect(events.at(-1)).toMatchObject({ type: "run_finished", reason: "done" });
    // Arguments streamed in many small deltas reassemble to the scenario's.
    const editCall = events.find((e) => e.type === "tool_call_finished" && e.name === "edit");
    expect(JSON.parse(editCall.args)).toEqual(scenario.turns[1]!.tool_calls[0]!.arguments);
    expect(events.filter((e) => e.type === "tool_call_args_delta" && e.callId === editCall.callId).length).toBeGreaterThan(3);
    // Usage adds up over the four turns.
    const lastUsage = events.filter((e) => e.type === "usage").at(-1);
    expect(lastUsage.total.outputTokens).toBe(40 + 90 + 30 + 35);

    // The trace holds the same events, raw bodies included, and never the key.
    const [trace] = traceFiles(env);
    const raw = readFileSync(trace!, "utf8");
    expect(raw).not.toContain(PLANTED_KEY);
    const rows = raw.trimEnd().split("\n").map((l) => JSON.parse(l));
    expect(rows).toEqual(events);
    expect(rows.filter((r) => r.type === "provider_request")).toHaveLength(4);
    expect(rows.find((r) => r.type === "provider_response").body.length).toBeGreaterThan(100);
    // The key did reach the server, in a header the SDK chose.
    const headers = server.requests[0]!.headers;
    expect(`${headers["x-api-key"] ?? ""} ${headers.authorization ?? ""}`).toContain(PLANTED_KEY);
    // Four model requests, each carrying the previous results.
    expect(server.requests.filter((r) => r.method === "POST")).toHaveLength(4);
  });

  it("prints a readable transcript by default", async () => {
    server = await startSseServer({ scenario });
    const cwd = gitRepo();
    const env = isolatedEnv({ [KEY_VAR[provider]]: PLANTED_KEY });
    const res = await runCli(["code", "Fix the greeting.", "--provider", provider, "--model", "m", "--base-url", server.baseUrlFor(provider)], { cwd, env });
    expect(res.code).toBe(0);
    expect(res.stdout).toContain("I'll start by reading the greeting code.");
    expect(res.stdout).toContain("• read src/greet.js");
    expect(res.stdout).toContain("• bash node test.js");
    expect(res.stdout).toContain("all tests passed");
    expect(res.stdout).toMatch(/✓ done: greet\(\) now returns/);
  });
});
