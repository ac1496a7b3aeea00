// The session's MCP servers. Auto-start servers (all but `manual` ones) are
// connected once, before the first model request, which waits for them up to
// [mcp].startup_timeout_s; a server that fails is reported once (an
// `mcp_server` event: the card, the side panel; `yuj doctor` checks the same
// config) and its tools stay out. Every stdio server is a process group
// recorded for crash recovery, and all of them end with the session.

import * as path from "node:path";
import type { Emit } from "../events.js";
import { OrphanRegistry, selfIdentity } from "../jobs/orphans.js";
import type { Clock } from "../services.js";
import type { McpServerEntry, McpSettings } from "./config.js";
import type { McpConnection, McpTool } from "./connection.js";

type McpServerState = "connecting" | "connected" | "failed" | "ended" | "stopped" | "disabled";

interface McpServerStatus {
  name: string;
  transport: "stdio" | "http";
  state: McpServerState;
  tools: number;
  detail?: string;
}

interface McpCallResult {
  result?: import("@modelcontextprotocol/sdk/types.js").CallToolResult;
  error?: string;
}

/** Work done with a server's client: a resource read, a prompt; the client's request options passed on. */
export type McpWork<T> = (client: import("@modelcontextprotocol/sdk/client/index.js").Client, options: import("@modelcontextprotocol/sdk/shared/protocol.js").RequestOptions) => Promise<T>;

export interface McpService {
  /** Connects the auto-start servers; the same promise for every caller. */
  start(): Promise<void>;
  /** The tools of the servers connected so far, in config order. */
  tools(): McpTool[];
  call(server: string, remote: string, args: Record<string, unknown>, signal: AbortSignal): Promise<McpCallResult>;
  /** Any other request to the server, with the same restart and error rules as a call. */
  use<T extends object>(server: string, work: McpWork<T>, signal: AbortSignal): Promise<T | { error: string }>;
  status(): McpServerStatus[];
  /**
   * The operator's choices a resumed session kept (server name to on/off),
   * over the config's `manual`; before start(). Names no longer configured are ignored.
   */
  applyChoices(choices: Readonly<Record<string, boolean>>): void;
  /**
   * Turns a server on (it connects now; its tools join the request after it
   * connected) or off (it stops; its tools leave the next request). A problem
   * when no server has that name.
   */
  setEnabled(server: string, on: boolean): string | undefined;
  /** Called whenever the set of tools changes after start: a server turned on or off. */
  onToolsChanged(listener: () => void): void;
  shutdown(): Promise<void>;
  killAllSync(): void;
}

export interface McpManagerOptions {
  settings: McpSettings;
  projectDir: string;
  sessionDir: string;
  stateDir?: string;
  env: Record<string, string>;
  ownEnv: Record<string, string | undefined>;
  emit: Emit;
  clock: Clock;
}

interface Entry {
  name: string;
  entry: McpServerEntry;
  state: McpServerStatus["state"];
  tools: McpTool[];
  detail?: string;
  conn?: McpConnection;
}

export function createMcpManager(opts: McpManagerOptions): McpService {
  const entries = Object.entries(opts.settings.servers).map(
    ([name, entry]): Entry => ({ name, entry, state: entry.manual ? "disabled" : "stopped", tools: [] }),
  );
  const registry = new OrphanRegistry(path.join(opts.sessionDir, "mcp"), opts.stateDir);
  const self = selfIdentity();
  const startupMs = opts.settings.startup_timeout_s * 1000;
  const callMs = opts.settings.call_timeout_s * 1000;
  let started: Promise<void> | undefined;
  let closed = false;
  const listeners: Array<() => void> = [];
  const toolsChanged = () => listeners.forEach((l) => l());

  const saveRegistry = () =>
    registry.write(
      entries.flatMap((e) => {
        const pid = e.conn?.pid;
        if (pid === undefined || pid <= 1) return [];
        return [{ jobId: `mcp:${e.name}`, pgid: pid, members: [], command: [e.entry.command!, ...e.entry.args].join(" "), ...self }];
      }),
    );

  const report = (e: Entry, state: McpServerState, detail?: string) => {
    e.state = state;
    e.detail = detail;
    opts.emit({
      type: "mcp_server",
      server: e.name,
      state,
      transport: e.entry.url !== undefined ? "http" : "stdio",
      ...(state === "connected" ? { tools: e.tools.map((t) => t.exposed) } : {}),
      ...(e.conn?.pid ? { pid: e.conn.pid } : {}),
      ...(detail !== undefined ? { detail } : {}),
    });
  };

  async function connect(e: Entry): Promise<void> {
    const { McpConnection } = await import("./connection.js");
    const conn = new McpConnection(e.name, e.entry, {
      projectDir: opts.projectDir,
      env: opts.env,
      ownEnv: opts.ownEnv,
      clock: opts.clock,
      processChanged: saveRegistry,
    });
    e.conn = conn;
    report(e, "connecting");
    const got = await conn.connect(startupMs);
    if (closed || e.conn !== conn) return void (await conn.close());
    if ("error" in got) return report(e, "failed", got.error);
    e.tools = uniqueNames(got.tools);
    report(e, "connected");
  }

  /** A request to an enabled server; an end noticed before or after it is reported once. */
  async function request<T extends object>(server: string, send: (conn: McpConnection) => Promise<T | { error: string }>): Promise<T | { error: string }> {
    const e = entries.find((x) => x.name === server);
    if (!e?.conn || e.state === "disabled") return { error: `MCP server ${server} is not enabled in this session` };
    const conn = e.conn;
    const ended = () => {
      if (!conn.connected && e.state === "connected") report(e, "ended", `${conn.endReason ?? "the server ended"}; it is started again on the next call`);
    };
    ended();
    const wasUp = conn.connected;
    const got = await send(conn);
    ended();
    if (!wasUp && conn.connected) report(e, "connected", "started again");
    return got;
  }

  /** Off: its process ends, its tools go; what it was doing fails with "not enabled". */
  async function disable(e: Entry): Promise<void> {
    const conn = e.conn;
    e.conn = undefined;
    e.tools = [];
    report(e, "disabled", "turned off: /mcp enable starts it again");
    toolsChanged();
    await conn?.close();
  }

  return {
    start() {
      started ??= (async () => {
        // A server that waits to be turned on is listed too (the panel, /mcp).
        for (const e of entries) if (e.state === "disabled") report(e, "disabled", "not started: /mcp enable starts it");
        await Promise.all(entries.filter((e) => e.state !== "disabled" && !e.conn).map(connect));
      })();
      return started;
    },
    applyChoices(choices) {
      for (const e of entries) {
        const on = choices[e.name];
        if (on !== undefined) e.state = on ? "stopped" : "disabled";
      }
    },
    setEnabled(server, on) {
      const e = entries.find((x) => x.name === server);
      if (!e) {
        const names = entries.map((x) => x.name);
        return `no MCP server ${server}: ${names.length ? `the servers are ${names.join(", ")}` : "none is configured ([mcp.servers.NAME])"}`;
      }
      if (closed) return "the session is ending";
      if (!on) {
        if (e.state !== "disabled") void disable(e);
        return undefined;
      }
      if (e.state !== "disabled") return undefined;
      e.state = "stopped";
      void connect(e).then(toolsChanged);
      return undefined;
    },
    onToolsChanged: (listener) => void listeners.push(listener),
    tools: () => entries.flatMap((e) => (e.state === "disabled" ? [] : e.tools)),
    call: (server, remote, args, signal) => request(server, (conn) => conn.call(remote, args, callMs, signal)),
    use: (server, work, signal) => request(server, (conn) => conn.use(work, callMs, signal)),
    status: () =>
      entries.map((e) => ({
        name: e.name,
        transport: e.entry.url !== undefined ? "http" : "stdio",
        state: e.state,
        tools: e.tools.length,
        ...(e.detail !== undefined ? { detail: e.detail } : {}),
      })),
    async shutdown() {
      closed = true;
      await Promise.all(entries.map((e) => e.conn?.close()));
      saveRegistry();
    },
    killAllSync() {
      for (const e of entries) e.conn?.killSync();
    },
  };
}

/** Names cut to the length limit may collide: the first keeps it, the others go. */
function uniqueNames(tools: McpTool[]): McpTool[] {
  const seen = new Set<string>();
  return tools.filter((t) => !seen.has(t.exposed) && seen.add(t.exposed));
}
