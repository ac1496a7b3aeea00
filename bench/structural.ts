// structural_search over this repository's own TypeScript, each call a new
// `yuj tool` process of the built bundle (start-up, grammar load, every
// file listed, read, filtered and parsed): the wall time, and the time from
// the result's last line on stdout to the process's exit (what V8 would
// spend compiling the grammars in the background without --liftoff-only).
// Two queries: calls of one named function (its name lets most files go
// unparsed) and every arrow function (every file parsed). The same calls run
// in one thread too: a copy of the installation without the worker entry.
// Their CPU time is what the same call takes on an otherwise idle core.
// BENCH_STRUCTURAL_RUNS sets the runs per measure (default 5);
// BENCH_STRUCTURAL_AGAINST, the folder of another installation (another
// build, e.g. main's, with bin/ dist/ and node_modules/), runs the same
// calls with it in the same alternation, for a before/after.

import { spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { isolatedEnv } from "../test/support/cli.js";

type Row = [string, string, string];

const root = join(import.meta.dirname, "..");
const RUNS = Number(process.env.BENCH_STRUCTURAL_RUNS ?? 5);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const QUERIES = {
  named: '((call_expression function: (identifier) @f) @match (#eq? @f "fail"))',
  every: "(arrow_function) @match",
};

interface Timed {
  wallMs: number;
  /** user + system CPU time of the process and its threads (GNU time). */
  cpuMs: number;
  exitMs: number;
  total: string;
}

function timeCall(bin: string, cfg: string, tool: string, args: unknown, env: Record<string, string>): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    let out = "";
    let lastLineAt = 0;
    const child = spawn("/usr/bin/time", ["-f", "%U %S", process.execPath, bin, "--config", cfg, "tool", tool, JSON.stringify(args)], {
      cwd: root,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let err = "";
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      lastLineAt = performance.now();
    });
    child.on("error", reject);
    child.on("close", (code) => {
      const end = performance.now();
      if (code !== 0) return reject(new Error(`${tool} exited ${code}: ${out.slice(0, 300)}`));
      const [user, sys] = err.trim().split("\n").at(-1)!.split(" ").map(Number);
      resolve({ wallMs: end - t0, cpuMs: (user! + sys!) * 1000, exitMs: end - lastLineAt, total: /total="(\d+)"/.exec(out)?.[1] ?? "?" });
    });
  });
}

/** A copy of the installation whose searches run in one thread: no worker entry. */
function singleThreadInstall(): string {
  const copy = mkdtempSync(join(tmpdir(), "yuj-bench-one-thread-"));
  for (const dir of ["bin", "dist", "profiles"]) cpSync(join(root, dir), join(copy, dir), { recursive: true });
  cpSync(join(root, "package.json"), join(copy, "package.json"));
  rmSync(join(copy, "dist", "structural-worker.js"));
  mkdirSync(join(copy, "node_modules"));
  for (const entry of readdirSync(join(root, "node_modules"))) {
    if (entry !== ".bin") symlinkSync(join(root, "node_modules", entry), join(copy, "node_modules", entry));
  }
  return copy;
}

export async function benchStructural(): Promise<Row[]> {
  const env = isolatedEnv();
  const cfg = join(mkdtempSync(join(tmpdir(), "yuj-bench-structural-")), "structural.toml");
  writeFileSync(cfg, "[tools]\nstructural_enabled = true\n");
  const one = singleThreadInstall();
  const against = process.env.BENCH_STRUCTURAL_AGAINST;
  const pooled = join(root, "bin", "yuj.js");
  const bins: Record<string, string> = { pooled, single: join(one, "bin", "yuj.js") };
  if (against) bins.against = join(against, "bin", "yuj.js");
  try {
    const loads: number[] = [loadavg()[0]!];
    const samples = new Map<string, Timed[]>();
    const add = (key: string, t: Timed) => samples.set(key, [...(samples.get(key) ?? []), t]);
    // Interleaved, so load elsewhere on the machine falls on every case alike.
    for (let i = 0; i < RUNS; i++) {
      add("read", await timeCall(pooled, cfg, "read", { path: "package.json", limit: 1 }, env));
      for (const [name, query] of Object.entries(QUERIES)) {
        for (const [how, bin] of Object.entries(bins)) {
          add(`${name}:${how}`, await timeCall(bin, cfg, "structural_search", { path: ".", language: "typescript", query }, env));
        }
      }
      loads.push(loadavg()[0]!);
    }
    const wall = (key: string) => `${(median(samples.get(key)!.map((s) => s.wallMs)) / 1000).toFixed(2)} s`;
    const cpu = (key: string) => `${(median(samples.get(key)!.map((s) => s.cpuMs)) / 1000).toFixed(2)} s`;
    const exit = (key: string) => `${median(samples.get(key)!.map((s) => s.exitMs)).toFixed(0)} ms`;
    const rows: Row[] = [
      ["1-minute load average during the runs", `${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} on ${availableParallelism()} cores`, ""],
      ["`yuj tool read` (a new process, for scale; CPU time)", `${wall("read")} (${cpu("read")})`, ""],
      [`calls of one named function (${samples.get("named:pooled")![0]!.total} matches): with workers / without (CPU time of each)`, `${wall("named:pooled")} / ${wall("named:single")} (${cpu("named:pooled")} / ${cpu("named:single")})`, "1.5 s"],
      [`every arrow function (${samples.get("every:pooled")![0]!.total} matches, every file parsed): with workers / without (CPU time of each)`, `${wall("every:pooled")} / ${wall("every:single")} (${cpu("every:pooled")} / ${cpu("every:single")})`, "1.5 s"],
      ["last line of the result → process exit (every arrow function, with workers / without)", `${exit("every:pooled")} / ${exit("every:single")}`, `about ${exit("read")}, as for read`],
    ];
    if (against) {
      const ratio = (key: string) => (median(samples.get(`${key}:pooled`)!.map((s) => s.wallMs)) / median(samples.get(`${key}:against`)!.map((s) => s.wallMs))).toFixed(2);
      for (const key of Object.keys(QUERIES)) {
        rows.push([`${key} query, the other installation (CPU time); this one's wall time / its`, `${wall(`${key}:against`)} (${cpu(`${key}:against`)}); ${ratio(key)}×`, ""]);
      }
      rows.push(["last line → exit, the other installation (every arrow function)", exit("every:against"), ""]);
    }
    return rows;
  } finally {
    rmSync(one, { recursive: true, force: true });
  }
}

/**
 * The scan alone, in this process, over the same files: this thread only,
 * and with one worker.
 */
export async function benchScanThreads(): Promise<Row[]> {
  const { FileSearcher } = await import("../tools/lib/structural/scan-file.js");
  const { scanAll } = await import("../tools/lib/structural/scan-pool.js");
  const { makeToolContext } = await import("../test/support/tool-context.js");
  const { execFileSync } = await import("node:child_process");
  const { rgPath } = await import("@vscode/ripgrep");
  const files = execFileSync(rgPath, ["--files", "-g", "*.ts"], { cwd: root, encoding: "utf8" }).trim().split("\n").sort();
  const jobs = files.map((file) => ({ file, abs: join(root, file) }));
  const t = await makeToolContext();
  const made = await FileSearcher.create("typescript", QUERIES.every);
  if (!made.ok) throw new Error(made.error);
  const worker = new URL("../dist/structural-worker.js", import.meta.url);
  const times: Record<string, number[]> = { none: [], one: [] };
  try {
    for (let i = 0; i < RUNS; i++) {
      for (const [key, workers] of [["none", 0], ["one", 1]] as const) {
        const t0 = performance.now();
        const run = await scanAll(t.ctx, { language: "typescript", query: QUERIES.every }, jobs, made.searcher, { script: worker, workers });
        if (!run.ok || run.threads !== workers) throw new Error("the scan did not run as asked");
        times[key]!.push(performance.now() - t0);
      }
    }
  } finally {
    made.searcher.free();
    await t.cleanup();
  }
  const s = (k: string) => `${(median(times[k]!) / 1000).toFixed(2)} s`;
  return [[`every arrow function, the scan alone in one process (${jobs.length} files): this thread / with one worker`, `${s("none")} / ${s("one")}`, ""]];
}
