// The session's language servers, a session service beside the job manager:
// a server starts the first time a file it serves needs it, one process per
// server and project root, is reused after that, is stopped after
// [lsp].idle_timeout_s without use, and is stopped when the session ends,
// however it ends (the exit hooks reach it like the jobs; after a SIGKILL of
// yuj the next start finds it through the same running pointer and marker).
// Every state change is an `lsp_server` event, which the side panel shows.

import * as fs from "node:fs";
import * as path from "node:path";
import type { Emit } from "../events.js";
import { clockTimer, systemClock, type Clock } from "../services.js";
import type { Sandbox } from "../sandbox/index.js";
import { EscapeWatch, killMarkedSync, stopMarked } from "../jobs/escapees.js";
import { OrphanRegistry, selfIdentity } from "../jobs/orphans.js";
import { effectiveServers, serverForFile, type LspServerConfig, type LspSettings } from "./config.js";
import { spawnServer, type ServerProcess } from "./process.js";
import type { CheckedDiagnostics, LspClient, Wait } from "./client.js";

type LspServerState = "starting" | "ready" | "failed" | "stopped";

export interface LspManagerOptions {
  settings: LspSettings;
  /** The project: roots never lie above it. */
  projectDir: string;
  sessionDir: string;
  /** Enables the running pointer that lets the next yuj end servers a SIGKILL left. */
  stateDir?: string;
  /** The commands' environment (secrets left out). */
  env: Record<string, string>;
  sandbox?: Sandbox;
  /** Where a bare server program is looked for before PATH (yuj's own node_modules/.bin). */
  searchDirs: readonly string[];
  emit: Emit;
  clock?: Clock;
}

/** What a file's server says, or why it says nothing. */
export type LspAnswer<T> =
  | { kind: "ok"; server: string; value: T; ms: number }
  | { kind: "timeout"; server: string; ms: number }
  | { kind: "failed"; server: string; reason: string }
  | { kind: "cancelled"; server: string }
  | { kind: "none" };

export interface LspService {
  readonly servers: readonly LspServerConfig[];
  /** The server configured for a file, when there is one. */
  serverFor(file: string): LspServerConfig | undefined;
  /** The diagnostics of `file` with `text` as its content (the server started first when needed). */
  diagnostics(file: string, text: string, signal?: AbortSignal): Promise<LspAnswer<CheckedDiagnostics>>;
  /** One request about a position or the whole of `file`, with `text` open. */
  query<T>(file: string, text: string, method: string, params: object, signal?: AbortSignal): Promise<LspAnswer<T>>;
  shutdown(): Promise<void>;
  /** SIGKILL to every server, synchronously (process 'exit'). */
  killAllSync(): void;
}

interface Entry {
  key: string;
  server: LspServerConfig;
  root: string;
  proc?: ServerProcess;
  starting?: Promise<LspClient | { error: string }>;
  client?: LspClient;
  idle?: { cancel(): void };
}

const STOP_GRACE_MS = 2000;
const SHUTDOWN_REQUEST_MS = 1500;

export function createLspManager(opts: LspManagerOptions): LspService {
  const clock = opts.clock ?? systemClock;
  const servers = effectiveServers(opts.settings.servers);
  const timeoutMs = opts.settings.timeout_s * 1000;
  const entries = new Map<string, Entry>();
  // A server that could not start (not installed, a bad command) is not tried
  // again on every edit; one that ran and then ended is.
  const failedStarts = new Map<string, string>();
  const registry = new OrphanRegistry(path.join(opts.sessionDir, "lsp"), opts.stateDir);
  const watch = new EscapeWatch();
  watch.onArmed(() => registry.keepMarker(watch.marker));
  const self = selfIdentity();
  let closed = false;

  const emitState = (e: Entry, state: LspServerState, detail?: string) =>
    opts.emit({
      type: "lsp_server",
      server: e.server.name,
      root: e.root,
      state,
      ...(e.proc?.pid ? { pid: e.proc.pid } : {}),
      ...(detail !== undefined ? { detail } : {}),
    });

  const saveRegistry = () =>
    registry.write(
      [...entries.values()]
        .filter((e) => e.proc && e.proc.exit === undefined && e.proc.pid > 1)
        .map((e) => ({
          jobId: `lsp:${e.server.name}`,
          pgid: e.proc!.pid,
          ...(e.proc!.startTime !== undefined ? { leaderStartTime: e.proc!.startTime } : {}),
          members: [],
          command: e.server.command.join(" "),
          ...self,
        })),
    );

  function touch(e: Entry): void {
    e.idle?.cancel();
    // Unref'd: a server waiting to be stopped for idleness does not keep yuj running.
    e.idle = clockTimer(clock, opts.settings.idle_timeout_s * 1000, () => void stop(e, "idle"), { unref: true });
  }

  async function stop(e: Entry, why: string): Promise<void> {
    e.idle?.cancel();
    entries.delete(e.key);
    const client = e.client ?? (await e.starting?.then((c) => ("error" in c ? undefined : c)));
    await client?.shutdown(SHUTDOWN_REQUEST_MS).catch(() => {});
    if (e.proc) await exitedWithin(e.proc, STOP_GRACE_MS);
    await e.proc?.stop(STOP_GRACE_MS, clock);
    saveRegistry();
    emitState(e, "stopped", why);
  }

  async function start(e: Entry): Promise<LspClient | { error: string }> {
    emitState(e, "starting");
    const proc = spawnServer({
      argv: e.server.command,
      cwd: e.root,
      env: { ...opts.env, ...watch.env() },
      ...(opts.sandbox ? { sandbox: opts.sandbox } : {}),
      searchDirs: opts.searchDirs,
    });
    if ("error" in proc) return { error: proc.error };
    e.proc = proc;
    watch.started(proc.sandboxed);
    saveRegistry();
    void proc.exited.then(() => {
      saveRegistry();
      // An end nobody asked for: the next use starts the server again.
      if (entries.get(e.key) === e && e.client) {
        entries.delete(e.key);
        e.idle?.cancel();
        emitState(e, "failed", e.client.broken ?? "the server ended");
      }
    });
    const { LspClient } = await import("./client.js");
    // Inside the sandbox's pid namespace yuj's pid means nothing; outside, the
    // server watches it and ends when yuj is gone.
    const processId = proc.sandboxed ? null : process.pid;
    const client = await LspClient.start({ server: e.server, root: e.root, proc, processId, clock }, timeoutMs);
    if ("error" in client) await proc.stop(STOP_GRACE_MS, clock);
    return client;
  }

  /** The running client for a file's server and root, started on first use. */
  async function clientFor(
    server: LspServerConfig,
    file: string,
    signal?: AbortSignal,
  ): Promise<{ entry: Entry; client: LspClient } | { error: string } | { cancelled: true }> {
    if (closed) return { error: "the session is ending" };
    const root = findRoot(file, server.rootMarkers, opts.projectDir);
    const key = `${server.name}\0${root}`;
    const failedBefore = failedStarts.get(key);
    if (failedBefore !== undefined) return { error: `${server.name} could not start earlier in this session: ${failedBefore}` };
    let e = entries.get(key);
    if (!e) {
      e = { key, server, root };
      entries.set(key, e);
    }
    const entry = e;
    if (!entry.client) {
      // One start serves every caller; a caller that cancels stops waiting, not the start.
      entry.starting ??= start(entry).then((c) => {
        entry.starting = undefined;
        if ("error" in c) {
          entries.delete(key);
          failedStarts.set(key, c.error);
          emitState(entry, "failed", c.error);
        } else {
          entry.client = c;
          emitState(entry, "ready");
        }
        return c;
      });
      const started = await untilAborted(entry.starting, signal);
      if (started === undefined) return { cancelled: true };
      if ("error" in started) return { error: `${server.name} could not start: ${started.error}` };
    }
    touch(entry);
    return { entry, client: entry.client! };
  }

  async function ask<T>(file: string, signal: AbortSignal | undefined, work: (c: LspClient, leftMs: number) => Promise<Wait<T>>): Promise<LspAnswer<T>> {
    const server = serverForFile(servers, file)?.server;
    if (!server) return { kind: "none" };
    const began = clock.now();
    const got = await clientFor(server, file, signal);
    if ("cancelled" in got) return { kind: "cancelled", server: server.name };
    if ("error" in got) return { kind: "failed", server: server.name, reason: got.error };
    const left = Math.max(1, timeoutMs - (clock.now() - began));
    const w = await work(got.client, left);
    touch(got.entry);
    const ms = clock.now() - began;
    switch (w.kind) {
      case "ok":
        return { kind: "ok", server: server.name, value: w.value, ms };
      case "timeout":
        return { kind: "timeout", server: server.name, ms };
      case "cancelled":
        return { kind: "cancelled", server: server.name };
      case "failed":
        return { kind: "failed", server: server.name, reason: w.reason };
    }
  }

  const languageOf = (file: string) => serverForFile(servers, file)?.languageId ?? "plaintext";

  return {
    servers,
    serverFor: (file) => serverForFile(servers, file)?.server,
    diagnostics: (file, text, signal) => ask(file, signal, (c, left) => c.diagnostics(file, languageOf(file), text, left, signal)),
    query: <T>(file: string, text: string, method: string, params: object, signal?: AbortSignal) =>
      ask<T>(file, signal, (c, left) => c.query<T>(file, languageOf(file), text, method, params, left, signal)),

    async shutdown() {
      closed = true;
      await Promise.all([...entries.values()].map((e) => stop(e, "session end")));
      if (watch.armed) {
        await stopMarked(watch.marker, STOP_GRACE_MS, clock);
        watch.disarm();
        registry.dropMarker();
      }
      registry.removePointer();
    },

    killAllSync() {
      closed = true;
      for (const e of entries.values()) e.proc?.killSync();
      if (watch.armed) killMarkedSync(watch.marker);
      registry.write([]);
      registry.removePointer();
    },
  };
}

/** Waits for the process to end by itself, at most `ms` (a timer that does not outlive the wait). */
function exitedWithin(proc: ServerProcess, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    void proc.exited.then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** `work`'s value, or undefined once `signal` fires first. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T | undefined> {
  if (!signal) return work;
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise<T | undefined>((resolve) => {
    const onAbort = () => resolve(undefined);
    signal.addEventListener("abort", onAbort, { once: true });
    void work.then((v) => {
      signal.removeEventListener("abort", onAbort);
      resolve(v);
    });
  });
}

/** The nearest directory from the file's up to the project holding one of the markers; the project itself otherwise. */
export function findRoot(file: string, markers: readonly string[], projectDir: string): string {
  const project = path.resolve(projectDir);
  let dir = path.dirname(path.resolve(file));
  const inside = (d: string) => d === project || d.startsWith(project + path.sep);
  if (!inside(dir)) return project;
  for (;;) {
    if (markers.some((m) => fs.existsSync(path.join(dir, m)))) return dir;
    if (dir === project) return project;
    dir = path.dirname(dir);
  }
}
