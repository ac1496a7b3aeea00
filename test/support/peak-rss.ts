// Runs one `yuj tool` call in a child process and reports that process's
// peak resident memory. The child measures itself: a preloaded module writes
// its high-water mark (VmHWM) to a file as the process exits, so nothing
// else (another test, the harness) is counted and no external `time` binary
// is needed.

import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { yujBin } from "./cli.js";

const hookDir = mkdtempSync(join(tmpdir(), "yuj-peak-rss-"));
const hook = join(hookDir, "hook.mjs");
// VmHWM, not resourceUsage().maxRSS: Linux carries ru_maxrss over fork and
// exec, so a child of a large parent would report the parent's size.
writeFileSync(
  hook,
  'import { readFileSync, writeFileSync } from "node:fs";\n' +
    'process.on("exit", () => {\n' +
    '  const kib = /VmHWM:\\s*(\\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"))[1];\n' +
    '  writeFileSync(process.env.YUJ_PEAK_RSS_FILE, kib);\n' +
    "});\n",
);
let seq = 0;

export interface MeasuredCall {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Peak RSS of the yuj process, MiB. */
  peakMiB: number;
}

/** `yuj [global...] tool NAME JSON` in `cwd`, with `env` (an isolated HOME). */
export function measureToolCall(
  name: string,
  args: unknown,
  opts: { cwd: string; env: Record<string, string>; global?: string[] },
): Promise<MeasuredCall> {
  const out = join(hookDir, `rss-${process.pid}-${++seq}`);
  const argv = ["--import", pathToFileURL(hook).href, yujBin, ...(opts.global ?? []), "tool", name, JSON.stringify(args)];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, argv, {
      cwd: opts.cwd,
      env: { ...opts.env, YUJ_PEAK_RSS_FILE: out },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => {
      try {
        resolve({ code, stdout, stderr, peakMiB: Number(readFileSync(out, "utf8")) / 1024 });
      } catch (err) {
        reject(new Error(`yuj tool ${name} left no peak RSS (exit ${code}): ${stderr}`, { cause: err }));
      }
    });
  });
}
