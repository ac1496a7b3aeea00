// The session's one interactive terminal: a program that needs a TTY (a REPL,
// a debugger) runs in a pseudo-terminal Yuj owns, and the model drives it one
// bounded exchange at a time through terminal_start / terminal_io. The model
// only ever sees cleaned text; the raw stream goes to <sessionDir>/terminal/,
// redacted and capped like a job's output (job-log.ts).

import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { StringDecoder } from "node:string_decoder";
import type { IPty } from "@lydell/node-pty";
import type { Emit } from "../events.js";
import { clockTimer, systemClock, type Clock } from "../services.js";
import { modelText } from "../text/escapes.js";
import { BoundedText, splitPartialTail } from "./terminal-text.js";
import { killSession, nameOfSignal } from "./terminal-session.js";
import { DEFAULT_MAX_LOG_BYTES, JobLog } from "./job-log.js";
import { commandEnv } from "./shell-env.js";
import { unavailableMessage, type Sandbox } from "../sandbox/index.js";
import type { EscapeWatch } from "./escapees.js";
import { logIdAllocator } from "./ids.js";
import { repoNoticeText } from "./snapshot.js";

/** Why a terminal's process ended: by itself, terminate=true, its lifetime bound, or the session's end. */
type TerminalEndReason = "process_exit" | "explicit" | "lifetime_timeout" | "session_end";

interface TerminalExit {
  exitCode: number | null;
  signal: string | null;
  reason: TerminalEndReason;
}

export type TerminalStatus = { state: "running" } | ({ state: "exited" } & TerminalExit);

interface TerminalRead {
  terminalId: string;
  pid: number;
  /** Output since the previous read: escapes stripped, at most the preview budget (head + tail). */
  text: string;
  /** Bytes of cleaned output left out of `text` (0 when everything fit). */
  omittedBytes: number;
  status: TerminalStatus;
  /** The raw output stream on disk. */
  logFile: string;
  /** What yuj undid in the project's repositories since the previous read (see JobSnapshot.repoNotice). */
  repoNotice?: string;
}

/** Errors are plain sentences for the model; the tools add the `ERROR:` prefix. */
export type TerminalOutcome = { ok: true; read: TerminalRead } | { ok: false; error: string };

interface TerminalIoRequest {
  input?: string;
  /** Follow the input with a terminal Enter ("\r"). */
  appendNewline?: boolean;
  /** How long to wait for output to settle. */
  timeoutMs: number;
  terminate?: boolean;
  /** Stops the wait (the process keeps running, its output stays unread). */
  signal?: AbortSignal;
}

export interface TerminalManager {
  start(command: string, cwd: string): Promise<TerminalOutcome>;
  io(terminalId: string, request: TerminalIoRequest): Promise<TerminalOutcome>;
  /** Id of the live terminal, if one runs. */
  liveId(): string | undefined;
  /** Kills the live terminal (session end). */
  shutdown(): Promise<void>;
}

export interface TerminalManagerOptions {
  emit: Emit;
  sessionDir: string;
  clock?: Clock;
  /** Base environment of the terminal process, already filtered; yuj's own under the default policy when absent. */
  env?: Record<string, string | undefined>;
  /** Values hidden from the log (see redact.ts). */
  secrets?: readonly string[];
  /** Bytes of the log kept on disk ([output].max_job_log_bytes). */
  maxLogBytes?: number;
  /** Characters one input may have ([tools].terminal_max_input_chars). */
  maxInputChars?: number;
  /** How long one terminal may live before it is stopped ([tools].terminal_max_lifetime). */
  maxLifetimeMs?: number;
  outputPreviewBytes?: number;
  /** Runs the terminal's command through it, like every job's. */
  sandbox?: Sandbox;
  /** The job manager's marker, so what the terminal's programs leave behind is found at the end too. */
  escapees?: EscapeWatch;
}

const COLS = 120;
const ROWS = 40;
const START_WAIT_MS = 1000;
const START_QUIET_MS = 200;
const IO_QUIET_MS = 300;
const POLL_MS = 25;
const EXIT_WAIT_MS = 2000;
const DEFAULT_MAX_INPUT_CHARS = 16_384;
const DEFAULT_MAX_LIFETIME_MS = 900_000;
/** Decoded output is cleaned and folded into the bounded buffer past this size. */
const FOLD_AT_CHARS = 64 * 1024;
/**
 * The session leader runs the command as a child and lingers briefly after
 * it ends. On Linux the leader's exit hangs the terminal up, and output still
 * queued for us (often the last lines, a crash's traceback) is discarded:
 * node-pty loses it (microsoft/node-pty#85, #726). The pause lets us read it.
 */
const LEADER_SCRIPT = 'bash -c "$1"; status=$?; sleep 0.1; exit "$status"';

interface Terminal {
  id: string;
  pid: number;
  pty: IPty;
  logFile: string;
  log: JobLog;
  decoder: StringDecoder;
  /** Decoded, not yet cleaned (may end inside an escape sequence). */
  raw: string;
  unread: BoundedText;
  lastOutputAt: number;
  /** Set as soon as the process ends: no more input is accepted. */
  ended: boolean;
  /** Set once the log is closed too; reads report the process as exited from then on. */
  exit?: TerminalExit;
  /** Why yuj stopped it, when yuj did: the exit then reports this reason. */
  stopReason?: TerminalEndReason;
  exited: Promise<void>;
  /** Runs inside the sandbox: its commands are followed by a check of the project's repositories. */
  confined: boolean;
  /** Things undone since the last read, for the next one. */
  undone: string[];
}

type PtyModule = typeof import("@lydell/node-pty");
let ptyModule: Promise<PtyModule> | undefined;

// Loaded on the first terminal_start only: it is a native module and most
// sessions never open a terminal. The package is CommonJS; Node's ESM loader
// gives its exports object as `default` (and usually as named exports too).
function loadPty(): Promise<PtyModule> {
  ptyModule ??= import("@lydell/node-pty").then(
    (m) => (m as PtyModule & { default?: PtyModule }).default ?? m,
  );
  return ptyModule;
}

export function createTerminalManager(opts: TerminalManagerOptions): TerminalManager {
  const clock = opts.clock ?? systemClock;
  const maxInputChars = opts.maxInputChars ?? DEFAULT_MAX_INPUT_CHARS;
  const maxLifetimeMs = opts.maxLifetimeMs ?? DEFAULT_MAX_LIFETIME_MS;
  const previewBytes = opts.outputPreviewBytes ?? 16384;
  const baseEnv = opts.env ?? commandEnv(process.env);
  const terminals = new Map<string, Terminal>();
  let live: Terminal | undefined;
  const nextId = logIdAllocator(path.join(opts.sessionDir, "terminal"), "t");

  const fold = (t: Terminal) => {
    // Once the process is gone nothing can complete a partial sequence.
    const [ready, carry] = t.exit ? [t.raw + t.decoder.end(), ""] : splitPartialTail(t.raw);
    t.unread.push(modelText(ready));
    t.raw = carry;
  };

  const read = (t: Terminal): TerminalRead => {
    fold(t);
    const { text, omittedBytes } = t.unread.take();
    const status: TerminalStatus = t.exit ? { state: "exited", ...t.exit } : { state: "running" };
    const undone = t.undone.splice(0);
    const notice = undone.length ? { repoNotice: repoNoticeText(undone) } : {};
    return { terminalId: t.id, pid: t.pid, text, omittedBytes, status, logFile: t.logFile, ...notice };
  };

  /**
   * The terminal's programs are sandboxed commands too: after each exchange,
   * and when it exits, what they planted in the project's repositories is
   * undone, and the next read says so.
   */
  const checkRepos = async (t: Terminal): Promise<void> => {
    if (!t.confined || !opts.sandbox) return;
    let undone: string[];
    try {
      undone = await opts.sandbox.afterCommand();
    } catch (err) {
      undone = [`checking the project's git repositories failed: ${(err as Error).message}`];
    }
    if (undone.length === 0) return;
    t.undone.push(...undone);
    opts.emit({ type: "notice", level: "warning", text: `terminal ${t.id}: ${repoNoticeText(undone)}` });
  };

  /** The read at the end of every exchange, after the check. */
  const answer = async (t: Terminal): Promise<TerminalOutcome> => {
    await checkRepos(t);
    return { ok: true, read: read(t) };
  };

  /** Waits until output has been quiet for `quietMs` after some arrived, the process exits, or the time is up. */
  const settle = async (t: Terminal, timeoutMs: number, quietMs: number, signal?: AbortSignal) => {
    const deadline = clock.now() + timeoutMs;
    for (;;) {
      if (t.exit) return "exited";
      const now = clock.now();
      const hasOutput = t.raw.length > 0 || t.unread.size > 0;
      if (hasOutput && now - t.lastOutputAt >= quietMs) return "settled";
      if (now >= deadline) return "timeout";
      try {
        await clock.sleep(Math.min(POLL_MS, deadline - now), signal);
      } catch {
        return "cancelled";
      }
    }
  };

  const stop = async (t: Terminal, reason: TerminalEndReason) => {
    if (t.exit) return;
    t.stopReason ??= reason;
    await killSession(t.pid, clock);
    await Promise.race([t.exited, clock.sleep(EXIT_WAIT_MS)]);
  };

  const start = async (command: string, cwd: string): Promise<TerminalOutcome> => {
    if (live) {
      return { ok: false, error: `a terminal is already running (terminal_id ${live.id}); stop it with terminal_io terminate=true first` };
    }
    let pty: PtyModule;
    try {
      pty = await loadPty();
    } catch (err) {
      return { ok: false, error: `interactive terminals are not available: ${(err as Error).message}` };
    }
    // Checked again: another start may have won while the module loaded.
    if (live) return start(command, cwd);
    // The leader script runs inside the sandbox too: bwrap leads the PTY's
    // session, and killSession() signals every group in it, as before.
    const argv = ["bash", "-c", LEADER_SCRIPT, "yuj-terminal", command];
    const env = { ...baseEnv, ...opts.escapees?.env() };
    const wrapped = opts.sandbox?.wrapArgv(argv, cwd, env);
    if (wrapped && "error" in wrapped) return { ok: false, error: unavailableMessage(wrapped.error) };
    opts.escapees?.started(opts.sandbox?.active === true);
    const notice = opts.sandbox?.takeNotice();
    if (notice) opts.emit({ type: "notice", level: "warning", text: notice });
    const id = nextId();
    const dir = path.join(opts.sessionDir, "terminal");
    const logFile = path.join(dir, `${id}.log`);
    let proc: IPty;
    let log: JobLog | undefined;
    try {
      fs.mkdirSync(dir, { recursive: true });
      // Its writes never throw: a full disk must not take the session down.
      log = new JobLog(logFile, { maxBytes: opts.maxLogBytes ?? DEFAULT_MAX_LOG_BYTES, secrets: opts.secrets ?? [] });
      proc = pty.spawn(wrapped?.file ?? argv[0]!, wrapped?.args ?? argv.slice(1), {
        name: "xterm-256color",
        cols: COLS,
        rows: ROWS,
        cwd,
        env: { ...(wrapped?.env ?? env), TERM: "xterm-256color" },
        // Raw bytes: the log keeps exactly what the program wrote, and a UTF-8
        // character split across reads is joined by our own decoder.
        encoding: null,
      });
    } catch (err) {
      log?.end();
      return { ok: false, error: `failed to start the terminal: ${(err as Error).message}` };
    }
    let markExited!: () => void;
    const t: Terminal = {
      id,
      pid: proc.pid,
      pty: proc,
      logFile,
      log: log!,
      decoder: new StringDecoder("utf8"),
      raw: "",
      unread: new BoundedText(previewBytes),
      lastOutputAt: clock.now(),
      ended: false,
      exited: new Promise<void>((resolve) => (markExited = resolve)),
      confined: wrapped !== undefined && opts.sandbox?.active === true,
      undone: [],
    };
    terminals.set(id, t);
    live = t;
    // A terminal nobody stops would otherwise hold its one slot all session.
    const lifetime = clockTimer(clock, maxLifetimeMs, () => void stop(t, "lifetime_timeout"), { unref: true });
    opts.emit({ type: "terminal_started", terminalId: id, command, pid: proc.pid });

    proc.onData((data: string | Buffer) => {
      const bytes = typeof data === "string" ? Buffer.from(data) : data;
      t.log.append(bytes);
      t.raw += t.decoder.write(bytes);
      t.lastOutputAt = clock.now();
      if (t.raw.length > FOLD_AT_CHARS) fold(t);
    });
    // node-pty throws a PTY read error it does not expect unless someone else
    // listens for it; a broken terminal must not take the session down.
    (proc as unknown as NodeJS.EventEmitter).on("error", () => undefined);
    proc.onExit(async ({ exitCode, signal }) => {
      t.ended = true;
      // The log is complete on disk before anyone is told the process ended.
      t.log.end();
      const signalName = signal ? nameOfSignal(signal) : null;
      lifetime.cancel();
      t.exit = { exitCode: signalName ? null : exitCode, signal: signalName, reason: t.stopReason ?? "process_exit" };
      if (live === t) live = undefined;
      opts.emit({ type: "terminal_exited", terminalId: id, exitCode: t.exit.exitCode, signal: t.exit.signal });
      markExited();
      // Whatever the program left behind in its session (`cmd &` in a shell)
      // would otherwise outlive the terminal nobody can reach any more.
      void killSession(t.pid, clock);
      void checkRepos(t);
    });

    await settle(t, START_WAIT_MS, START_QUIET_MS);
    return answer(t);
  };

  const io = async (terminalId: string, req: TerminalIoRequest): Promise<TerminalOutcome> => {
    const t = terminals.get(terminalId);
    if (!t) {
      const hint = live ? `the live terminal is ${live.id}` : "no terminal is running; start one with terminal_start";
      return { ok: false, error: `unknown terminal_id "${terminalId}" (${hint})` };
    }
    if (req.terminate && req.input !== undefined) {
      return { ok: false, error: "cannot send input and terminate in one call; send the input first, then call terminal_io with terminate=true alone" };
    }
    if (req.terminate) {
      await stop(t, "explicit");
      return answer(t);
    }
    if (req.input !== undefined) {
      const inputChars = [...req.input].length;
      if (inputChars > maxInputChars) {
        return { ok: false, error: `input is ${inputChars} characters, over the ${maxInputChars}-character limit; nothing was sent. Send it in smaller parts` };
      }
      if (t.ended) {
        const how = t.exit ? ` (${statusText({ state: "exited", ...t.exit })})` : "";
        return { ok: false, error: `terminal ${t.id} has exited${how}; nothing was sent` };
      }
      const payload = req.input + (req.appendNewline === false ? "" : "\r");
      t.pty.write(payload);
      // The trace keeps evidence of what was typed (hash and size of the exact
      // bytes written, Enter included) without keeping the text itself.
      const sha256 = createHash("sha256").update(payload, "utf8").digest("hex");
      opts.emit({ type: "terminal_input", terminalId: t.id, sha256, bytes: Buffer.byteLength(payload, "utf8") });
    }
    const outcome = await settle(t, req.timeoutMs, IO_QUIET_MS, req.signal);
    if (outcome === "cancelled") {
      return { ok: false, error: `cancelled; terminal ${t.id} keeps running and its output stays unread` };
    }
    return answer(t);
  };

  return {
    start,
    io,
    liveId: () => live?.id,
    async shutdown() {
      if (live) await stop(live, "session_end");
    },
  };
}

/** `running`, `exited (N; reason=R)` or `exited (signal SIGX; reason=R)`. */
export function statusText(status: TerminalStatus): string {
  if (status.state === "running") return "running";
  const how = status.signal ? `signal ${status.signal}` : `${status.exitCode ?? "unknown"}`;
  return `exited (${how}; reason=${status.reason})`;
}
