// One started language server and the protocol spoken with it, over
// vscode-jsonrpc (framing, request ids, cancellation and the answers to the
// server's own requests are the library's; what yuj adds is the order of
// messages, below).
//
// Diagnostics for exactly the text yuj has: every check opens the document
// fresh (didOpen with a new version) and closes it afterwards. A server
// always publishes for a document it has just opened, even when nothing is
// wrong, whereas after a didChange some servers (typescript-language-server)
// publish nothing when the diagnostics did not change. The publication that
// answers is the one that names this version; a server that names no
// versions (typescript-language-server again) is answered by its first
// publication for the file after a barrier: a request sent between the last
// close and the new open, which the server must answer (unknown `$/`
// requests get MethodNotFound) before it reads the open. Whatever the close
// made the server publish arrives before that answer and is passed over.

import { pathToFileURL } from "node:url";
import rpc from "vscode-jsonrpc/node";
import type { Message, MessageConnection } from "vscode-jsonrpc/node";
import type { LspServerConfig } from "./config.js";
import type { Diagnostic, PublishDiagnosticsParams } from "./protocol.js";
import type { ServerProcess } from "./process.js";
import { clockTimer, systemClock, type Clock } from "../services.js";

export type Wait<T> = { kind: "ok"; value: T } | { kind: "timeout" } | { kind: "cancelled" } | { kind: "failed"; reason: string };

interface DiagnosticsWaiter {
  uri: string;
  version: number;
  /** Past the barrier: a publication without a version counts. */
  open: boolean;
  /** The quiet window after the latest unversioned publication, while it runs. */
  quiet?: { cancel(): void };
  resolve(r: { diagnostics: Diagnostic[]; versioned: boolean }): void;
}

/**
 * How long an unversioned publication is held in case a fuller one follows:
 * typescript-language-server publishes syntax diagnostics first and the
 * semantic ones once its program is built, which on a loaded machine is a
 * separate publication well after the first. The round takes the last one
 * before this much silence.
 */
const PUBLICATION_QUIET_MS = 400;

/** A file's diagnostics; `settled` is false when the time ran out before the server confirmed them. */
export interface CheckedDiagnostics {
  diagnostics: Diagnostic[];
  settled: boolean;
}

export interface ClientOptions {
  server: LspServerConfig;
  root: string;
  proc: ServerProcess;
  /** initialize's processId: the server ends itself when that process is gone. Null inside the sandbox's pid namespace. */
  processId: number | null;
  /** What the request timeouts count on (default the system's). */
  clock?: Clock;
}

const BARRIER_METHOD = "$/yuj/sync";

/** Sees every message in the order it arrived, before the connection dispatches it; `observe` false keeps it. */
class ObservedReader extends rpc.StreamMessageReader {
  constructor(
    readable: NodeJS.ReadableStream,
    private readonly observe: (m: Message) => boolean,
  ) {
    super(readable);
  }

  override listen(callback: (m: Message) => void) {
    return super.listen((m) => {
      if (this.observe(m)) callback(m);
    });
  }
}

export class LspClient {
  readonly server: LspServerConfig;
  readonly root: string;
  readonly proc: ServerProcess;
  private readonly clock: Clock;
  private readonly conn: MessageConnection;
  private readonly writer: InstanceType<typeof rpc.StreamMessageWriter>;
  private readonly waiters = new Set<DiagnosticsWaiter>();
  private readonly barriers = new Map<string, () => void>();
  private readonly versions = new Map<string, number>();
  private barrierCount = 0;
  private queue: Promise<unknown> = Promise.resolve();
  private failure: string | undefined;
  private readonly failListeners = new Set<(reason: string) => void>();

  private constructor(opts: ClientOptions) {
    this.server = opts.server;
    this.root = opts.root;
    this.proc = opts.proc;
    this.clock = opts.clock ?? systemClock;
    const { child } = opts.proc;
    this.writer = new rpc.StreamMessageWriter(child.stdin!);
    this.conn = rpc.createMessageConnection(new ObservedReader(child.stdout!, (m) => this.observe(m)), this.writer);
    this.conn.onRequest((method, params) => this.answer(method, params));
    this.conn.onNotification(() => {});
    this.conn.onError(() => {});
    void opts.proc.exited.then((exit) => {
      const how = exit.signal ? `signal ${exit.signal}` : `exit code ${exit.code}`;
      const tail = opts.proc.stderrTail();
      this.fail(`the server ended (${how})${tail ? `: ${lastLines(tail, 6)}` : ""}`);
    });
    this.conn.listen();
  }

  /** Starts the protocol on a running process: initialize, then initialized. */
  static async start(opts: ClientOptions, timeoutMs: number, signal?: AbortSignal): Promise<LspClient | { error: string }> {
    const client = new LspClient(opts);
    const rootUri = pathToFileURL(opts.root).href;
    const init = client.request<unknown>(
      "initialize",
      {
        processId: opts.processId,
        clientInfo: { name: "yuj" },
        rootUri,
        rootPath: opts.root,
        workspaceFolders: [{ uri: rootUri, name: opts.root.split("/").pop() || opts.root }],
        initializationOptions: opts.server.initializationOptions,
        capabilities: {
          general: { positionEncodings: ["utf-16"] },
          textDocument: {
            synchronization: { dynamicRegistration: false, didSave: false },
            publishDiagnostics: { versionSupport: true },
            definition: { linkSupport: true },
            references: {},
            documentSymbol: { hierarchicalDocumentSymbolSupport: true },
          },
          workspace: { configuration: true, workspaceFolders: true },
        },
      },
      timeoutMs,
      signal,
    );
    const outcome = await init;
    if (outcome.kind !== "ok") {
      client.dispose();
      const reason = outcome.kind === "timeout" ? `no answer to initialize within ${Math.round(timeoutMs / 1000)} s` : outcome.kind === "cancelled" ? "cancelled" : outcome.reason;
      return { error: reason };
    }
    await client.conn.sendNotification("initialized", {});
    return client;
  }

  /** Set once the server ended or the connection broke. */
  get broken(): string | undefined {
    return this.failure;
  }

  /**
   * The diagnostics the server publishes for `text` as the content of `file`.
   * A publication that names its version answers at once. One that names
   * none may be part of the answer only: typescript-language-server
   * publishes syntax, semantic and suggestion diagnostics as each is ready,
   * and on a cold start the first comes seconds before the others. So the
   * text is checked again, as long as the time allows, until two rounds in
   * a row publish the same diagnostics: a server still working on the file
   * publishes something new; one that has finished repeats itself.
   */
  diagnostics(file: string, languageId: string, text: string, timeoutMs: number, signal?: AbortSignal): Promise<Wait<CheckedDiagnostics>> {
    return this.exclusive(async () => {
      const uri = pathToFileURL(file).href;
      const deadline = this.clock.now() + timeoutMs;
      let previous: Diagnostic[] | undefined;
      for (;;) {
        const round = await this.publishedFor(uri, languageId, text, Math.max(1, deadline - this.clock.now()), signal);
        if (round.kind !== "ok") {
          // Out of time after a round that did answer: that answer, said to be unconfirmed.
          if (round.kind === "timeout" && previous !== undefined) return { kind: "ok", value: { diagnostics: previous, settled: false } };
          return round;
        }
        const { diagnostics, versioned } = round.value;
        if (versioned || (previous !== undefined && sameDiagnostics(previous, diagnostics))) {
          return { kind: "ok", value: { diagnostics, settled: true } };
        }
        previous = diagnostics;
      }
    });
  }

  /** One round: open `text` as a new version, wait for its publication, close it again. */
  private async publishedFor(uri: string, languageId: string, text: string, timeoutMs: number, signal?: AbortSignal): Promise<Wait<{ diagnostics: Diagnostic[]; versioned: boolean }>> {
    const version = (this.versions.get(uri) ?? 0) + 1;
    this.versions.set(uri, version);
    let resolve!: (r: { diagnostics: Diagnostic[]; versioned: boolean }) => void;
    const published = new Promise<{ diagnostics: Diagnostic[]; versioned: boolean }>((r) => (resolve = r));
    const waiter: DiagnosticsWaiter = { uri, version, open: false, resolve };
    this.waiters.add(waiter);
    try {
      void this.barrier().then(() => (waiter.open = true));
      await this.conn.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId, version, text } });
      return await this.race(published, timeoutMs, signal);
    } finally {
      waiter.quiet?.cancel();
      this.waiters.delete(waiter);
      await this.close(uri);
    }
  }

  /** A request about `file` with `text` open for its duration. */
  query<T>(file: string, languageId: string, text: string, method: string, params: object, timeoutMs: number, signal?: AbortSignal): Promise<Wait<T>> {
    return this.exclusive(async () => {
      const uri = pathToFileURL(file).href;
      const version = (this.versions.get(uri) ?? 0) + 1;
      this.versions.set(uri, version);
      try {
        await this.conn.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId, version, text } });
        return await this.request<T>(method, { textDocument: { uri }, ...params }, timeoutMs, signal);
      } finally {
        await this.close(uri);
      }
    });
  }

  /** The protocol's orderly end: shutdown, then exit; the caller ends the process if it lingers. */
  async shutdown(timeoutMs: number): Promise<void> {
    if (!this.failure) {
      const done = await this.request("shutdown", undefined, timeoutMs);
      if (done.kind === "ok") await this.conn.sendNotification("exit").catch(() => {});
    }
    this.dispose();
  }

  dispose(): void {
    this.fail("the server was stopped");
    this.conn.dispose();
  }

  /** From now on every wait ends with `reason`; the first reason stays. */
  private fail(reason: string): void {
    this.failure ??= reason;
    for (const listener of [...this.failListeners]) listener(this.failure);
  }

  private async close(uri: string): Promise<void> {
    if (this.failure) return;
    await this.conn.sendNotification("textDocument/didClose", { textDocument: { uri } }).catch(() => {});
  }

  private request<T>(method: string, params: unknown, timeoutMs: number, signal?: AbortSignal): Promise<Wait<T>> {
    if (this.failure) return Promise.resolve({ kind: "failed", reason: this.failure });
    const cancel = new rpc.CancellationTokenSource();
    const sent = this.conn.sendRequest<T>(method, params, cancel.token).then(
      (value): Wait<T> => ({ kind: "ok", value }),
      (err: unknown): Wait<T> => ({ kind: "failed", reason: this.failure ?? `${method} failed: ${(err as Error).message}` }),
    );
    return this.race(sent, timeoutMs, signal).then((w) => {
      if (w.kind === "timeout" || w.kind === "cancelled") cancel.cancel();
      cancel.dispose();
      return w.kind === "ok" ? (w.value as Wait<T>) : w;
    });
  }

  /** `work`'s value, or why there is none: the time ran out, the caller cancelled, the server ended. */
  private race<T>(work: Promise<T>, timeoutMs: number, signal?: AbortSignal): Promise<Wait<T>> {
    return new Promise<Wait<T>>((resolve) => {
      if (signal?.aborted) return resolve({ kind: "cancelled" });
      if (this.failure) return resolve({ kind: "failed", reason: this.failure });
      const finish = (w: Wait<T>) => {
        timer.cancel();
        signal?.removeEventListener("abort", onAbort);
        this.failListeners.delete(onFail);
        resolve(w);
      };
      const timer = clockTimer(this.clock, timeoutMs, () => finish({ kind: "timeout" }));
      const onAbort = () => finish({ kind: "cancelled" });
      const onFail = (reason: string) => finish({ kind: "failed", reason });
      signal?.addEventListener("abort", onAbort, { once: true });
      this.failListeners.add(onFail);
      work.then((value) => finish({ kind: "ok", value }), (err: unknown) => finish({ kind: "failed", reason: String(err) }));
    });
  }

  /** Resolves once the server has read everything sent before it. */
  private barrier(): Promise<void> {
    const id = `yuj-sync-${++this.barrierCount}`;
    const passed = new Promise<void>((resolve) => this.barriers.set(id, resolve));
    void this.writer.write({ jsonrpc: "2.0", id, method: BARRIER_METHOD } as Message).catch(() => {});
    return passed;
  }

  /** Runs document work one at a time: a file is never opened twice at once. */
  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Reader hook: barrier answers and diagnostics are taken here, in arrival order. Returns whether to pass the message on. */
  private observe(m: Message): boolean {
    const msg = m as { id?: unknown; method?: string; params?: unknown };
    if (msg.method === undefined && typeof msg.id === "string" && this.barriers.has(msg.id)) {
      this.barriers.get(msg.id)!();
      this.barriers.delete(msg.id);
      return false;
    }
    if (msg.method === "textDocument/publishDiagnostics") {
      this.published(msg.params as PublishDiagnosticsParams);
      return false;
    }
    return true;
  }

  private published(p: PublishDiagnosticsParams): void {
    for (const w of this.waiters) {
      if (w.uri !== p.uri) continue;
      const versioned = typeof p.version === "number";
      const diagnostics = Array.isArray(p.diagnostics) ? p.diagnostics : [];
      if (versioned) {
        if (p.version === w.version) w.resolve({ diagnostics, versioned });
      } else if (w.open) {
        w.quiet?.cancel();
        w.quiet = clockTimer(this.clock, PUBLICATION_QUIET_MS, () => w.resolve({ diagnostics, versioned }));
      }
    }
  }

  /** The server's requests of yuj. */
  private answer(method: string, params: unknown): unknown {
    switch (method) {
      case "workspace/configuration": {
        // No settings of our own: every section gets the server's defaults.
        const items = (params as { items?: unknown[] } | undefined)?.items ?? [];
        return items.map(() => null);
      }
      case "workspace/workspaceFolders": {
        const uri = pathToFileURL(this.root).href;
        return [{ uri, name: this.root.split("/").pop() || this.root }];
      }
      case "client/registerCapability":
      case "client/unregisterCapability":
      case "window/workDoneProgress/create":
      case "window/showMessageRequest":
        return null;
      case "workspace/applyEdit":
        return { applied: false, failureReason: "yuj does not let a language server change files" };
      default:
        return new rpc.ResponseError(rpc.ErrorCodes.MethodNotFound, `yuj does not handle ${method}`);
    }
  }
}

function sameDiagnostics(a: readonly Diagnostic[], b: readonly Diagnostic[]): boolean {
  const key = (d: Diagnostic) => `${d.range.start.line}:${d.range.start.character}:${d.severity ?? ""}:${d.code ?? ""}:${d.message}`;
  const ka = a.map(key).sort();
  const kb = b.map(key).sort();
  return ka.length === kb.length && ka.every((k, i) => k === kb[i]);
}

function lastLines(text: string, n: number): string {
  return text.split("\n").slice(-n).join(" | ");
}
