// One MCP server: connected with the official client over stdio (a process
// yuj owns, in its own process group) or streamable HTTP, its tools listed,
// its calls made. A server that ends or breaks is connected again on the next
// call; the call that was running when it ended gets an error saying so.
// Loaded only when a server is configured (manager.ts imports it on demand).

import * as path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { spawnServer, type ServerProcess } from "../lsp/process.js";
import type { Clock } from "../services.js";
import type { McpServerEntry } from "./config.js";
import { mcpAccessTools } from "./access-tools.js";
import { mcpToolName } from "./names.js";
import { ProcessTransport } from "./stdio-transport.js";

/**
 * What a tool does: a call of one of the server's tools, or one of the four
 * yuj adds for a server that offers resources (list, read) or prompts (list, get).
 */
export type McpToolKind = "tool" | "list_resources" | "read_resource" | "list_prompts" | "get_prompt";

export interface McpTool {
  server: string;
  kind: McpToolKind;
  /** The server's own name for it (for the added tools, the kind). */
  remote: string;
  /** mcp_<server>_<tool>. */
  exposed: string;
  description: string;
  inputSchema: Record<string, unknown>;
  /** The server marks it read-only (annotations.readOnlyHint). */
  readOnly: boolean;
}

export interface ConnectionDeps {
  projectDir: string;
  /** The commands' environment (secrets left out); the entry's `env` goes over it. */
  env: Record<string, string>;
  /** yuj's own environment, where bearer_token_env is read. */
  ownEnv: Record<string, string | undefined>;
  clock: Clock;
  /** Told whenever the process starts or ends (crash recovery records it). */
  processChanged(): void;
}

const STOP_GRACE_MS = 1500;

export class McpConnection {
  private client: Client | undefined;
  private proc: ServerProcess | undefined;
  /** Why the connection ended when nobody closed it; cleared by the next connect. */
  private endedBecause: string | undefined;
  private closing = false;

  constructor(
    readonly name: string,
    readonly entry: McpServerEntry,
    private readonly deps: ConnectionDeps,
  ) {}

  get connected(): boolean {
    return this.client !== undefined;
  }

  /** Why it ended, when it ended on its own. */
  get endReason(): string | undefined {
    return this.endedBecause;
  }

  get pid(): number | undefined {
    return this.proc && this.proc.exit === undefined ? this.proc.pid : undefined;
  }

  /** Connects and lists the tools `allowed_tools` lets in; an error names what failed. */
  async connect(timeoutMs: number): Promise<{ tools: McpTool[] } | { error: string }> {
    this.closing = false;
    this.endedBecause = undefined;
    const transport = this.transport();
    if ("error" in transport) return transport;
    const client = new Client({ name: "yuj", version: "1" });
    client.onclose = () => this.lost(client);
    const connected = await withTimeout(
      client.connect(transport).then(() => listAll(client)),
      timeoutMs,
      `did not connect within ${Math.round(timeoutMs / 1000)} s`,
    ).catch((err: unknown) => ({ error: this.explain(err) }));
    if ("error" in connected) {
      await this.close();
      return connected;
    }
    this.client = client;
    const offers = client.getServerCapabilities() ?? {};
    const access = mcpAccessTools(this.name, { resources: offers.resources !== undefined, prompts: offers.prompts !== undefined });
    // allowed_tools, when given, also names which of these yuj adds (by kind: "read_resource").
    const allowed = this.entry.allowed_tools;
    return { tools: [...this.register(connected.tools), ...access.filter((t) => allowed === undefined || allowed.includes(t.kind))] };
  }

  /** One tool call; connects again first when the server had ended. */
  call(remote: string, args: Record<string, unknown>, timeoutMs: number, signal: AbortSignal): Promise<{ result: CallToolResult } | { error: string }> {
    return this.use(async (client, options) => ({ result: (await client.callTool({ name: remote, arguments: args }, undefined, options)) as CallToolResult }), timeoutMs, signal);
  }

  /** One request of any kind (a call, a resource read, a prompt); connects again first when the server had ended. */
  async use<T>(work: (client: Client, options: RequestOptions) => Promise<T>, timeoutMs: number, signal: AbortSignal): Promise<T | { error: string }> {
    if (!this.client) {
      const before = this.endedBecause;
      const again = await this.connect(timeoutMs);
      if ("error" in again) return { error: `MCP server ${this.name} is not running${before ? ` (${before})` : ""} and could not be started again: ${again.error}` };
    }
    const client = this.client!;
    try {
      return await work(client, { signal, timeout: timeoutMs });
    } catch (err) {
      if (signal.aborted) return { error: "cancelled before the server answered" };
      if (this.client !== client) {
        return { error: `MCP server ${this.name} ended during the call (${this.endedBecause ?? "connection closed"}); it is started again on the next call` };
      }
      return { error: `MCP server ${this.name} answered with an error: ${(err as Error).message}` };
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    const client = this.client;
    this.client = undefined;
    await client?.close().catch(() => {});
    await this.proc?.stop(STOP_GRACE_MS, this.deps.clock);
    this.deps.processChanged();
  }

  killSync(): void {
    this.proc?.killSync();
  }

  private transport(): Transport | { error: string } {
    return this.entry.command !== undefined ? this.stdio(this.entry.command) : this.http(this.entry.url!);
  }

  private stdio(command: string): Transport | { error: string } {
    const cwd = path.resolve(this.deps.projectDir, this.entry.cwd ?? ".");
    const proc = spawnServer({ argv: [command, ...this.entry.args], cwd, env: { ...this.deps.env, ...this.entry.env }, searchDirs: [] });
    if ("error" in proc) return { error: proc.error };
    this.proc = proc;
    this.deps.processChanged();
    void proc.exited.then((exit) => {
      this.deps.processChanged();
      const how = exit.signal ? `killed by ${exit.signal}` : `exited with code ${exit.code}`;
      // A server that exits says why on stderr; one killed by a signal did not choose to.
      const tail = exit.signal ? "" : proc.stderrTail().split("\n").slice(-3).join(" ").trim();
      this.endedBecause ??= `the process ${how}${tail ? `: ${tail}` : ""}`;
    });
    return new ProcessTransport(proc);
  }

  private http(url: string): Transport | { error: string } {
    const headers: Record<string, string> = { ...this.entry.headers };
    const tokenVar = this.entry.bearer_token_env;
    if (tokenVar !== undefined) {
      const token = this.deps.ownEnv[tokenVar];
      if (!token) return { error: `the bearer token variable ${tokenVar} is not set; export it before starting yuj` };
      headers.Authorization = `Bearer ${token}`;
    }
    return new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  }

  private lost(client: Client): void {
    if (this.client !== client) return;
    this.client = undefined;
    if (!this.closing) this.endedBecause ??= "the connection closed";
  }

  private explain(err: unknown): string {
    const message = err instanceof Error ? err.message : String(err);
    return this.endedBecause ? `${this.endedBecause} (${message})` : message;
  }

  private register(tools: Tool[]): McpTool[] {
    const allowed = this.entry.allowed_tools;
    return tools
      .filter((t) => allowed === undefined || allowed.includes(t.name))
      .map((t) => ({
        server: this.name,
        kind: "tool" as const,
        remote: t.name,
        exposed: mcpToolName(this.name, t.name),
        description: (t.description ?? t.title ?? `${t.name} from the MCP server ${this.name}`).trim(),
        inputSchema: cleanSchema(t.inputSchema as Record<string, unknown>),
        readOnly: t.annotations?.readOnlyHint === true,
      }));
  }
}

async function listAll(client: Client): Promise<{ tools: Tool[] }> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor === undefined ? {} : { cursor });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return { tools };
}

/** The parameters as the model is sent them: the server's schema, without its $schema tag. */
function cleanSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _tag, ...rest } = schema;
  return { type: "object", properties: {}, ...rest };
}

async function withTimeout<T>(work: Promise<T>, ms: number, why: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(why)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
