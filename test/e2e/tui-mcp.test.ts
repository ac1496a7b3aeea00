// The MCP servers in the TUI, in a real terminal (tmux), with a real
// server-everything and a model on a local SSE server that records what each
// request carries: Ctrl+O's overlay lists the server with its state and tool
// count and Enter turns it off; /mcp enable and /mcp disable switch it; a
// server turned off is absent from the next request; the choice is in the
// session's state.json and a resume (--resume ID) keeps it.

import { mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseScenario } from "../../core/providers/scenario.js";
import { isolatedEnv } from "../support/cli.js";
import { startSseServer, type SseServer } from "../support/sse-server.js";
import { startTui, type TmuxApp } from "../support/tmux.js";
import { EVERYTHING } from "../mcp/support.js";

let app: TmuxApp | undefined;
let server: SseServer | undefined;
afterEach(async () => {
  app?.kill();
  app = undefined;
  await server?.close();
  server = undefined;
});

const SERVER_TOML = `[mcp.servers.everything]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(EVERYTHING)}, "stdio"]\n`;

/** The tool names of each model request so far. */
const requestTools = (s: SseServer) =>
  s.requests.filter((r) => r.method === "POST").map((r) => ((r.body?.tools ?? []) as Array<{ name: string }>).map((t) => t.name));
const hasMcp = (names: string[]) => names.some((n) => n.startsWith("mcp_everything_"));
/** The screen once the MCP overlay is gone and the composer is back. */
const overlayClosed = /^(?![\s\S]*MCP servers)[\s\S]*INSERT/;

function stateFiles(home: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name === "state.json") found.push(p);
    }
  };
  if (existsSync(home)) walk(home);
  return found;
}

describe("MCP servers in the TUI", () => {
  it("Ctrl+O lists and switches the server, /mcp enable|disable too; a disabled server's tools leave the next request; a resume keeps the choice", async () => {
    server = await startSseServer({ scenario: parseScenario({ turns: ["one", "two", "three", "four", "five"].map((w) => ({ text: `answer ${w}` })) }) });
    const cwd = realpathSync(mkdtempSync(join(tmpdir(), "yuj-tui-mcp-")));
    writeFileSync(join(cwd, "yuj.toml"), SERVER_TOML);
    const env: Record<string, string> = { ...isolatedEnv({ ANTHROPIC_API_KEY: "sk-test" }), TERM: "xterm-256color" };
    const args = ["--config", "yuj.toml", "--provider", "anthropic", "--model", "m", "--base-url", server.baseUrlFor("anthropic")];
    app = startTui({ cwd, env, args, columns: 170, rows: 45 });
    await app.waitFor(/INSERT/, 20_000);

    await app.submit("first");
    await app.waitFor(/answer one/, 30_000);
    expect(hasMcp(requestTools(server)[0]!)).toBe(true);

    app.keys("C-o");
    const overlay = await app.waitFor(/MCP servers/);
    expect(overlay).toMatch(/everything\s+connected\s+\d+ tools/);
    app.keys("Enter");
    await app.waitFor(/everything\s+disabled\s+0 tools/);
    app.keys("Escape");
    await app.waitFor(overlayClosed);
    await app.submit("second");
    await app.waitFor(/answer two/, 30_000);
    expect(hasMcp(requestTools(server)[1]!)).toBe(false);

    await app.submit("/mcp enable everything");
    await app.waitFor(/● everything connected/, 20_000);
    await app.submit("third");
    await app.waitFor(/answer three/, 30_000);
    expect(hasMcp(requestTools(server)[2]!)).toBe(true);

    await app.submit("/mcp disable everything");
    await app.waitFor(/● everything disabled/);
    const [stateFile] = stateFiles(env.HOME!);
    expect(stateFile).toBeDefined();
    const state = JSON.parse(readFileSync(stateFile!, "utf8")) as { sessionId: string; mcp?: Record<string, boolean> };
    expect(state.mcp).toEqual({ everything: false });
    await app.submit("/quit");
    await new Promise<void>((resolve, reject) => {
      const end = Date.now() + 15_000;
      const poll = () => (app!.paneDead() ? resolve() : Date.now() > end ? reject(new Error("yuj did not quit")) : setTimeout(poll, 50));
      poll();
    });
    app.kill();

    app = startTui({ cwd, env, args: [...args, "--resume", state.sessionId], columns: 170, rows: 45 });
    await app.waitFor(/● everything disabled/, 20_000);
    await app.submit("fourth");
    await app.waitFor(/answer four/, 30_000);
    expect(hasMcp(requestTools(server)[3]!)).toBe(false);
    await app.submit("/mcp status");
    await app.waitFor(/everything\s+disabled\s+0 tools/);
    app.keys("Enter");
    await app.waitFor(/everything\s+connected\s+\d+ tools/, 20_000);
    app.keys("Escape");
    // Typed at once after Escape, "f" would arrive as Alt+F: a person's next key comes after the overlay closes.
    await app.waitFor(overlayClosed);
    await app.submit("fifth");
    await app.waitFor(/answer five/, 30_000);
    expect(hasMcp(requestTools(server)[4]!)).toBe(true);
  }, 180_000);

  it("/mcp with a wrong verb or an unknown server says what is wrong", async () => {
    server = await startSseServer({ scenario: parseScenario({ turns: [{ text: "unused" }] }) });
    const cwd = realpathSync(mkdtempSync(join(tmpdir(), "yuj-tui-mcp-")));
    writeFileSync(join(cwd, "yuj.toml"), SERVER_TOML);
    const env: Record<string, string> = { ...isolatedEnv({ ANTHROPIC_API_KEY: "sk-test" }), TERM: "xterm-256color" };
    app = startTui({ cwd, env, args: ["--config", "yuj.toml", "--provider", "anthropic", "--model", "m", "--base-url", server.baseUrlFor("anthropic")], columns: 170, rows: 45 });
    await app.waitFor(/INSERT/, 20_000);
    await app.submit("/mcp restart everything");
    await app.waitFor(/\/mcp takes status, enable NAME or disable NAME, not restart/);
    await app.submit("/mcp enable nothere");
    await app.waitFor(/no MCP server nothere: the servers are everything/);
  }, 60_000);
});
