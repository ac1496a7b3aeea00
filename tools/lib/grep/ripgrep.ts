// The one way both grep tools run ripgrep: the binary (from PATH when
// installed, else the one bundled with @vscode/ripgrep), and its stdout handed
// over as it comes, in batches of whole lines, instead of holding all of it: a
// search with a million matches prints a hundred megabytes or more. A batch is
// a Buffer that ends at a newline byte (a newline never sits inside a UTF-8
// character, so a batch decodes on its own). Only the first 64 KiB of stderr
// is kept: it is read for its first lines.

import * as path from "node:path";
import type { ToolContext } from "../../../core/tool-types.js";

const STDERR_KEEP_BYTES = 64 * 1024;

let rgLookup: Promise<string | undefined> | undefined;

/** The rg binary to run, looked up once per process. */
export function findRipgrep(ctx: ToolContext): Promise<string | undefined> {
  rgLookup ??= (async () => {
    for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
      if (!dir) continue;
      const candidate = path.join(dir, "rg");
      const st = await ctx.services.fs.stat(candidate).catch(() => undefined);
      if (st?.isFile() && (st.mode & 0o111) !== 0) return candidate;
    }
    try {
      // Throws at import time when the platform package is missing.
      return (await import("@vscode/ripgrep")).rgPath;
    } catch {
      return undefined;
    }
  })();
  return rgLookup;
}

export type RgEnd =
  | { kind: "done"; code: number | null; stderr: string }
  | { kind: "timeout" }
  | { kind: "cancelled" }
  | { kind: "spawn_error"; message: string };

export interface RgRun {
  rg: string;
  argv: string[];
  cwd: string;
  timeoutMs: number;
  /** Whole lines of stdout, in order; the last batch may lack its final newline. */
  onLines(batch: Buffer): void;
}

export function runRg(ctx: ToolContext, run: RgRun): Promise<RgEnd> {
  return new Promise((resolve) => {
    const child = ctx.services.spawn(run.rg, run.argv, { cwd: run.cwd, stdio: ["ignore", "pipe", "pipe"], env: ctx.services.env });
    // The start of a line not yet ended, in pieces (one line may be huge).
    let pending: Buffer[] = [];
    const err: Buffer[] = [];
    let errBytes = 0;
    let stopped: RgEnd | undefined;
    const stop = (end: RgEnd) => {
      if (stopped) return;
      stopped = end;
      child.kill("SIGKILL");
    };
    const timer = setTimeout(() => stop({ kind: "timeout" }), run.timeoutMs);
    const onAbort = () => stop({ kind: "cancelled" });
    ctx.signal.addEventListener("abort", onAbort, { once: true });
    child.stdout?.on("data", (chunk: Buffer) => {
      if (stopped) return;
      const lastNl = chunk.lastIndexOf(0x0a);
      if (lastNl < 0) {
        pending.push(chunk);
        return;
      }
      const whole = chunk.subarray(0, lastNl + 1);
      const batch = pending.length ? Buffer.concat([...pending, whole]) : whole;
      pending = lastNl + 1 < chunk.length ? [chunk.subarray(lastNl + 1)] : [];
      run.onLines(batch);
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      if (errBytes >= STDERR_KEEP_BYTES) return;
      err.push(chunk);
      errBytes += chunk.length;
    });
    const finish = (end: RgEnd) => {
      clearTimeout(timer);
      ctx.signal.removeEventListener("abort", onAbort);
      resolve(stopped ?? end);
    };
    child.on("error", (e) => finish({ kind: "spawn_error", message: e.message }));
    child.on("close", (code) => {
      if (!stopped && pending.length) run.onLines(Buffer.concat(pending));
      finish({ kind: "done", code, stderr: Buffer.concat(err).toString("utf8") });
    });
  });
}
