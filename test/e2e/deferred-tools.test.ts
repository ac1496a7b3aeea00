// Deferred tool loading, end to end: the built yuj against the local model
// server, the tool lists asserted from the requests the server received.
// The first request carries the profile's active_default tools, load_tools,
// ask_user and done; load_tools adds exact names from the next request on;
// a hidden tool's call is refused with tool_not_active naming load_tools; a
// load past max_tools or of a disabled tool is refused whole; the trace
// records each load; a resumed session and a replay carry the same tools.

import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseScenario } from "../../core/providers/scenario.js";
import { isolatedEnv, runCli, traceFiles } from "../support/cli.js";
import { tempDemoRepo } from "../support/loop-harness.js";
import { startSseServer, type SseServer } from "../support/sse-server.js";

let server: SseServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const call = (name: string, args: Record<string, unknown>) => ({ tool_calls: [{ name, arguments: args }] });
const FIRST = ["bash", "read", "write", "edit", "load_tools", "ask_user", "done"];

async function run(turns: unknown[], toml = "", git = false) {
  server = await startSseServer({ scenario: parseScenario({ turns }) });
  const cwd = tempDemoRepo();
  // A replay needs the workspace snapshot a git work tree gives.
  if (git) execFileSync("git", ["init", "-q"], { cwd });
  writeFileSync(join(cwd, "yuj.toml"), `[tools]\nlazy_loading_enabled = true\n${toml}`);
  const env = isolatedEnv({ ANTHROPIC_API_KEY: "sk-test-key-for-the-local-server" });
  const args = ["code", "look around", "--config", "yuj.toml", "--output", "jsonl", "--provider", "anthropic", "--model", "m", "--base-url", server.baseUrlFor("anthropic")];
  const res = await runCli(args, { cwd, env, timeoutMs: 60_000 });
  return { res, cwd, env, args, requests: () => toolLists(server!), rows: () => jsonl(res.stdout) };
}

function toolLists(s: SseServer): string[][] {
  return s.requests.filter((r) => r.method === "POST").map((r) => (r.body.tools as Array<{ name: string }>).map((t) => t.name));
}

function jsonl(text: string): any[] {
  return text.trim().split("\n").filter(Boolean).map((l) => JSON.parse(l));
}

const resultOf = (rows: any[], name: string) => rows.filter((r) => r.type === "tool_result" && r.name === name);

describe("deferred tool loading", () => {
  it("starts from active_default and adds exact names from the next request on; a hidden tool's call names load_tools", async () => {
    const { res, requests, rows, env } = await run([
      call("grep", { pattern: "greet" }),
      call("load_tools", { names: ["grep"] }),
      call("grep", { pattern: "greet", path: "src" }),
      call("done", { message: "found it" }),
    ]);
    expect(res.code, res.stderr).toBe(0);
    const lists = requests();
    expect(lists[0]).toEqual(FIRST);
    expect(lists[1]).toEqual(FIRST); // the refused call loaded nothing
    expect(lists[2]).toEqual(["bash", "read", "write", "edit", "grep", "load_tools", "ask_user", "done"]);
    expect(lists[3]).toEqual(lists[2]); // loading never removes

    const [refused, found] = resultOf(rows(), "grep");
    expect(refused.ok).toBe(false);
    const envelope = JSON.parse(refused.modelText.replace(/^ERROR: /, ""));
    expect(envelope.error).toMatchObject({ type: "tool_not_active", tool: "grep", loader: "load_tools" });
    expect(envelope.error.message).toContain("load_tools");
    expect(found.ok).toBe(true);
    expect(found.modelText).toContain("src/greet.js");

    const trace = readFileSync(traceFiles(env)[0]!, "utf8").trim().split("\n").map((l) => JSON.parse(l));
    const loads = trace.filter((r) => r.type === "tools_loaded");
    expect(loads).toHaveLength(1);
    expect(loads[0]).toMatchObject({ names: ["grep"], active: ["bash", "read", "write", "edit", "grep", "load_tools", "ask_user", "done"] });
  }, 60_000);

  it("refuses a load past max_tools whole, and a disabled or unknown tool", async () => {
    // With think loaded, 5 counted tools are active; max_tools is 8: four more do not fit.
    const { res, requests, rows } = await run([
      call("load_tools", { names: ["glob", "grep", "apply_patch", "udiff", "write_todos"] }),
      call("load_tools", { names: ["think"] }),
      call("load_tools", { names: ["no_such_tool"] }),
      call("load_tools", { names: ["glob", "grep", "write_todos", "list_definitions"] }),
      call("done", {}),
    ], "todos_enabled = true\nthink_enabled = true\n[tools.list_definitions]\nenabled = true\n");
    expect(res.code, res.stderr).toBe(0);
    const loads = resultOf(rows(), "load_tools");
    // apply_patch and udiff are off with the exact edit format, so they are "disabled".
    expect(loads[0].ok).toBe(false);
    expect(loads[0].modelText).toMatch(/apply_patch is disabled in this session and cannot be loaded/);
    expect(loads[1].ok).toBe(true);
    expect(loads[2].modelText).toMatch(/no tool is named "no_such_tool"; nothing was loaded/);
    expect(loads[3].ok).toBe(false);
    expect(loads[3].modelText).toMatch(/would make 9 tools, over the active-tool limit 8 \(this profile's max_tools\); nothing was loaded/);
    const lists = requests();
    expect(lists[1]).toEqual(FIRST);
    const withThink = ["bash", "read", "write", "edit", "think", "load_tools", "ask_user", "done"];
    expect(lists[2]).toEqual(withThink);
    expect(lists[4]).toEqual(withThink); // the refused load left the list as it was
  }, 60_000);

  it("a replay sends the same requests, and a resumed session carries what was loaded", async () => {
    const first = await run([call("load_tools", { names: ["grep"] }), { text: "loaded" }], "", true);
    expect(first.res.code, first.res.stderr).toBe(0);
    expect(first.requests()[1]).toContain("grep");
    const [id] = readdirSync(join(first.env.XDG_STATE_HOME!, "yuj", "sessions"));

    // The replay runs the load again: its second request carries grep as the recorded one did.
    const replay = await runCli(["replay", id!], { cwd: first.cwd, env: first.env, timeoutMs: 60_000 });
    expect(replay.stdout, replay.stderr).toContain(`replay of ${id}: 2 requests, no difference`);
    expect(replay.code).toBe(0);

    // The resumed run's first request: grep is still there.
    server!.requests.length = 0;
    const resumed = await runCli(["resume", id!, "go on", "--output", "jsonl"], { cwd: first.cwd, env: first.env, timeoutMs: 60_000 });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(toolLists(server!)[0]).toEqual(["bash", "read", "write", "edit", "grep", "load_tools", "ask_user", "done"]);
  }, 90_000);

  it("a child session gets its tools at once: no load_tools, nothing hidden", async () => {
    server = await startSseServer({
      turnByRequest: true,
      scenario: parseScenario({
        turns: [
          call("load_tools", { names: ["task"] }),
          call("task", { agent: "explorer", prompt: "find greet" }),
          { text: "greet is in src/greet.js" }, // the child's one request
          call("done", { message: "asked a child" }),
        ],
      }),
    });
    const cwd = tempDemoRepo();
    writeFileSync(join(cwd, "yuj.toml"), "[tools]\nlazy_loading_enabled = true\ntask_enabled = true\n");
    const env = isolatedEnv({ ANTHROPIC_API_KEY: "sk-test-key-for-the-local-server" });
    const res = await runCli(["code", "look", "--config", "yuj.toml", "--output", "jsonl", "--provider", "anthropic", "--model", "m", "--base-url", server.baseUrlFor("anthropic")], { cwd, env, timeoutMs: 60_000 });
    expect(res.code, res.stderr).toBe(0);
    const lists = toolLists(server);
    expect(lists[1]).toContain("task");
    // The read-only explorer: every tool of the surface that only looks (glob and grep were never loaded by the parent; subagent_changes only reads),
    // and bash, whose commands are judged one by one.
    expect(lists[2]).toEqual(["bash", "read", "glob", "grep", "subagent_changes", "done"]);
    expect(lists[3]).toEqual(lists[1]);
  }, 60_000);

  it("with code mode too, the configuration is refused naming both keys", async () => {
    const cwd = tempDemoRepo();
    writeFileSync(join(cwd, "yuj.toml"), "[tools]\nlazy_loading_enabled = true\ncode_mode = true\n");
    const res = await runCli(["code", "hi", "--config", "yuj.toml"], { cwd, env: isolatedEnv() });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("tools.code_mode and tools.lazy_loading_enabled are both true");
    expect(res.stderr).toMatch(/set one of them to false/);
  }, 30_000);
});
