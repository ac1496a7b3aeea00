// TUI benchmarks: the built `yuj` full-screen view in a real PTY
// (node-pty), against the scripted model, so every time below is exact
// (spawn, key write and the PTY's onData are all in this process).
//
//  - first frame: spawn `node bin/yuj.js` → the first output that holds the
//    status bar (`INSERT`); median of BENCH_TUI_STARTS runs;
//  - a long session: one message runs BENCH_TUI_TURNS turns, each a Markdown
//    reply (heading, list, code block) and a `bash` call that prints ~3 KB,
//    then a final answer. Wall time from Enter to the answer on screen; RSS
//    (VmRSS) and keystroke echo before and after; CPU used in the
//    BENCH_TUI_IDLE_S (10) idle seconds that follow (utime + stime from
//    /proc/<pid>/stat);
//  - a transcript of BENCH_TUI_CARDS cards (5,000; `read` calls, four a
//    turn, run together without a process, so the loop is quick): the time
//    to build it, then keystroke echo and RSS at the end.
//
// BENCH_TUI_BIN runs another build of yuj (default: bin/yuj.js here).
//
// Keystroke echo: a character no screen holds (ξ) is written to the PTY and
// the clock stops at the first output holding it (the composer's row is
// painted from the edit on, so the output holds the new character, not the
// whole draft); median of ECHO_SAMPLES keys typed 120 ms apart (past Ink's
// 30 fps render throttle, so each key is the leading edge of a frame).

import * as pty from "@lydell/node-pty";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");
const bin = process.env.BENCH_TUI_BIN ?? join(root, "bin", "yuj.js");
const STARTS = Number(process.env.BENCH_TUI_STARTS ?? 5);
const TURNS = Number(process.env.BENCH_TUI_TURNS ?? 150);
// With 5,000 cards and the long session, the whole TUI part takes about a minute here.
const CARDS = Number(process.env.BENCH_TUI_CARDS ?? 5000);
const IDLE_S = Number(process.env.BENCH_TUI_IDLE_S ?? 10);
const ECHO_SAMPLES = 9;
const COLS = 120;
const ROWS = 40;
const ECHO_CHAR = "ξ";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mib = (kib: number) => `${(kib / 1024).toFixed(0)} MiB`;

/** A scratch repo with a scripted-provider config, and an isolated HOME. */
function workspace(turns: unknown[]): { cwd: string; env: Record<string, string>; cleanup(): void } {
  const base = mkdtempSync(join(tmpdir(), "yuj-bench-tui-"));
  const cwd = join(base, "repo");
  const home = join(base, "home");
  mkdirSync(join(cwd, ".yuj"), { recursive: true });
  mkdirSync(home);
  writeFileSync(join(cwd, "README.md"), "# bench\n\nA scratch repository for the TUI benchmark.\n");
  writeFileSync(join(cwd, "notes.txt"), "alpha\nbeta\ngamma\n");
  writeFileSync(join(cwd, "scenario.json"), JSON.stringify({ turns }));
  writeFileSync(
    join(cwd, ".yuj", "config.toml"),
    `[provider]\nname = "scripted"\nscenario = "scenario.json"\n\n[loop]\nmax_turns = 1000000\n`,
  );
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_STATE_HOME: join(home, ".local", "state"),
    TERM: "xterm-256color",
    LANG: "C.UTF-8",
  };
  return { cwd, env, cleanup: () => rmSync(base, { recursive: true, force: true }) };
}

export interface Tui {
  pid: number;
  /** Bytes the TUI has written so far. */
  bytes(): number;
  /** How many times it cleared the terminal's scrollback (ESC[3J). */
  scrollbackClears(): number;
  /** Resolves with performance.now() at the first output (from now on) that matches. */
  next(test: (recent: string) => boolean, timeoutMs: number): Promise<number>;
  write(s: string): void;
  exited(): boolean;
  kill(): void;
}

/** Any full-screen program in a PTY at 120×40 (by default this build of yuj). */
export function spawnTui(cwd: string, env: Record<string, string>, argv: string[] = [process.execPath, bin]): Tui {
  const p = pty.spawn(argv[0]!, argv.slice(1), { name: "xterm-256color", cols: COLS, rows: ROWS, cwd, env });
  let bytes = 0;
  let clears = 0;
  let tail = ""; // the last output, for matches that span writes
  let exited = false;
  const waiters = new Set<(chunk: string) => void>();
  p.onData((d) => {
    bytes += Buffer.byteLength(d);
    clears += d.split("\x1b[3J").length - 1;
    tail = (tail + d).slice(-64 * 1024);
    for (const w of [...waiters]) w(tail);
  });
  p.onExit(() => (exited = true));
  return {
    pid: p.pid,
    bytes: () => bytes,
    scrollbackClears: () => clears,
    next(test, timeoutMs) {
      tail = "";
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(w);
          reject(new Error(`TUI output never matched in ${timeoutMs} ms; last output:\n${tail.slice(-2000)}`));
        }, timeoutMs);
        const w = (recent: string) => {
          if (!test(recent)) return;
          const at = performance.now();
          clearTimeout(timer);
          waiters.delete(w);
          resolve(at);
        };
        waiters.add(w);
      });
    },
    write: (s) => p.write(s),
    exited: () => exited,
    kill: () => {
      try {
        p.kill("SIGKILL");
      } catch {
        /* gone */
      }
    },
  };
}

const statusLine = (pid: number, key: string) => {
  const m = readFileSync(`/proc/${pid}/status`, "utf8").match(new RegExp(`^${key}:\\s+(\\d+)`, "m"));
  return m ? Number(m[1]) : NaN;
};
export const rssKiB = (pid: number) => statusLine(pid, "VmRSS");
/** utime + stime of the process, in clock ticks (USER_HZ, 100 on Linux). */
export function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return Number(fields[11]) + Number(fields[12]); // fields 14 and 15 of stat(5)
}
export const TICK_MS = 10;

/** Waits until the TUI has written nothing for `quietMs`. */
export async function settle(tui: Tui, quietMs = 400, maxMs = 30_000): Promise<void> {
  const end = Date.now() + maxMs;
  let last = tui.bytes();
  let since = Date.now();
  while (Date.now() < end) {
    await sleep(50);
    const now = tui.bytes();
    if (now !== last) {
      last = now;
      since = Date.now();
    } else if (Date.now() - since >= quietMs) return;
  }
}

/**
 * Median time from a key to the output that shows it, and the median bytes
 * written for it (everything from the key until the output is quiet again);
 * then the draft is erased.
 */
async function echo(tui: Tui): Promise<{ ms: number; bytes: number }> {
  await settle(tui);
  const times: number[] = [];
  const sizes: number[] = [];
  for (let i = 1; i <= ECHO_SAMPLES; i++) {
    const seen = tui.next((s) => s.includes(ECHO_CHAR), 10_000);
    const before = tui.bytes();
    const t0 = performance.now();
    tui.write(ECHO_CHAR);
    times.push((await seen) - t0);
    await sleep(120);
    sizes.push(tui.bytes() - before);
  }
  tui.write("\x7f".repeat(ECHO_SAMPLES)); // Backspace the draft away
  await settle(tui);
  return { ms: median(times), bytes: median(sizes) };
}

async function firstFrame(): Promise<number> {
  const ws = workspace([{ text: "Hello." }]);
  try {
    const t0 = performance.now();
    const tui = spawnTui(ws.cwd, ws.env);
    try {
      return (await tui.next((s) => s.includes("INSERT"), 15_000)) - t0;
    } finally {
      tui.kill();
    }
  } finally {
    ws.cleanup();
  }
}

/** One turn of the long session: Markdown and a bash call printing ~3 KB. */
export function markdownTurn(i: number, command = "bash"): unknown {
  return {
    text:
      `## Step ${i}\n\nChecking the counter output:\n\n- the range starts at **${i}**\n- it holds 800 numbers\n- each on its own line\n\n` +
      "```ts\n" +
      `const start = ${i};\nfor (let n = start; n < start + 800; n++) console.log(n);\n` +
      "```\n",
    tool_calls: [{ name: command, arguments: { cmd: `seq ${i} ${i + 799}` } }],
    usage: { input: 2000 + i * 40, output: 80, cached: 1500 + i * 40 },
  };
}

interface SessionResult {
  wallMs: number;
  rssStart: number;
  rssEnd: number;
  echoStart: number;
  echoEnd: number;
  echoBytes: number;
  scrollbackClears: number;
  idleCpuMs: number;
}

/** Runs one message through all the turns and measures around it. */
async function session(turns: unknown[], doneMarker: string, timeoutMs: number, idleSeconds: number): Promise<SessionResult> {
  const ws = workspace(turns);
  const tui = spawnTui(ws.cwd, ws.env);
  try {
    await tui.next((s) => s.includes("INSERT"), 15_000);
    await settle(tui, 1000);
    const rssStart = rssKiB(tui.pid);
    const echoStart = (await echo(tui)).ms;
    tui.write("run the benchmark task");
    await sleep(200);
    const done = tui.next((s) => s.includes(doneMarker), timeoutMs);
    const t0 = performance.now();
    tui.write("\r");
    const wallMs = (await done) - t0;
    await settle(tui, 1000, 60_000);
    const rssEnd = rssKiB(tui.pid);
    const { ms: echoEnd, bytes: echoBytes } = await echo(tui);
    let idleCpuMs = NaN;
    if (idleSeconds > 0) {
      await sleep(500);
      const c0 = cpuTicks(tui.pid);
      await sleep(idleSeconds * 1000);
      idleCpuMs = (cpuTicks(tui.pid) - c0) * TICK_MS;
    }
    if (tui.exited()) throw new Error("the TUI exited during the benchmark");
    return { wallMs, rssStart, rssEnd, echoStart, echoEnd, echoBytes, scrollbackClears: tui.scrollbackClears(), idleCpuMs };
  } finally {
    tui.kill();
    ws.cleanup();
  }
}

export async function benchTui(): Promise<Array<[string, string, string]>> {
  const starts: number[] = [];
  for (let i = 0; i < STARTS; i++) starts.push(await firstFrame());

  const long = await session(
    [...Array.from({ length: TURNS }, (_, i) => markdownTurn(i + 1)), { text: `All ${TURNS} steps ran. BENCHDONE${TURNS}` }],
    `BENCHDONE${TURNS}`,
    150_000,
    IDLE_S,
  );

  // CARDS cards: one user card, then turns of a short reply and read-only
  // calls (run together, no process spawned), 1 + CALLS cards a turn.
  const CALLS = 4;
  const cardTurns = Math.max(1, Math.ceil((CARDS - 2) / (1 + CALLS)));
  const readTurn = (i: number) => ({
    text: `Reading the notes again (${i}).`,
    tool_calls: Array.from({ length: CALLS }, (_, k) => ({ name: "read", arguments: { path: k % 2 ? "notes.txt" : "README.md", offset: 1 + (i % 2) } })),
  });
  const big = await session(
    [...Array.from({ length: cardTurns }, (_, i) => readTurn(i)), { text: `BENCHDONE${CARDS}` }],
    `BENCHDONE${CARDS}`,
    150_000,
    0,
  );
  const cards = 1 + cardTurns * (1 + CALLS) + 1;

  return [
    ["first frame (spawn → status bar)", `${median(starts).toFixed(0)} ms`, "≤ 300 ms"],
    [`${TURNS}-turn session: Enter → final answer`, `${(long.wallMs / 1000).toFixed(1)} s`, ""],
    [`${TURNS}-turn session: RSS start → end`, `${mib(long.rssStart)} → ${mib(long.rssEnd)} (+${mib(long.rssEnd - long.rssStart)})`, "growth < 40 MiB"],
    [`${TURNS}-turn session: keystroke echo start → end`, `${long.echoStart.toFixed(1)} → ${long.echoEnd.toFixed(1)} ms`, "< 20 ms at the end"],
    [`${TURNS}-turn session: bytes written per keystroke echo at the end`, `${long.echoBytes} B`, "< 200 B"],
    [`${TURNS}-turn session: scrollback clears (ESC[3J) written`, String(long.scrollbackClears), "0"],
    [`${TURNS}-turn session: CPU in ${IDLE_S} s idle`, `${long.idleCpuMs.toFixed(0)} ms`, "~0"],
    [`${cards} cards: Enter → last card`, `${(big.wallMs / 1000).toFixed(1)} s`, ""],
    [`${cards} cards: keystroke echo`, `${big.echoEnd.toFixed(1)} ms`, "≤ 16 ms"],
    [`${cards} cards: RSS`, mib(big.rssEnd), "< 150 MB"],
  ];
}
