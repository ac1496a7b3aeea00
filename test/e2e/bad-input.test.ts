// Bad input ends in a clear message and nothing written.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseScenario } from "../../core/providers/scenario.js";
import { isolatedEnv, runCli, traceFiles } from "../support/cli.js";
import { tempDemoRepo } from "../support/loop-harness.js";
import { startSseServer, type SseServer } from "../support/sse-server.js";

const KEY = "sk-test-0123456789abcdef";
let server: SseServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const untouched = (cwd: string) => readFileSync(join(cwd, "src/greet.js"), "utf8");
const ORIGINAL = 'return "Hello, " + name;';

describe("bad input", () => {
  it("an unknown flag: exit 2, one line naming it, nothing written", async () => {
    const cwd = tempDemoRepo();
    const env = isolatedEnv();
    const res = await runCli(["code", "task", "--frobnicate"], { cwd, env });
    expect(res.code).toBe(2);
    expect(res.stderr).toBe("yuj: unknown option '--frobnicate'. Run `yuj --help` for the options.\n");
    expect(existsSync(env.XDG_STATE_HOME!)).toBe(false);
  });

  it("a bad config key: exit 2, names file and key, nothing written", async () => {
    const cwd = tempDemoRepo();
    mkdirSync(join(cwd, ".yuj"));
    writeFileSync(join(cwd, ".yuj/config.toml"), "[tools]\nbash_timout = 5\n");
    const env = isolatedEnv({ ANTHROPIC_API_KEY: KEY });
    const res = await runCli(["code", "task"], { cwd, env });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(join(cwd, ".yuj/config.toml"));
    expect(res.stderr).toContain("tools.bash_timout");
    expect(res.stderr).toContain("tools.bash_timeout");
    expect(existsSync(env.XDG_STATE_HOME!)).toBe(false);
    expect(untouched(cwd)).toContain(ORIGINAL);
  });

  it("a missing API key: exit 2, names the variable, nothing written", async () => {
    const cwd = tempDemoRepo();
    const env = isolatedEnv();
    const res = await runCli(["code", "task", "--provider", "anthropic"], { cwd, env });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/^yuj: anthropic needs an API key, but ANTHROPIC_API_KEY is not set\./);
    expect(existsSync(env.XDG_STATE_HOME!)).toBe(false);
  });

  it("no provider at all: says how to connect one", async () => {
    const res = await runCli(["code", "task"], { cwd: tempDemoRepo(), env: isolatedEnv() });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("no model provider is configured");
    expect(res.stderr).toContain("yuj setup --provider anthropic");
  });

  it("an unreachable provider: exit 1, names provider and address, files untouched", async () => {
    const cwd = tempDemoRepo();
    writeFileSync(join(cwd, "fast.toml"), "[provider]\nmax_retries = 1\n");
    const env = isolatedEnv({ OPENAI_API_KEY: KEY });
    const res = await runCli(
      ["code", "task", "--provider", "openai-chat", "--model", "m", "--base-url", "http://127.0.0.1:9/v1", "--config", "fast.toml"],
      { cwd, env },
    );
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/openai-chat/);
    expect(res.stderr).toMatch(/127\.0\.0\.1:9/);
    expect(untouched(cwd)).toContain(ORIGINAL);
  });

  it.each([
    ["malformed tool-call JSON", '{"path": "src/greet.js"', /^ERROR: bad arguments for read: arguments are not valid JSON/],
    ["an unknown tool name", null, /^ERROR: unknown tool 'rm_rf'\. Available tools: bash, read/],
  ])("%s from the model: an error result, and the run goes on", async (_label, rawArgs, expected) => {
    const call = rawArgs === null ? { name: "rm_rf", arguments: {} } : { name: "read", arguments: rawArgs };
    server = await startSseServer({
      scenario: parseScenario({ turns: [{ tool_calls: [call] }, { text: "I could not do that; stopping here." }] }),
    });
    const cwd = tempDemoRepo();
    const env = isolatedEnv({ ANTHROPIC_API_KEY: KEY });
    const res = await runCli(["code", "task", "--provider", "anthropic", "--model", "m", "--base-url", server.baseUrlFor("anthropic"), "--output", "jsonl"], { cwd, env });
    expect(res.code).toBe(0);
    const events = res.stdout.trimEnd().split("\n").map((l) => JSON.parse(l));
    const result = events.find((e) => e.type === "tool_result");
    expect(result.ok).toBe(false);
    expect(result.modelText).toMatch(expected);
    // The error went back to the model as the tool result.
    const second = server.requests.filter((r) => r.method === "POST")[1]!.body;
    expect(JSON.stringify(second.messages)).toContain(result.modelText.slice(0, 40).replace(/"/g, '\\"'));
    expect(events.at(-1)).toMatchObject({ type: "run_finished", reason: "answered" });
    expect(untouched(cwd)).toContain(ORIGINAL);
    expect(traceFiles(env)).toHaveLength(1);
  });
});
