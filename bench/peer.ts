// yuj side by side with Codex (the pinned `@openai/codex`, installed on first
// use into bench/.peers/codex, which git ignores), both against one local
// scripted server, in alternation (A B A B …) so that the machine's load
// falls on both alike; prints the medians and yuj's ratio to Codex.
//
//   npm run build && npx tsx bench/peer.ts
//
// PEER_RUNS (default 9, at least 7) sets the runs of each agent; PEER_BASE=/path/to/other/bin/yuj.js adds
// another build of yuj to the alternation (a before/after column);
// PEER_PARTS=headless or PEER_PARTS=tui runs one part (default both),
// PEER_PARTS=frame the TUI's first frame alone (the long session skipped);
// PEER_TUI_TURNS (150) sets the TUI session's turns. README quotes the output.

import { spawnSync } from "node:child_process";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { CODEX_VERSION, ensureCodex } from "./peer/codex.js";
import { closeServers, makeBench, oneShot, type Agent, type Features, type OneShot } from "./peer/headless.js";
import { echoFloor, firstFrame, longSession, makeTuiBench, stopTmux, type TuiSession } from "./peer/tui.js";

const RUNS = Math.max(7, Number(process.env.PEER_RUNS ?? 9));
const yujBin = join(import.meta.dirname, "..", "bin", "yuj.js");
const baseBin = process.env.PEER_BASE;
const PARTS = (process.env.PEER_PARTS ?? "headless,tui").split(",");
const TUI_TURNS = Number(process.env.PEER_TUI_TURNS ?? 150);
const IDLE_S = 10;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => `${x.toFixed(0)} ms`;

function timed(cmd: string, args: string[]): number {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { stdio: "ignore" });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} exited ${r.status}`);
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

/** Runs each entry once per round, round after round, and gives each its median. */
function alternate(entries: Record<string, () => number>, rounds: number): Record<string, number> {
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(entries).map((k) => [k, []]));
  for (let i = 0; i < rounds; i++) for (const [k, run] of Object.entries(entries)) samples[k]!.push(run());
  return Object.fromEntries(Object.entries(samples).map(([k, xs]) => [k, median(xs)]));
}

const codexBin = ensureCodex();
console.log(`yuj vs Codex ${CODEX_VERSION} — ${new Date().toISOString()}, ${cpus().length} cores, node ${process.version}, load ${loadavg().map((l) => l.toFixed(2)).join(" ")}, ${RUNS} runs each, alternating`);
const rows: string[][] = [];
const row = (measure: string, yuj: number, codex: number, target: string, fmt = ms, base?: number) =>
  rows.push([measure, fmt(yuj), fmt(codex), `${(yuj / codex).toFixed(2)}×`, target, ...(baseBin ? [base === undefined ? "" : fmt(base)] : [])]);

if (PARTS.includes("headless")) {
  // Two warm-ups of each first: a user's third run, caches written (and then yuj's first-request
  // template, which a run leaves when what start-up read is as the previous run found it).
  const bench = makeBench(codexBin, yujBin, baseBin);
  const agents: Agent[] = baseBin ? ["yuj", "codex", "base"] : ["yuj", "codex"];
  for (let i = 0; i < 2; i++) for (const agent of agents) await oneShot(agent, bench);
  const runs: Record<Agent, OneShot[]> = { yuj: [], codex: [], base: [] };
  for (let i = 0; i < RUNS; i++) for (const agent of agents) runs[agent].push(await oneShot(agent, bench));
  const m = (agent: Agent, key: keyof OneShot) => (runs[agent].length ? median(runs[agent].map((r) => r[key])) : 0);
  const headless = (measure: string, key: keyof OneShot, target: string, fmt = ms) => row(measure, m("yuj", key), m("codex", key), target, fmt, m("base", key));
  headless("spawn → first model request", "firstRequestMs", "≤ 0.6×");
  headless("one-shot task (`ls`, then the answer), wall", "wallMs", "≤ 0.8×");
  headless("the same, peak RSS", "rssMiB", "≤ 0.5×", (x) => `${x.toFixed(0)} MiB`);
  headless("the same, CPU time (user + system)", "cpuMs", "");
  headless("tool result (own log) → next request (yuj sandboxed)", "toolToRequestMs", "≤ 0.5×");
  headless("tool call streamed → next request (the command's run included)", "turnGapMs", "");
  headless("last reply → exit", "replyToExitMs", "");
  headless("first request body", "firstRequestBytes", "", (x) => `${(x / 1024).toFixed(1)} KB`);

  // yuj with every feature configured against yuj bare, alternated too.
  const levels: Features[] = ["bare", "local", "all"];
  const byLevel: Record<Features, OneShot[]> = { bare: [], local: [], all: [] };
  for (const level of levels) await oneShot("yuj", bench, level);
  for (let i = 0; i < RUNS; i++) for (const level of levels) byLevel[level].push(await oneShot("yuj", bench, level));
  const lm = (level: Features, key: keyof OneShot) => median(byLevel[level].map((r) => r[key]));
  for (const [level, what] of [["local", "two language servers, a skill and hooks configured"], ["all", "the same and an MCP server (stdio)"]] as const) {
    for (const [key, label] of [["firstRequestMs", "spawn → first model request"], ["cpuMs", "CPU time"]] as const) {
      const [bare, featured] = [lm("bare", key), lm(level, key)];
      rows.push([`yuj with ${what}: ${label}`, `${ms(featured)} (bare ${ms(bare)})`, "", `${(featured / bare).toFixed(2)}× bare`, "≤ 1.1× bare", ...(baseBin ? [""] : [])]);
    }
  }

  await closeServers();

  const floor = alternate(
    {
      node: () => timed(process.execPath, ["-e", "0"]),
      yujVersion: () => timed(process.execPath, [yujBin, "--version"]),
      codexVersion: () => timed(codexBin, ["--version"]),
      yujHelp: () => timed(process.execPath, [yujBin, "--help"]),
      codexHelp: () => timed(codexBin, ["--help"]),
      ...(baseBin ? { baseVersion: () => timed(process.execPath, [baseBin, "--version"]), baseHelp: () => timed(process.execPath, [baseBin, "--help"]) } : {}),
    },
    RUNS * 2 + 1,
  );
  row("`--version`", floor.yujVersion!, floor.codexVersion!, "", ms, floor.baseVersion);
  row("`--help`", floor.yujHelp!, floor.codexHelp!, "", ms, floor.baseHelp);
  rows.push(["`node -e 0` (the floor)", ms(floor.node!), "", "", ""]);
  rows.push(["yuj `--version` / `--help` over the floor", `${(floor.yujVersion! / floor.node!).toFixed(2)}× / ${(floor.yujHelp! / floor.node!).toFixed(2)}×`, "", "", "≤ 1.2×"]);
}

const tuiBench = PARTS.includes("tui") || PARTS.includes("frame") ? makeTuiBench(codexBin, yujBin, baseBin) : undefined;
const tuiAgents: Agent[] = baseBin ? ["yuj", "codex", "base"] : ["yuj", "codex"];

if (tuiBench) {
  const [bench, agents] = [tuiBench, tuiAgents];
  for (const agent of agents) await firstFrame(agent, bench); // warm-up: first-start notices shown, HOMEs written
  const frames: Record<Agent, number[]> = { yuj: [], codex: [], base: [] };
  for (let i = 0; i < RUNS; i++) for (const agent of agents) frames[agent].push(await firstFrame(agent, bench));
  stopTmux();
  const f = (agent: Agent) => (frames[agent].length ? median(frames[agent]) : 0);
  row("TUI first frame (tmux 120×40: spawn → input box ready)", f("yuj"), f("codex"), "≤ 0.65×", ms, f("base"));
}

if (tuiBench && PARTS.includes("tui")) {
  const [bench, agents] = [tuiBench, tuiAgents];

  // One long session each (they take minutes), alternated, and the probe's floor between them.
  const floors: number[] = [await echoFloor(bench.repo)];
  const sessions: Partial<Record<Agent, TuiSession>> = {};
  for (const agent of agents) {
    sessions[agent] = await longSession(agent, bench, TUI_TURNS, IDLE_S);
    floors.push(await echoFloor(bench.repo));
  }
  const floor = median(floors);
  const s = (agent: Agent, key: keyof TuiSession) => sessions[agent]?.[key];
  const tuiRow = (measure: string, value: (agent: Agent) => number | undefined, target: string, fmt = ms) =>
    row(measure, value("yuj")!, value("codex")!, target, fmt, value("base"));
  const oneDecimal = (x: number) => `${x.toFixed(1)} ms`;
  tuiRow(`${TUI_TURNS}-turn session: Enter → final answer`, (a) => s(a, "wallMs"), "", (x) => `${(x / 1000).toFixed(1)} s`);
  tuiRow(`${TUI_TURNS}-turn session: keystroke echo at the end`, (a) => s(a, "echoEndMs"), "", oneDecimal);
  rows.push(["the same, over the probe floor (a raw-mode echo program: " + oneDecimal(floor) + ")", `${(s("yuj", "echoEndMs")! / floor).toFixed(1)}×`, `${(s("codex", "echoEndMs")! / floor).toFixed(1)}×`, "", "≤ 2× the floor", ...(baseBin ? [`${(s("base", "echoEndMs")! / floor).toFixed(1)}×`] : [])]);
  tuiRow(`${TUI_TURNS}-turn session: keystroke echo at the start`, (a) => s(a, "echoStartMs"), "", oneDecimal);
  const mib = (x: number) => `${x.toFixed(0)} MiB`;
  tuiRow(`${TUI_TURNS}-turn session: RSS at the start`, (a) => s(a, "rssStartMiB"), "", mib);
  tuiRow(`${TUI_TURNS}-turn session: RSS growth`, (a) => (sessions[a] ? s(a, "rssEndMiB")! - s(a, "rssStartMiB")! : undefined), "≤ 1× (no more than Codex's)", (x) => `+${x.toFixed(0)} MiB`);
  const idle = (agent: Agent) => s(agent, "idleCpuMs");
  rows.push([`CPU in ${IDLE_S} s idle after the session`, `${idle("yuj")} ms`, `${idle("codex")} ms`, "", "0", ...(baseBin ? [`${idle("base")} ms`] : [])]);
}

console.log(`| measure | yuj | Codex | yuj / Codex | target |${baseBin ? " yuj baseline |" : ""}\n|---|---|---|---|---|${baseBin ? "---|" : ""}`);
for (const r of rows) console.log(`| ${r.join(" | ")} |`);
