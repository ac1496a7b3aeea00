// The reference MCP servers, run the way a user configures them: server-everything
// over stdio or streamable HTTP (on a random loopback port), server-filesystem
// over stdio with a temporary root.

import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, realpathSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { McpServerEntry } from "../../core/mcp/config.js";
import { createMcpManager, type McpService } from "../../core/mcp/manager.js";
import { mcpSection } from "../../core/mcp/config.js";
import type { CoreEvent, EventBody } from "../../core/events.js";
import { systemClock } from "../../core/services.js";
import { repoRoot } from "../support/loop-harness.js";

export const EVERYTHING = join(repoRoot, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
export const FILESYSTEM = join(repoRoot, "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js");

export const everythingStdio = (extra: Partial<McpServerEntry> = {}): Record<string, unknown> => ({
  command: process.execPath,
  args: [EVERYTHING, "stdio"],
  ...extra,
});

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

/** server-everything over streamable HTTP; resolves once it serves /mcp. */
export async function startEverythingHttp(): Promise<{ url: string; child: ChildProcess; stop(): Promise<void> }> {
  const port = await freePort();
  const child = spawn(process.execPath, [EVERYTHING, "streamableHttp"], { env: { ...process.env, PORT: String(port) }, stdio: ["ignore", "pipe", "pipe"], detached: true });
  const url = `http://127.0.0.1:${port}/mcp`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    const up = await fetch(url, { method: "GET" }).then(() => true, () => false);
    if (up) break;
    if (Date.now() > deadline || child.exitCode !== null) throw new Error("server-everything over HTTP did not come up");
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
    child,
    stop: async () => {
      if (child.exitCode !== null) return;
      const gone = new Promise((r) => child.once("exit", r));
      process.kill(-child.pid!, "SIGKILL");
      await gone;
    },
  };
}

export interface McpHarness {
  mcp: McpService;
  events: CoreEvent[];
  states(server: string): string[];
  close(): Promise<void>;
}

export function makeMcpHarness(servers: Record<string, unknown>, settings: Record<string, unknown> = {}, ownEnv: Record<string, string> = {}): McpHarness {
  const events: CoreEvent[] = [];
  const sessionDir = realpathSync(mkdtempSync(join(tmpdir(), "yuj-mcp-session-")));
  let seq = 0;
  const mcp = createMcpManager({
    settings: mcpSection.parse({ servers, ...settings }),
    projectDir: sessionDir,
    sessionDir,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/root" },
    ownEnv,
    emit: (body: EventBody) => {
      const event = { ...body, seq: ++seq, ts: "", sessionId: "s", agentId: "main" } as CoreEvent;
      events.push(event);
      return event;
    },
    clock: systemClock,
  });
  return {
    mcp,
    events,
    states: (server) => events.flatMap((e) => (e.type === "mcp_server" && e.server === server ? [e.state] : [])),
    close: () => mcp.shutdown(),
  };
}

export const tempRoot = (): string => realpathSync(mkdtempSync(join(tmpdir(), "yuj-mcp-root-")));
