// The TUIs side by side: yuj's and Codex's full-screen views at 120×40
// against one local scripted server (yuj on the Anthropic wire, Codex on
// OpenAI Responses), driven the way bench/tui.ts drives yuj's.
//
//  - first frame: in tmux, spawn → the screen showing the input box ready
//    (yuj: its status bar's `INSERT`; Codex: "Ask Codex to do anything" and
//    no "loading"), the pane read every 20 ms;
//  - a 150-turn session in a PTY (each turn Markdown and a command printing
//    ~3 KB, then the answer): keystroke echo at the end against the probe
//    floor (the same key written to the smallest raw-mode program that
//    echoes it), RSS before and after, CPU in the idle seconds that follow.

import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseScenario } from "../../core/providers/scenario.js";
import { startSseServer } from "../../test/support/sse-server.js";
import { cpuTicks, markdownTurn, rssKiB, settle, spawnTui, TICK_MS, type Tui } from "../tui.js";
import { codexEnv, codexHome } from "./codex.js";
import type { Agent } from "./headless.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ECHO_CHAR = "ξ";
const ECHO_SAMPLES = 9;

export interface TuiBench {
  repo: string;
  codexBin: string;
  yujBin: string;
  baseBin?: string;
  /** One HOME per agent, kept between runs as a user's is. */
  homes: Record<Agent, string>;
}

export function makeTuiBench(codexBin: string, yujBin: string, baseBin?: string): TuiBench {
  const root = join(import.meta.dirname, "..", ".peers", "tui");
  rmSync(root, { recursive: true, force: true });
  const repo = join(root, "repo");
  mkdirSync(repo, { recursive: true });
  writeFileSync(join(repo, "README.md"), "# bench\n\nA scratch repository for the TUI benchmark.\n");
  const homes = { yuj: join(root, "home-yuj"), base: join(root, "home-base"), codex: join(root, "home-codex") };
  for (const h of Object.values(homes)) mkdirSync(h, { recursive: true });
  return { repo, codexBin, yujBin, ...(baseBin ? { baseBin } : {}), homes };
}

/** The argv, environment and readiness test of one agent's TUI against `server`. */
function launch(agent: Agent, bench: TuiBench, server: { baseUrlFor(p: "anthropic" | "openai"): string }) {
  const home = bench.homes[agent];
  if (agent === "codex") {
    codexHome(home, server.baseUrlFor("openai"), bench.repo);
    return {
      // --no-daemon: its work in its own process, not in a shared background server that outlives the run.
      argv: [bench.codexBin, "--no-daemon", "--dangerously-bypass-approvals-and-sandbox"],
      env: { ...codexEnv(home), LANG: "C.UTF-8" } as Record<string, string>,
      ready: (screen: string) => screen.includes("Ask Codex to do anything") && !/loading/i.test(screen),
    };
  }
  const bin = agent === "base" ? bench.baseBin! : bench.yujBin;
  return {
    argv: [process.execPath, bin, "--provider", "anthropic", "--model", "m", "--base-url", server.baseUrlFor("anthropic")],
    env: {
      PATH: process.env.PATH!,
      HOME: home,
      XDG_CONFIG_HOME: join(home, ".config"),
      XDG_STATE_HOME: join(home, ".local", "state"),
      TERM: "xterm-256color",
      LANG: "C.UTF-8",
      ANTHROPIC_API_KEY: "sk-bench-000000000",
    } as Record<string, string>,
    ready: (screen: string) => screen.includes("INSERT"),
  };
}

const TMUX = ["-L", "yuj-peer-bench", "-f", "/dev/null"];
const tmux = (...args: string[]) => spawnSync("tmux", [...TMUX, ...args], { encoding: "utf8" });
const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Spawn in a tmux pane → the pane showing the ready input box. */
export async function firstFrame(agent: Agent, bench: TuiBench): Promise<number> {
  const server = await startSseServer({ scenario: parseScenario({ turns: [{ text: "Hello." }] }) });
  const { argv, env, ready } = launch(agent, bench, server);
  // The server of the tmux socket is up before the clock starts, so only the agent's start is timed.
  if (tmux("has-session", "-t", "idle").status !== 0) tmux("new-session", "-d", "-s", "idle", "-x", "120", "-y", "40");
  const command = ["env", "-i", ...Object.entries(env).map(([k, v]) => `${k}=${v}`), ...argv].map(shellQuote).join(" ");
  try {
    const t0 = performance.now();
    const r = tmux("new-session", "-d", "-s", "run", "-x", "120", "-y", "40", "-c", bench.repo, command);
    if (r.status !== 0) throw new Error(`tmux new-session failed: ${r.stderr}`);
    for (;;) {
      const screen = tmux("capture-pane", "-p", "-t", "run").stdout;
      if (ready(screen)) return performance.now() - t0;
      if (performance.now() - t0 > 30_000) throw new Error(`${agent}'s TUI was not ready in 30 s; the screen:\n${screen}`);
      await sleep(20);
    }
  } finally {
    tmux("kill-session", "-t", "run");
    await server.close();
  }
}

export function stopTmux(): void {
  tmux("kill-server");
}

/** Median time from a key to the first output holding it; then the draft is erased. */
async function echoMs(tui: Tui): Promise<number> {
  await settle(tui);
  const times: number[] = [];
  for (let i = 0; i < ECHO_SAMPLES; i++) {
    const seen = tui.next((s) => s.includes(ECHO_CHAR), 10_000);
    const t0 = performance.now();
    tui.write(ECHO_CHAR);
    times.push((await seen) - t0);
    await sleep(120);
  }
  tui.write("\x7f".repeat(ECHO_SAMPLES));
  await settle(tui);
  return median(times);
}

/** The probe's own floor: a raw-mode program that writes back each key it reads. */
export async function echoFloor(cwd: string): Promise<number> {
  const echoer = "process.stdin.setRawMode(true);process.stdout.write('ready');process.stdin.on('data',(d)=>{if(d.includes(3))process.exit(0);process.stdout.write(d)})";
  const tui = spawnTui(cwd, { PATH: process.env.PATH!, TERM: "xterm-256color", LANG: "C.UTF-8" }, [process.execPath, "-e", echoer]);
  try {
    await tui.next((s) => s.includes("ready"), 15_000);
    return await echoMs(tui);
  } finally {
    tui.kill();
  }
}

/** The pid of the agent itself: for Codex the Rust binary its npm launcher starts. */
function agentPid(agent: Agent, launcherPid: number): number {
  if (agent !== "codex") return launcherPid;
  const children = readFileSync(`/proc/${launcherPid}/task/${launcherPid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  if (children.length !== 1) throw new Error(`codex's launcher (pid ${launcherPid}) has ${children.length} children, expected its binary`);
  return children[0]!;
}

export interface TuiSession {
  wallMs: number;
  rssStartMiB: number;
  rssEndMiB: number;
  echoStartMs: number;
  echoEndMs: number;
  idleCpuMs: number;
}

/** One message that runs `turns` turns; measured around it as bench/tui.ts measures yuj alone. */
export async function longSession(agent: Agent, bench: TuiBench, turns: number, idleSeconds: number): Promise<TuiSession> {
  const command = agent === "codex" ? "exec_command" : "bash";
  const marker = `BENCHDONE${turns}`;
  const scenario = parseScenario({ turns: [...Array.from({ length: turns }, (_, i) => markdownTurn(i + 1, command)), { text: `All ${turns} steps ran. ${marker}` }] });
  const server = await startSseServer({ scenario });
  const { argv, env } = launch(agent, bench, server);
  const tui = spawnTui(bench.repo, env, argv);
  try {
    // The stream, unlike a screen, keeps what was overdrawn: wait for the input box, then for quiet.
    await tui.next((s) => s.includes(agent === "codex" ? "Ask Codex to do anything" : "INSERT"), 30_000);
    await settle(tui, 1000);
    const pid = agentPid(agent, tui.pid);
    const rssStart = rssKiB(pid);
    const echoStartMs = await echoMs(tui);
    tui.write("run the benchmark task");
    await sleep(300);
    const done = tui.next((s) => s.includes(marker), 300_000);
    const t0 = performance.now();
    tui.write("\r");
    const wallMs = (await done) - t0;
    await settle(tui, 1000, 60_000);
    const rssEnd = rssKiB(pid);
    const echoEndMs = await echoMs(tui);
    await sleep(500);
    const c0 = cpuTicks(pid) + (pid === tui.pid ? 0 : cpuTicks(tui.pid));
    await sleep(idleSeconds * 1000);
    const idleCpuMs = (cpuTicks(pid) + (pid === tui.pid ? 0 : cpuTicks(tui.pid)) - c0) * TICK_MS;
    if (tui.exited()) throw new Error(`${agent}'s TUI exited during the benchmark`);
    const posts = server.requests.filter((r) => r.method === "POST").length;
    if (posts < turns + 1) throw new Error(`${agent} sent ${posts} model requests, expected ${turns + 1}`);
    return { wallMs, rssStartMiB: rssStart / 1024, rssEndMiB: rssEnd / 1024, echoStartMs, echoEndMs, idleCpuMs };
  } finally {
    tui.kill();
    await server.close();
  }
}
