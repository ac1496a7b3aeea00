// MCP through the built `yuj`, as a user runs it: a real server-everything
// configured in TOML (or the project's .mcp.json), a model on a local SSE
// server that sees the server's tools in its request and calls them.

import { mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseScenario } from "../../core/providers/scenario.js";
import { isolatedEnv, runCli } from "../support/cli.js";
import { startSseServer, type SseServer } from "../support/sse-server.js";
import { EVERYTHING } from "../mcp/support.js";

let server: SseServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const SERVER_TOML = `[mcp.servers.everything]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(EVERYTHING)}, "stdio"]\n`;

interface Row {
  type: string;
  name?: string;
  tool?: string;
  modelText?: string;
  server?: string;
  state?: string;
  text?: string;
}
const rows = (stdout: string): Row[] => stdout.trim().split("\n").filter(Boolean).map((l) => JSON.parse(l) as Row);
const result = (stdout: string, name: string) => rows(stdout).find((r) => r.type === "tool_result" && r.name === name)?.modelText;

async function run(turns: unknown[], toml: string, extra: string[] = [], files: Record<string, string> = {}, env = isolatedEnv({ ANTHROPIC_API_KEY: "sk-test" })) {
  server = await startSseServer({ scenario: parseScenario({ turns }) });
  const cwd = realpathSync(mkdtempSync(join(tmpdir(), "yuj-mcp-e2e-")));
  writeFileSync(join(cwd, "yuj.toml"), toml);
  for (const [rel, text] of Object.entries(files)) writeFileSync(join(cwd, rel), text);
  const args = ["code", "use the tools", "--config", "yuj.toml", "--output", "jsonl", "--provider", "anthropic", "--model", "m", "--base-url", server.baseUrlFor("anthropic"), ...extra];
  const res = await runCli(args, { cwd, env, timeoutMs: 60_000 });
  const first = server.requests.find((r) => r.method === "POST");
  return { res, cwd, env, tools: (first?.body?.tools ?? []) as Array<{ name: string; input_schema: unknown }> };
}

describe("MCP tools in a headless run", () => {
  it("the first request carries the server's tools; a read-only tool runs, a rule on a full name denies another", async () => {
    const { res, tools } = await run(
      [
        { tool_calls: [{ name: "mcp_everything_echo", arguments: { message: "from the model" } }] },
        { tool_calls: [{ name: "mcp_everything_toggle-simulated-logging", arguments: {} }] },
        { text: "finished" },
      ],
      `${SERVER_TOML}[[permissions.rules]]\ntool = "mcp_everything_toggle-simulated-logging"\naction = "deny"\n`,
    );
    expect(res.stderr).toBe("");
    expect(res.code).toBe(0);
    const echo = tools.find((t) => t.name === "mcp_everything_echo");
    expect(echo?.input_schema).toMatchObject({ properties: { message: { type: "string" } }, required: ["message"] });
    expect(result(res.stdout, "mcp_everything_echo")).toBe("Echo: from the model");
    expect(result(res.stdout, "mcp_everything_toggle-simulated-logging")).toMatch(/^ERROR: permission denied: denied by rule \{tool="mcp_everything_toggle-simulated-logging"/);
    expect(rows(res.stdout).filter((r) => r.type === "mcp_server").map((r) => r.state)).toEqual(["connecting", "connected"]);
  }, 90_000);

  it("the server's resources and prompts are tools of its own: the model reads a resource and gets a prompt; a rule on a URI pattern denies a read", async () => {
    const { res, tools } = await run(
      [
        { tool_calls: [{ name: "mcp_everything_read_resource", arguments: { uri: "demo://resource/dynamic/text/4" } }] },
        { tool_calls: [{ name: "mcp_everything_get_prompt", arguments: { name: "args-prompt", arguments: { city: "Porto" } } }] },
        { tool_calls: [{ name: "mcp_everything_read_resource", arguments: { uri: "demo://resource/static/document/features.md" } }] },
        { text: "finished" },
      ],
      `${SERVER_TOML}[[permissions.rules]]\ntool = "mcp_everything_read_resource"\npattern = "demo://resource/static/*"\naction = "deny"\n`,
    );
    expect(res.code).toBe(0);
    const names = tools.map((t) => t.name);
    for (const added of ["mcp_everything_list_resources", "mcp_everything_read_resource", "mcp_everything_list_prompts", "mcp_everything_get_prompt"]) expect(names).toContain(added);
    const outs = rows(res.stdout).filter((r) => r.type === "tool_result").map((r) => r.modelText ?? "");
    expect(outs[0]).toMatch(/^\[resource demo:\/\/resource\/dynamic\/text\/4\]\n/);
    expect(outs[1]).toMatch(/\[user\]\n.*Porto/);
    expect(outs[2]).toMatch(/^ERROR: permission denied: denied by rule \{tool="mcp_everything_read_resource", pattern="demo:\/\/resource\/static\/\*"/);
  }, 90_000);

  it("on Yuj a tool the server does not mark read-only asks (a headless run pauses); on Chord the baseline lets it run", async () => {
    const turns = [{ tool_calls: [{ name: "mcp_everything_toggle-simulated-logging", arguments: {} }] }, { text: "finished" }];
    const yuj = await run(turns, SERVER_TOML);
    expect(yuj.res.code).toBe(3);
    const asked = rows(yuj.res.stdout).find((r) => r.type === "approval_requested");
    expect(asked?.tool).toBe("mcp_everything_toggle-simulated-logging");
    const chord = await run(turns, SERVER_TOML, ["--profile", "chord"]);
    expect(chord.res.code).toBe(0);
    expect(result(chord.res.stdout, "mcp_everything_toggle-simulated-logging")).toMatch(/^Started simulated, random-leveled logging/);
  }, 120_000);

  it("a server that exits at once is reported once and its tools are absent; the run goes on", async () => {
    const { res, tools } = await run([{ text: "no tools needed" }], `[mcp.servers.broken]\ncommand = ${JSON.stringify(process.execPath)}\nargs = ["-e", "process.exit(5)"]\n`);
    expect(res.code).toBe(0);
    expect(tools.some((t) => t.name.startsWith("mcp_"))).toBe(false);
    const failed = rows(res.stdout).filter((r) => r.type === "mcp_server" && r.state === "failed");
    expect(failed).toHaveLength(1);
  }, 60_000);

  it("the project's .mcp.json starts its server only once the project is trusted", async () => {
    const mcpJson = JSON.stringify({ mcpServers: { proj: { command: process.execPath, args: [EVERYTHING, "stdio"] } } });
    const env = isolatedEnv({ ANTHROPIC_API_KEY: "sk-test" });
    const untrusted = await run([{ text: "ok" }], "", [], { ".mcp.json": mcpJson }, env);
    expect(untrusted.res.code).toBe(0);
    expect(untrusted.tools.some((t) => t.name.startsWith("mcp_proj_"))).toBe(false);
    expect(untrusted.res.stdout + untrusted.res.stderr).toContain("mcp.servers.proj");

    const trust = await runCli(["trust"], { cwd: untrusted.cwd, env });
    expect(trust.code).toBe(0);
    await server!.close();
    server = await startSseServer({ scenario: parseScenario({ turns: [{ text: "ok" }] }) });
    const args = ["code", "again", "--config", "yuj.toml", "--output", "jsonl", "--provider", "anthropic", "--model", "m", "--base-url", server.baseUrlFor("anthropic")];
    const trusted = await runCli(args, { cwd: untrusted.cwd, env, timeoutMs: 60_000 });
    expect(trusted.code).toBe(0);
    const names = (server.requests.find((r) => r.method === "POST")!.body.tools as Array<{ name: string }>).map((t) => t.name);
    expect(names).toContain("mcp_proj_echo");
  }, 120_000);
});

describe("yuj doctor", () => {
  it("connects each configured server and reports its tools, or why it failed", async () => {
    const cwd = realpathSync(mkdtempSync(join(tmpdir(), "yuj-mcp-doctor-")));
    writeFileSync(
      join(cwd, "yuj.toml"),
      `${SERVER_TOML}[mcp.servers.broken]\ncommand = ${JSON.stringify(process.execPath)}\nargs = ["-e", "process.stderr.write('missing API key'); process.exit(2)"]\n`,
    );
    const res = await runCli(["doctor", "--config", "yuj.toml"], { cwd, env: isolatedEnv(), timeoutMs: 60_000 });
    expect(res.stdout).toMatch(/\[ok {2}\] mcp everything: stdio, 13 tools, and its resources and prompts: .*mcp_everything_echo/);
    expect(res.stdout).toContain("[FAIL] mcp broken: stdio: the process exited with code 2: missing API key");
  }, 60_000);
});
