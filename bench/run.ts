// Start-up and headless-run benchmarks for the built `yuj` binary.
// Run with `npm run bench` (builds first). Prints a table; README quotes it.
//
// Measures, on this machine:
//  - `node -e 0` (the floor) and `yuj --version`, median of N runs;
//  - a headless two-turn task (one `bash ls`, then the answer) against a
//    local SSE server: wall time and peak RSS (GNU time);
//  - from a tool's result (its trace timestamp) to the server receiving the
//    next model request;
//  - from the end of the last reply to process exit;
//  - the size of the first request of the default surface.

import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseScenario } from "../core/providers/scenario.js";
import { startSseServer } from "../test/support/sse-server.js";
import { benchFiles } from "./files.js";
import { benchJobs } from "./jobs.js";
import { benchLargeInputs } from "./large-inputs.js";
import { benchScanThreads, benchStructural } from "./structural.js";
import { benchTui } from "./tui.js";
import { benchCodeIntelligence } from "./code-intelligence.js";

const root = join(import.meta.dirname, "..");
const bin = join(root, "bin", "yuj.js");
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
// BENCH_ONLY=files (or a comma list of startup, jobs, tui, files, large, structural, lsp) runs only
// those sections; unset runs everything.
const ONLY = process.env.BENCH_ONLY?.split(",").map((s) => s.trim()).filter(Boolean);
const want = (section: string) => !ONLY?.length || ONLY.includes(section);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function timeCommand(args: string[]): number {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { stdio: "ignore" });
  if (r.status !== 0) throw new Error(`${args.join(" ")} exited ${r.status}`);
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

async function headlessRun(): Promise<{ wallMs: number; rssMiB: number; toolToRequestMs: number[]; replyToExitMs: number; firstRequestBytes: number }> {
  const scenario = parseScenario({
    turns: [
      { text: "Listing files.", tool_calls: [{ name: "bash", arguments: { cmd: "ls" } }] },
      { text: "The repository holds a README, a test and src/." },
    ],
  });
  const server = await startSseServer({ scenario });
  const home = mkdtempSync(join(tmpdir(), "yuj-bench-"));
  const cwd = mkdtempSync(join(tmpdir(), "yuj-bench-repo-"));
  writeFileSync(join(cwd, "README.md"), "bench\n");
  const env = { PATH: process.env.PATH!, HOME: home, XDG_STATE_HOME: join(home, "state"), XDG_CONFIG_HOME: join(home, "cfg"), ANTHROPIC_API_KEY: "sk-bench-000000000" };
  const args = [bin, "code", "list the files", "--provider", "anthropic", "--model", "m", "--base-url", server.baseUrlFor("anthropic"), "--output", "jsonl"];

  const t0 = performance.now();
  const child = spawn("/usr/bin/time", ["-f", "%M", process.execPath, ...args], { cwd, env, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  const code: number = await new Promise((r) => child.on("close", r));
  const exitAt = performance.now();
  await server.close();
  if (code !== 0) throw new Error(`headless run exited ${code}: ${stderr}`);
  const rssKiB = Number(stderr.trim().split("\n").at(-1));

  const sessions = join(env.XDG_STATE_HOME, "yuj", "sessions");
  const trace = join(sessions, readdirSync(sessions)[0]!, "trace.jsonl");
  const events = readFileSync(trace, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l));
  // From the tool_result event to the server holding the next request.
  const posts = server.requests.filter((r) => r.method === "POST");
  const toolToRequestMs: number[] = [];
  events.forEach((e, i) => {
    if (e.type !== "tool_result") return;
    const turnsBefore = events.slice(0, i).filter((n) => n.type === "request_sent").length;
    const next = posts[turnsBefore];
    if (next) toolToRequestMs.push(next.receivedAt - Date.parse(e.ts));
  });
  const lastResponseAt = server.responseEndTimes.at(-1)!;
  const firstRequest = events.find((e) => e.type === "provider_request");
  return {
    wallMs: exitAt - t0,
    rssMiB: rssKiB / 1024,
    toolToRequestMs,
    replyToExitMs: exitAt - lastResponseAt,
    firstRequestBytes: Buffer.byteLength(firstRequest.body),
  };
}

if (want("startup")) {
  const nodeFloor = median(Array.from({ length: RUNS }, () => timeCommand(["-e", "0"])));
  const version = median(Array.from({ length: RUNS }, () => timeCommand([bin, "--version"])));
  const runs = [];
  for (let i = 0; i < Math.max(5, Math.floor(RUNS / 3)); i++) runs.push(await headlessRun());

  const rows: Array<[string, string, string]> = [
    ["node -e 0 (floor)", `${nodeFloor.toFixed(0)} ms`, ""],
    ["yuj --version", `${version.toFixed(0)} ms`, "150 ms"],
    ["headless two-turn task, wall", `${median(runs.map((r) => r.wallMs)).toFixed(0)} ms`, "500 ms"],
    ["headless two-turn task, peak RSS", `${median(runs.map((r) => r.rssMiB)).toFixed(0)} MiB`, "100 MiB"],
    ["tool result → next request", `${median(runs.flatMap((r) => r.toolToRequestMs)).toFixed(0)} ms`, "60 ms"],
    ["last reply → process exit", `${median(runs.map((r) => r.replyToExitMs)).toFixed(0)} ms`, "50 ms"],
    ["first request body (default surface)", `${(runs[0]!.firstRequestBytes / 1024).toFixed(1)} KB`, "12 KB"],
  ];
  console.log(`yuj benchmarks (median; ${RUNS} start-up runs, ${runs.length} headless runs; node ${process.version})`);
  console.log("| measure | result | target |\n|---|---|---|");
  for (const [m, r, t] of rows) console.log(`| ${m} | ${r} | ${t} |`);
}

if (want("jobs")) {
  console.log("\nCommands (median)");
  console.log("| measure | yuj | baseline |\n|---|---|---|");
  for (const [m, r, b] of await benchJobs(RUNS)) console.log(`| ${m} | ${r} | ${b} |`);
}

if (want("tui")) {
  console.log("\nTUI (node-pty, 120×40, scripted model)");
  console.log("| measure | result | target |\n|---|---|---|");
  for (const [m, r, t] of await benchTui()) console.log(`| ${m} | ${r} | ${t} |`);
}

if (want("files")) {
  console.log("\nFile tools (median; BENCH_FILES_RUNS runs, default 9)");
  console.log("| measure | result | target |\n|---|---|---|");
  for (const [m, r, t] of await benchFiles()) console.log(`| ${m} | ${r} | ${t} |`);
}

if (want("large")) {
  console.log("\nLarge inputs (peak RSS of a `yuj tool` process over the base; median of BENCH_LARGE_RUNS, default 3)");
  console.log("| measure | result | target |\n|---|---|---|");
  for (const [m, r, t] of await benchLargeInputs()) console.log(`| ${m} | ${r} | ${t} |`);
}

if (want("structural")) {
  console.log("\nStructural search over this repository's TypeScript (a new `yuj tool` process each; median of BENCH_STRUCTURAL_RUNS, default 5)");
  console.log("| measure | result | target |\n|---|---|---|");
  for (const [m, r, t] of [...(await benchStructural()), ...(await benchScanThreads())]) console.log(`| ${m} | ${r} | ${t} |`);
}

if (want("lsp")) {
  console.log("\nLanguage servers and test runs (median of BENCH_LSP_RUNS, default 3)");
  console.log("| measure | result | note |\n|---|---|---|");
  for (const [m, r, t] of await benchCodeIntelligence()) console.log(`| ${m} | ${r} | ${t} |`);
}
