// What streaming costs the terminal: the real TUI in a PTY (120×40) while a
// long answer streams in many small deltas from the local SSE server. The
// view must not repaint the screen once per delta (the store and Ink both
// throttle to ~30 frames a second), and once the answer is in, the program
// writes nothing and uses no CPU.

import * as pty from "@lydell/node-pty";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseScenario } from "../../core/providers/scenario.js";
import { isolatedEnv, yujBin } from "../support/cli.js";
import { startSseServer, type SseServer } from "../support/sse-server.js";
import { anthropicEvents } from "../support/sse-wire.js";

const COLS = 120;
const ROWS = 40;
/** Begin-synchronized-update: Ink opens every frame it writes to a TTY with it. */
const FRAME_START = "\x1b[?2026h";
const END = "STREAMEND";

let term: pty.IPty | undefined;
let server: SseServer | undefined;
afterEach(async () => {
  term?.kill();
  term = undefined;
  await server?.close();
  server = undefined;
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** utime + stime of a process, in clock ticks (10 ms). */
function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return Number(fields[11]) + Number(fields[12]);
}

describe("TUI redraw cost", () => {
  it("streams a long answer in frames, not a repaint per delta, and is silent when idle", async () => {
    // ~2,400 characters (more than the screen holds) in 5-character deltas,
    // one every 8 ms: a renderer that drew each delta would write a whole
    // frame per delta; throttled, a frame covers ~4 or more.
    const paragraph = (i: number) =>
      `Paragraph ${i} explains one more part of the change: the reader walks the list, keeps the newest entry for each key, and writes the result back in order.`;
    const text = Array.from({ length: 16 }, (_, i) => paragraph(i + 1)).join("\n\n") + `\n\nThat is all. ${END}`;
    const scenario = parseScenario({ turns: [{ text }] });
    const deltas = anthropicEvents(scenario.turns[0]!, 0, "m").filter((e) => e.event === "content_block_delta").length;
    expect(deltas).toBeGreaterThan(400);
    server = await startSseServer({ scenario, eventDelayMs: 8 });

    const cwd = mkdtempSync(join(tmpdir(), "yuj-redraw-"));
    const env = { ...isolatedEnv(), TERM: "xterm-256color", ANTHROPIC_API_KEY: "sk-test-000000000" };
    const args = [yujBin, "--provider", "anthropic", "--model", "m", "--base-url", server.baseUrlFor("anthropic")];
    term = pty.spawn(process.execPath, args, { name: "xterm-256color", cols: COLS, rows: ROWS, cwd, env });
    const pid = term.pid;

    let out = "";
    let bytes = 0;
    let lastAt = performance.now();
    const writes: Array<{ at: number; data: string }> = [];
    term.onData((d) => {
      out = (out + d).slice(-200_000);
      bytes += Buffer.byteLength(d);
      lastAt = performance.now();
      writes.push({ at: lastAt, data: d });
    });
    const until = async (check: () => boolean, timeoutMs: number, what: string) => {
      const end = Date.now() + timeoutMs;
      while (!check()) {
        if (Date.now() > end) throw new Error(`timed out waiting for ${what}; last output:\n${out.slice(-1500)}`);
        await sleep(20);
      }
    };
    const quiet = (ms: number, timeoutMs: number) => until(() => performance.now() - lastAt >= ms, timeoutMs, `${ms} ms of silence`);

    await until(() => out.includes("INSERT"), 15_000, "the first frame");
    await quiet(500, 10_000);
    // Each key's echo paints the composer's row from the edit on, so the stream
    // never holds the message whole: the echo of its last key, then quiet.
    const typedFrom = out.length;
    term.write("tell me about the change");
    await until(() => out.slice(typedFrom).includes("e\x1b[7m \x1b[27m"), 5_000, "the composer to show the message");
    await quiet(300, 5_000);

    const from = writes.length;
    const bytesBefore = bytes;
    const t0 = performance.now();
    term.write("\r");
    await until(() => out.includes(END), 60_000, "the end of the answer");
    const streamMs = performance.now() - t0;
    const streamBytes = bytes - bytesBefore;
    const during = writes.slice(from);
    const frameStarts = during.reduce((n, w) => n + w.data.split(FRAME_START).length - 1, 0);
    // Without synchronized-update markers, count bursts of output instead.
    const bursts = during.filter((w, i) => i === 0 || w.at - during[i - 1]!.at > 2).length;
    const frames = frameStarts || bursts;
    const perDelta = streamBytes / deltas;
    console.log(
      `redraw: ${deltas} deltas in ${streamMs.toFixed(0)} ms; ${streamBytes} bytes (${perDelta.toFixed(0)} per delta); ` +
        `${frames} frames (${(streamBytes / Math.max(1, frames)).toFixed(0)} bytes per frame, ${((frames * 1000) / streamMs).toFixed(1)} per second)`,
    );

    // Far less than a repaint per delta: a quarter of the screen's cells at most.
    expect(perDelta).toBeLessThan((COLS * ROWS) / 4);
    // Frames are throttled to ~30 a second (33 ms), with slack for the first
    // frame and the final one.
    expect(frames).toBeLessThanOrEqual(Math.ceil((streamMs / 33) * 1.2) + 5);
    // …and the answer is shown while it streams, not only at the end.
    expect(frames).toBeGreaterThanOrEqual(5);

    // Idle: once the last frame is out, nothing is written and no CPU is used.
    await quiet(1000, 10_000);
    const idleBytes = bytes;
    const ticks = cpuTicks(pid);
    await sleep(2000);
    expect(bytes - idleBytes).toBe(0);
    expect(cpuTicks(pid) - ticks).toBeLessThanOrEqual(2); // ≤ 20 ms in 2 s
  }, 90_000);
});
