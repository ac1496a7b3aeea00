// Drives the real `yuj` TUI in a real terminal: a detached tmux session of a
// fixed size; keys go in with send-keys, the screen comes back with
// capture-pane.

import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { yujBin } from "./cli.js";

export interface TmuxApp {
  name: string;
  screen(): string;
  /** Types text literally (no key names). */
  type(text: string): void;
  /**
   * Types a one-line message, waits until the composer shows it (so the
   * text and the Enter arrive as two inputs, as a person's do), then Enter.
   */
  submit(text: string): Promise<void>;
  /** Sends tmux key names: "Enter", "Escape", "C-c", "Up"… */
  keys(...names: string[]): void;
  waitFor(pattern: RegExp | string, timeoutMs?: number): Promise<string>;
  resize(columns: number, rows: number): void;
  /** 1 while the program shows the alternate screen. */
  alternateOn(): boolean;
  paneDead(): boolean;
  /** The bytes the program wrote to its terminal so far (recorded with pipe-pane). */
  raw(): string;
  /** The pane's scrollback and screen, as text. */
  history(): string;
  kill(): void;
}

let counter = 0;

/** The composer's line holding exactly `text`: `› text`, nothing after it but blanks (and a prompt's border). */
function composerShows(text: string): RegExp {
  return new RegExp(`^[\\s│]*› ${text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}[\\s│]*$`, "m");
}

/** Until the tmux server that was exiting is gone (its socket answers no more), at most 5 s. */
function waitForServerGone(tmux: (...args: string[]) => string): void {
  const end = Date.now() + 5000;
  while (Date.now() < end) {
    try {
      tmux("list-sessions");
    } catch {
      return;
    }
  }
}

export interface TuiStart {
  cwd: string;
  env: Record<string, string>;
  args?: string[];
  columns?: number;
  rows?: number;
  /** Lines the pane prints before yuj starts (to see whether its scrollback survives). */
  before?: string[];
}

export function startTui(opts: TuiStart): TmuxApp {
  const name = `yuj-test-${process.pid}-${++counter}`;
  const envArgs = Object.entries(opts.env).map(([k, v]) => `${k}=${v}`);
  const yuj = ["env", "-i", ...envArgs, process.execPath, yujBin, ...(opts.args ?? [])];
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  // The program's bytes are recorded from its first write: the pane starts a
  // shell that waits until pipe-pane is attached, then prints and runs yuj.
  const rawFile = join(mkdtempSync(join(tmpdir(), "yuj-tmux-")), "raw");
  const ready = `${rawFile}.ready`;
  const script = [`while [ ! -e ${quote(ready)} ]; do sleep 0.02; done`, ...(opts.before ?? []).map((l) => `printf '%s\\n' ${quote(l)}`), `exec ${yuj.map(quote).join(" ")}`].join("; ");
  const command = ["sh", "-c", script];
  // A server of our own per test process: runs in parallel (or a user's
  // tmux) never share sessions or a server that is starting or exiting.
  const tmux = (...args: string[]) => execFileSync("tmux", ["-L", `yuj-tests-${process.pid}`, ...args], { encoding: "utf8" });
  // The server exits when the previous test kills its last session; a new
  // session that races that exit fails with "server exited unexpectedly".
  // Starting again then meets no server and starts a fresh one.
  for (let attempt = 1; ; attempt++) {
    try {
      tmux("new-session", "-d", "-s", name, "-x", String(opts.columns ?? 140), "-y", String(opts.rows ?? 40), "-c", opts.cwd, ...command);
      break;
    } catch (err) {
      if (attempt >= 5 || !String((err as Error).message).includes("server exited unexpectedly")) throw err;
      waitForServerGone(tmux);
    }
  }
  tmux("set-option", "-t", name, "remain-on-exit", "on");
  tmux("set-option", "-t", name, "history-limit", "5000");
  tmux("pipe-pane", "-o", "-t", name, `cat >> ${quote(rawFile)}`);
  writeFileSync(ready, "");
  const app: TmuxApp = {
    name,
    screen: () => tmux("capture-pane", "-p", "-t", name),
    type: (text) => void tmux("send-keys", "-t", name, "-l", text),
    async submit(text) {
      tmux("send-keys", "-t", name, "-l", text);
      await app.waitFor(composerShows(text));
      tmux("send-keys", "-t", name, "Enter");
    },
    keys: (...names) => {
      for (const k of names) tmux("send-keys", "-t", name, k);
    },
    async waitFor(pattern, timeoutMs = 10_000) {
      const end = Date.now() + timeoutMs;
      const test = (s: string) => (typeof pattern === "string" ? s.includes(pattern) : pattern.test(s));
      for (;;) {
        const s = app.screen();
        if (test(s)) return s;
        if (Date.now() > end) throw new Error(`screen never showed ${String(pattern)}:\n${s}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    resize: (columns, rows) => void tmux("resize-window", "-t", name, "-x", String(columns), "-y", String(rows)),
    alternateOn: () => tmux("display-message", "-p", "-t", name, "#{alternate_on}").trim() === "1",
    raw: () => (existsSync(rawFile) ? readFileSync(rawFile, "latin1") : ""),
    history: () => tmux("capture-pane", "-p", "-S", "-", "-E", "-", "-t", name),
    paneDead: () => tmux("display-message", "-p", "-t", name, "#{pane_dead}").trim() === "1",
    kill: () => {
      try {
        tmux("kill-session", "-t", name);
      } catch {
        /* already gone */
      }
    },
  };
  return app;
}
