// Command benchmarks: from a tool call to the first output byte, and the
// throughput of a job that prints 100 MB, each against running the same
// command directly with node's spawn.

import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultConfig } from "../core/config/schema.js";
import { createEmitter, type CoreEvent } from "../core/events.js";
import { createJobManager } from "../core/jobs/manager.js";
import { nodeServices } from "../core/services.js";
import { bashTool } from "../tools/yuj/bash.js";
import { createSessionMemory } from "../core/session-memory.js";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Spawn → first stdout byte, and spawn → exit, for a command run directly. */
function direct(cmd: string): Promise<{ firstByteMs: number; totalMs: number; bytes: number }> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    let first = 0;
    let bytes = 0;
    const child = spawn("bash", ["-o", "pipefail", "-c", cmd], { stdio: ["ignore", "pipe", "ignore"] });
    child.stdout.on("data", (d: Buffer) => {
      if (!first) first = performance.now() - t0;
      bytes += d.length;
    });
    child.on("close", () => resolve({ firstByteMs: first, totalMs: performance.now() - t0, bytes }));
  });
}

export async function benchJobs(runs: number): Promise<Array<[string, string, string]>> {
  const dir = mkdtempSync(join(tmpdir(), "yuj-bench-jobs-"));
  const events: CoreEvent[] = [];
  const { emit } = createEmitter("bench", (e) => events.push(e));
  const jobs = createJobManager({ sessionDir: dir, emit });
  try {
    // Job start → first output byte visible to yuj.
    const jobFirst: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      const job = jobs.start({ command: "echo hi", cwd: dir, background: true });
      await jobs.wait(job.id, "output", 5000);
      jobFirst.push(performance.now() - t0);
      await jobs.wait(job.id, "exit", 5000);
    }
    // A whole `bash` tool call for `echo hi`, from run() to its result.
    const ctx = {
      cwd: dir,
      signal: new AbortController().signal,
      callId: "bench",
      emit,
      services: nodeServices(),
      config: defaultConfig(),
      sessionDir: dir,
      memory: createSessionMemory(),
      jobs,
    };
    const toolCall: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      await bashTool.run({ cmd: "echo hi" }, ctx);
      toolCall.push(performance.now() - t0);
    }
    const directFirst: number[] = [];
    for (let i = 0; i < runs; i++) directFirst.push((await direct("echo hi")).firstByteMs);

    // 100 MB through a job (spilled to its file) vs piped into node directly.
    const size = 100 * 1024 * 1024;
    const cmd = `yes | head -c ${size}`;
    const jobMs: number[] = [];
    const directMs: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      const job = jobs.start({ command: cmd, cwd: dir, background: true });
      await jobs.wait(job.id, "exit", 60_000);
      jobMs.push(performance.now() - t0);
      rmSync(job.outputFile, { force: true });
      directMs.push((await direct(cmd)).totalMs);
    }
    const mbps = (ms: number) => `${(size / 1024 / 1024 / (ms / 1000)).toFixed(0)} MB/s`;
    return [
      ["`echo hi`: job start → first output byte seen", `${median(jobFirst).toFixed(1)} ms`, `direct spawn: ${median(directFirst).toFixed(1)} ms`],
      ["`echo hi`: whole bash tool call", `${median(toolCall).toFixed(1)} ms`, ""],
      ["100 MB job (`yes | head -c 100M`), spilled to disk", mbps(median(jobMs)), `direct, piped into node: ${mbps(median(directMs))}`],
    ];
  } finally {
    await jobs.shutdown();
    rmSync(dir, { recursive: true, force: true });
  }
}
