// Where yuj's headless start-up goes: `yuj code "task"` against a local
// scripted server with YUJ_TIMING=1, each phase's moment after spawn (median
// of the runs), then the server holding the first request. Alternates with
// another build when given (STARTUP_BASE=/path/to/bin/yuj.js).
//   npm run build && npx tsx bench/startup.ts   (STARTUP_RUNS, default 9)

import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseScenario } from "../core/providers/scenario.js";
import { startSseServer } from "../test/support/sse-server.js";

const runs = Number(process.env.STARTUP_RUNS ?? 9);
const builds: Record<string, string> = { yuj: join(import.meta.dirname, "..", "bin", "yuj.js") };
if (process.env.STARTUP_BASE) builds.base = process.env.STARTUP_BASE;

const repo = mkdtempSync(join(tmpdir(), "startup-bench-repo-"));
writeFileSync(join(repo, "README.md"), "bench\n");
const home = mkdtempSync(join(tmpdir(), "startup-bench-home-"));

// One server for every run, at one address: the same command line each run, as a user's
// (yuj's speculative first request is keyed by it). Its records start afresh each run.
const scenario = parseScenario({ turns: [{ text: "Listing files.", tool_calls: [{ name: "bash", arguments: { cmd: "ls" } }] }, { text: "Done." }] });
const server = await startSseServer({ scenario });

/** One run: phase → ms after spawn, and the server's first request. */
async function once(bin: string): Promise<Map<string, number>> {
  server.requests.length = 0;
  rmSync(join(home, "state", "yuj", "sessions"), { recursive: true, force: true });
  const argv = [bin, "code", "list the files", "--provider", "anthropic", "--model", "m", "--base-url", server.baseUrlFor("anthropic"), "--output", "jsonl"];
  const env = { PATH: process.env.PATH!, HOME: home, XDG_STATE_HOME: join(home, "state"), XDG_CONFIG_HOME: join(home, "cfg"), ANTHROPIC_API_KEY: "sk-bench-000000000", YUJ_TIMING: "1" };
  const spawnedAt = performance.timeOrigin + performance.now();
  const child = spawn(process.execPath, argv, { cwd: repo, env, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  const code: number = await new Promise((r) => child.on("close", r));
  const exitAt = performance.timeOrigin + performance.now();
  if (code !== 0) throw new Error(`exit ${code}: ${stderr}`);
  const phases = new Map<string, number>();
  for (const line of stderr.split("\n")) {
    const m = /^yuj-timing (.+?) (\d+(?:\.\d+)?)(?: |$)/.exec(line);
    if (m && !phases.has(m[1]!)) phases.set(m[1]!, Number(m[2]) - spawnedAt);
  }
  const posts = server.requests.filter((r) => r.method === "POST");
  phases.set("server holds the first request", posts[0]!.receivedAt - spawnedAt);
  phases.set("exit", exitAt - spawnedAt);
  return phases;
}

const results: Record<string, Array<Map<string, number>>> = {};
// Two warm-ups: caches written, then the first-request template (left when start-up read what the previous run found).
for (let i = 0; i < 2; i++) for (const name of Object.keys(builds)) await once(builds[name]!);
for (let i = 0; i < runs; i++) {
  for (const [name, bin] of Object.entries(builds)) (results[name] ??= []).push(await once(bin));
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const names = Object.keys(builds);
const order = [...results[names[0]!]![0]!.keys()];
for (const n of names.slice(1)) for (const k of results[n]![0]!.keys()) if (!order.includes(k)) order.splice(order.length - 2, 0, k);
console.log(`phase (ms after spawn, median of ${runs})`.padEnd(56) + names.map((n) => n.padStart(9)).join(""));
for (const phase of order) {
  const cells = names.map((n) => {
    const xs = results[n]!.map((r) => r.get(phase)).filter((x): x is number => x !== undefined);
    return (xs.length ? median(xs).toFixed(0) : "-").padStart(9);
  });
  console.log(phase.padEnd(56) + cells.join(""));
}
await server.close();
rmSync(repo, { recursive: true, force: true });
rmSync(home, { recursive: true, force: true });
