// No process the agent starts outlives yuj, however yuj ends; memory stays
// flat under an output flood. The real CLI, real processes, `ps` to check.

import { execFileSync, spawn, spawnSync } from "node:child_process";
import { rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isolatedEnv, runCli, yujBin } from "../support/cli.js";
import { tempDemoRepo } from "../support/loop-harness.js";

/** Live (non-zombie) processes whose command line contains `marker`. */
function alive(marker: string): string[] {
  const out = execFileSync("ps", ["-eo", "pid=,stat=,args="], { encoding: "utf8" });
  return out.split("\n").filter((l) => l.includes(marker) && !/^\s*\d+\s+Z/.test(l));
}

async function until(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

/**
 * Starts `yuj code` on the chord surface with a scripted model that starts a
 * background job and then waits for it (--keep-jobs), so yuj stays alive
 * holding the job.
 */
function startHoldingYuj(marker: string) {
  const cwd = tempDemoRepo();
  const scenario = {
    turns: [
      {
        tool_calls: [
          { name: "shell", arguments: { command: `(exec -a ${marker} sleep 300) & (exec -a ${marker} sleep 300); wait`, run_in_background: true } },
        ],
      },
      { text: "The job runs; I will wait for it to finish." },
    ],
  };
  writeFileSync(join(cwd, "scenario.json"), JSON.stringify(scenario));
  // Unsandboxed: inside bubblewrap --die-with-parent would end the job with
  // yuj, and these tests are about what yuj itself does when it ends.
  writeFileSync(join(cwd, "scripted.toml"), '[provider]\nname = "scripted"\nscenario = "scenario.json"\n[sandbox]\nmode = "off"\n');
  const env = isolatedEnv();
  // --keep-jobs: without it the run would end, and stop the job, as soon as the model answered.
  const child = spawn(process.execPath, [yujBin, "code", "hold a job", "--profile", "chord", "--config", "scripted.toml", "--keep-jobs"], {
    cwd,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on("close", (code, signal) => resolve(code ?? (signal ? -1 : null))));
  return { child, exited, cwd, env, output: () => ({ stdout, stderr }) };
}

describe("no orphan survives yuj", () => {
  it.each([
    ["SIGTERM", 143],
    ["SIGINT", 130],
  ] as const)("%s: yuj ends its jobs' process groups before exiting", async (signal, code) => {
    const marker = `yuj-e2e-${signal}-${process.pid}-${Date.now()}`;
    const yuj = startHoldingYuj(marker);
    expect(await until(() => alive(marker).length >= 2, 10_000)).toBe(true);
    yuj.child.kill(signal);
    expect(await yuj.exited).toBe(code);
    expect(alive(marker)).toEqual([]);
  });

  it("SIGKILL: the next start finds the orphans, reports them and ends them", async () => {
    const marker = `yuj-e2e-SIGKILL-${process.pid}-${Date.now()}`;
    const yuj = startHoldingYuj(marker);
    expect(await until(() => alive(marker).length >= 2, 10_000)).toBe(true);
    yuj.child.kill("SIGKILL");
    await yuj.exited;
    // Nothing could clean up: the job's processes are still there.
    expect(alive(marker).length).toBeGreaterThan(0);
    const next = await runCli(["tool", "job_list", "{}", "--profile", "chord"], { cwd: yuj.cwd, env: yuj.env });
    expect(next.code).toBe(0);
    expect(next.stderr).toMatch(/^yuj: ended 1 process group\(s\) or process\(es\) left by an earlier yuj that was killed: process group \d+ \(/);
    expect(await until(() => alive(marker).length === 0, 5000)).toBe(true);
    // Reported once: a later start finds nothing.
    const again = await runCli(["tool", "job_list", "{}", "--profile", "chord"], { cwd: yuj.cwd, env: yuj.env });
    expect(again.stderr).toBe("");
  });
});

describe("a normal end", () => {
  it("ends background jobs and the terminal when the run finishes", async () => {
    const marker = `yuj-e2e-normal-${process.pid}-${Date.now()}`;
    const cwd = tempDemoRepo();
    const scenario = {
      turns: [
        {
          tool_calls: [
            { name: "bash", arguments: { cmd: `(exec -a ${marker}-job sleep 300)`, background: true } },
            { name: "terminal_start", arguments: { cmd: `exec -a ${marker}-pty sleep 300` } },
          ],
        },
        { tool_calls: [{ name: "done", arguments: { message: "left both running" } }] },
      ],
    };
    writeFileSync(join(cwd, "scenario.json"), JSON.stringify(scenario));
    writeFileSync(
      join(cwd, "cfg.toml"),
      '[provider]\nname = "scripted"\nscenario = "scenario.json"\n[tools]\nbackground_enabled = true\nterminal_enabled = true\n',
    );
    const res = await runCli(["code", "start things", "--config", "cfg.toml", "--output", "jsonl"], { cwd, env: isolatedEnv() });
    expect(res.code).toBe(0);
    const events = res.stdout.trimEnd().split("\n").map((l) => JSON.parse(l));
    expect(events.filter((e) => e.type === "tool_result").map((e) => [e.name, e.ok])).toEqual([
      ["bash", true],
      ["terminal_start", true],
      ["done", true],
    ]);
    expect(events.some((e) => e.type === "job_exited" && e.status === "killed")).toBe(true);
    expect(events.some((e) => e.type === "terminal_exited")).toBe(true);
    expect(alive(marker)).toEqual([]);
  });
});

describe("output flood", () => {
  it("keeps yuj's memory flat and the log within the cap while a command prints 500 MB, and the preview honest", () => {
    const cwd = tempDemoRepo();
    const run = (cmd: string) => {
      const env = isolatedEnv();
      const res = spawnSync("/usr/bin/time", ["-f", "RSS=%M", process.execPath, yujBin, "tool", "bash", JSON.stringify({ cmd })], {
        cwd,
        env,
        encoding: "utf8",
      });
      const meta = /<tool_result_meta truncated="true" original_bytes="(\d+)" original_lines="(\d+)" dropped_bytes="(\d+)" full_path="([^"]+)"\/>/.exec(res.stdout);
      const onDisk = meta ? statSync(meta[4]!).size : 0;
      rmSync(env.HOME!, { recursive: true, force: true });
      return { rssMiB: Number(/RSS=(\d+)/.exec(res.stderr)![1]) / 1024, stdout: res.stdout, meta, onDisk };
    };
    const base = run("true");
    const flood = run("yes | head -c 500M");
    expect(flood.rssMiB - base.rssMiB).toBeLessThan(50);
    const meta = flood.meta!;
    expect(meta[1]).toBe(String(500 * 1024 * 1024));
    expect(meta[2]).toBe(String((500 * 1024 * 1024) / 2));
    // The log kept its head and tail within the default cap, and the result says how much it dropped.
    expect(flood.onDisk).toBeLessThanOrEqual(64 * 1024 * 1024);
    expect(Number(meta[3])).toBeGreaterThan(500 * 1024 * 1024 - 64 * 1024 * 1024);
    expect(flood.stdout).toContain(`${meta[3]} of them dropped from the saved file`);
    expect(flood.stdout).toMatch(/\[body truncated: \d+ of 524288000 bytes omitted/);
    expect(flood.stdout.length).toBeLessThan(4000);
  }, 60_000);
});
