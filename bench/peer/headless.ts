// One headless one-shot task (a command tool call, then the answer) by yuj
// or by Codex, against a fresh local scripted server: the same two turns in
// each wire format (Anthropic for yuj, OpenAI Responses for Codex, which
// speaks only that). Every time is read on this process's clock or from the
// agent's own session log, whose timestamps are wall-clock milliseconds.

import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseScenario, type Scenario } from "../../core/providers/scenario.js";
import { startSseServer, type SseServer } from "../../test/support/sse-server.js";
import { codexEnv, codexHome } from "./codex.js";

/** yuj (this build, or a baseline build of it for before/after) or Codex. */
export type Agent = "yuj" | "base" | "codex";

export interface OneShot {
  /** Spawn → the server holding the whole first model request. */
  firstRequestMs: number;
  /** Spawn → process exit. */
  wallMs: number;
  /** Peak RSS (GNU time's %M: the largest process of the tree). */
  rssMiB: number;
  /** CPU time, user + system, of the process and its children: what the load of the machine inflates least. */
  cpuMs: number;
  /** The agent's logged tool result → the server holding the next request. */
  toolToRequestMs: number;
  /** The server's last byte of the tool-call turn → the next request (the command's run included). */
  turnGapMs: number;
  /** The server's last byte of the answer → process exit. */
  replyToExitMs: number;
  firstRequestBytes: number;
}

const ANSWER = "The repository holds a README.";

/** A scratch repository both agents work in; HOMEs persist across runs, as a user's do. */
export interface Bench {
  repo: string;
  yujHome: string;
  codexBin: string;
  /** Codex's HOME: under the bench folder, not /tmp (it declines to set up its helpers in a temporary HOME). */
  codexHome: string;
}

export function makeBench(codexBin: string, yujBin: string, baseBin?: string): Bench & { yujBin: string; baseBin?: string } {
  const repo = mkdtempSync(join(tmpdir(), "peer-bench-repo-"));
  writeFileSync(join(repo, "README.md"), "bench\n");
  const yujHome = mkdtempSync(join(tmpdir(), "peer-bench-yuj-"));
  writeFeaturedConfig(join(yujHome, "cfg-featured"), repo, true);
  writeFeaturedConfig(join(yujHome, "cfg-featured-local"), repo, false);
  const home = join(import.meta.dirname, "..", ".peers", "home");
  rmSync(home, { recursive: true, force: true });
  mkdirSync(home, { recursive: true });
  return { repo, yujHome, codexBin, codexHome: home, yujBin, baseBin };
}

/**
 * A user config with every feature on: an MCP server over stdio (its tool
 * list goes in the first request), both built-in language servers and the
 * lsp tool, a skill of the user's, and hooks.
 */
function writeFeaturedConfig(cfg: string, repo: string, withMcp: boolean): void {
  const mcpServer = join(import.meta.dirname, "..", "..", "node_modules", "@modelcontextprotocol", "server-filesystem", "dist", "index.js");
  mkdirSync(join(cfg, "yuj", "skills", "release-notes"), { recursive: true });
  writeFileSync(
    join(cfg, "yuj", "skills", "release-notes", "SKILL.md"),
    "---\nname: release-notes\ndescription: Write the release notes of the commits since the last tag.\n---\n\nList the commits since the last tag, group them by kind, and write a short note for each group.\n",
  );
  const mcp = [`[mcp.servers.files]`, `command = ${JSON.stringify(process.execPath)}`, `args = [${JSON.stringify(mcpServer)}, ${JSON.stringify(repo)}]`];
  const toml = [
    ...(withMcp ? mcp : []),
    `[lsp]`,
    `enabled = true`,
    `tool_enabled = true`,
    `[[hooks.on_tool_call]]`,
    `name = "no-force-push"`,
    `shell = "true"`,
    `tools = ["bash"]`,
    `[[hooks.on_agent_error]]`,
    `shell = "true"`,
  ].join("\n");
  writeFileSync(join(cfg, "yuj", "config.toml"), toml + "\n");
}

// One server per agent for the whole bench, at one address, as a user's provider is: the same
// command line each run (yuj's speculative first request is keyed by it). Its records start afresh each run.
const servers = new Map<string, SseServer>();

async function serverFor(agent: Agent, scenario: Scenario): Promise<SseServer> {
  let server = servers.get(agent);
  if (!server) servers.set(agent, (server = await startSseServer({ scenario })));
  server.requests.length = 0;
  server.responseEndTimes.length = 0;
  return server;
}

export async function closeServers(): Promise<void> {
  for (const s of servers.values()) await s.close();
  servers.clear();
}

/** Which user config yuj runs with: none, every feature, or every feature but the MCP server. */
export type Features = "bare" | "all" | "local";

export async function oneShot(agent: Agent, bench: Bench & { yujBin: string; baseBin?: string }, features: Features = "bare"): Promise<OneShot> {
  const command = agent === "codex" ? "exec_command" : "bash";
  const scenario = parseScenario({
    turns: [{ text: "Listing files.", tool_calls: [{ name: command, arguments: { cmd: "ls" } }] }, { text: ANSWER }],
  });
  const server = await serverFor(agent, scenario);
  const stateDir = join(bench.yujHome, "state");
  // Sessions go, what yuj keeps between runs (the sandbox probe) stays.
  rmSync(join(stateDir, "yuj", "sessions"), { recursive: true, force: true });
  let argv: string[];
  let env: NodeJS.ProcessEnv;
  if (agent !== "codex") {
    argv = [process.execPath, agent === "base" ? bench.baseBin! : bench.yujBin, "code", "list the files", "--provider", "anthropic", "--model", "m", "--base-url", server.baseUrlFor("anthropic"), "--output", "jsonl"];
    env = { PATH: process.env.PATH!, HOME: bench.yujHome, XDG_STATE_HOME: stateDir, XDG_CONFIG_HOME: join(bench.yujHome, { bare: "cfg", all: "cfg-featured", local: "cfg-featured-local" }[features]), ANTHROPIC_API_KEY: "sk-bench-000000000" };
  } else {
    codexHome(bench.codexHome, server.baseUrlFor("openai"), bench.repo);
    rmSync(join(bench.codexHome, ".codex", "sessions"), { recursive: true, force: true });
    argv = [bench.codexBin, "exec", "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox", "list the files"];
    env = codexEnv(bench.codexHome);
  }

  const spawnedAt = Date.now();
  const t0 = performance.now();
  const child = spawn("/usr/bin/time", ["-f", "%M %U %S", ...argv], { cwd: bench.repo, env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  const code: number = await new Promise((r) => child.on("close", r));
  const exitAt = performance.now();
  if (code !== 0) throw new Error(`${agent} exited ${code}: ${stderr.slice(-2000)}`);
  if (!stdout.includes(ANSWER)) throw new Error(`${agent} did not print the answer: ${stdout.slice(-1000)}`);
  const posts = server.requests.filter((r) => r.method === "POST");
  if (posts.length !== 2) throw new Error(`${agent} sent ${posts.length} model requests, expected 2`);

  const toolResultAt = agent !== "codex" ? yujToolResultAt(stateDir) : codexToolResultAt(bench.codexHome);
  // receivedAt is wall-clock; the response ends are on performance.now().
  const perfOf = (wallMs: number) => wallMs - performance.timeOrigin;
  const [rssKiB, user, sys] = stderr.trim().split("\n").at(-1)!.split(" ").map(Number);
  return {
    firstRequestMs: posts[0]!.receivedAt - spawnedAt,
    wallMs: exitAt - t0,
    rssMiB: rssKiB! / 1024,
    cpuMs: (user! + sys!) * 1000,
    toolToRequestMs: posts[1]!.receivedAt - toolResultAt,
    turnGapMs: perfOf(posts[1]!.receivedAt) - server.responseEndTimes[0]!,
    replyToExitMs: exitAt - server.responseEndTimes.at(-1)!,
    firstRequestBytes: Buffer.byteLength(posts[0]!.rawBody),
  };
}

function yujToolResultAt(stateDir: string): number {
  const sessions = join(stateDir, "yuj", "sessions");
  const trace = join(sessions, readdirSync(sessions)[0]!, "trace.jsonl");
  const events = readFileSync(trace, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l));
  const result = events.find((e) => e.type === "tool_result");
  if (!result) throw new Error(`no tool_result in ${trace}`);
  return Date.parse(result.ts);
}

/** The function_call_output item of Codex's rollout log (its timestamps are milliseconds). */
function codexToolResultAt(home: string): number {
  const rollout = newestFile(join(home, ".codex", "sessions"));
  for (const line of readFileSync(rollout, "utf8").trimEnd().split("\n")) {
    const e = JSON.parse(line);
    if (e.type === "response_item" && e.payload?.type === "function_call_output") return Date.parse(e.timestamp);
  }
  throw new Error(`no function_call_output in ${rollout}`);
}

function newestFile(dir: string): string {
  let best: { path: string; mtime: number } | undefined;
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const path = join(dir, name);
    const st = statSync(path);
    if (st.isFile() && (!best || st.mtimeMs > best.mtime)) best = { path, mtime: st.mtimeMs };
  }
  if (!best) throw new Error(`no session log under ${dir}`);
  return best.path;
}
