// Process-level cleanup: whatever way yuj ends, the jobs end with it.
//   'exit'                          -> killAllSync() (only sync work runs there)
//   SIGINT / SIGTERM / SIGHUP       -> shutdown() with a bounded wait, then exit 128+n
//   uncaughtException / rejection   -> killAllSync(), print the error, exit 1
// Only a SIGKILL escapes all of this; orphans.ts covers that case.
//
// Composition: one set of handlers per process, shared by every manager that
// installs (sub-agents may have their own). The first install's options
// choose the handlers; later installs only add their manager. An app that
// already handles Ctrl+C itself (the headless CLI cancels its run on the
// first one) passes `signals: ["SIGTERM", "SIGHUP"]` and calls shutdown()
// when its run ends: a second Ctrl+C's process.exit() still reaches the
// 'exit' hook, so nothing survives either way. The pieces are exported too
// (shutdownAllJobs, killAllJobsSync) for apps that want to wire it all
// themselves.

/** Whatever owns processes that must end with yuj: the job manager, the language servers. */
export interface ProcessOwner {
  shutdown(): Promise<void>;
  killAllSync(): void;
}

type ExitSignal = "SIGINT" | "SIGTERM" | "SIGHUP";

export interface ExitHookOptions {
  /** Signals that trigger shutdown-then-exit; default all three. A signal left out gets no handler from here. */
  signals?: ExitSignal[];
  /**
   * Called with 130/143/129 once the shutdown finished, instead of
   * process.exit(code). The app may exit itself, or keep running.
   */
  onSignalExit?: (code: number) => void;
  /** Bound on the graceful shutdown after a signal. Default 3000 ms. */
  shutdownTimeoutMs?: number;
  /** Also take over uncaughtException / unhandledRejection. Default true. */
  handleErrors?: boolean;
  /** Where fatal errors are printed; stderr by default. */
  writeError?: (text: string) => void;
}

const EXIT_CODES: Record<ExitSignal, number> = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 };

const managers = new Set<ProcessOwner>();
let removeHandlers: (() => void) | undefined;

/** SIGKILL every live group of every registered manager. Safe inside 'exit'. */
function killAllJobsSync(): void {
  for (const manager of managers) {
    try {
      manager.killAllSync();
    } catch {
      // keep going: the other managers' jobs must die too
    }
  }
}

/** Graceful shutdown of every registered manager, bounded by `timeoutMs`; then SIGKILL what is left. */
async function shutdownAllJobs(timeoutMs = 3000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, timeoutMs);
  });
  const all = Promise.all([...managers].map((m) => m.shutdown().catch(() => {})));
  await Promise.race([all, bound]);
  clearTimeout(timer);
  killAllJobsSync();
}

function install(opts: ExitHookOptions): () => void {
  const signals = opts.signals ?? ["SIGINT", "SIGTERM", "SIGHUP"];
  const write = opts.writeError ?? ((text: string) => void process.stderr.write(text));
  let stopping = false;

  const onExit = () => killAllJobsSync();
  const onSignal = (signal: ExitSignal) => {
    const code = EXIT_CODES[signal];
    // A second signal while shutting down means "now": no more waiting.
    if (stopping) {
      killAllJobsSync();
      process.exit(code);
    }
    stopping = true;
    void shutdownAllJobs(opts.shutdownTimeoutMs).then(() => {
      stopping = false;
      if (opts.onSignalExit) opts.onSignalExit(code);
      else process.exit(code);
    });
  };
  const onError = (err: unknown) => {
    killAllJobsSync();
    const text = err instanceof Error ? (err.stack ?? err.message) : String(err);
    write(`yuj: fatal: ${text}\n`);
    process.exit(1);
  };

  const signalHandlers = signals.map((s) => [s, () => onSignal(s)] as const);
  process.on("exit", onExit);
  for (const [s, handler] of signalHandlers) process.on(s, handler);
  const handleErrors = opts.handleErrors ?? true;
  if (handleErrors) {
    process.on("uncaughtException", onError);
    process.on("unhandledRejection", onError);
  }
  return () => {
    process.off("exit", onExit);
    for (const [s, handler] of signalHandlers) process.off(s, handler);
    if (handleErrors) {
      process.off("uncaughtException", onError);
      process.off("unhandledRejection", onError);
    }
  };
}

/**
 * Registers `manager` with the process-wide handlers, installing them on
 * first use. The returned function unregisters it, and removes the handlers
 * once no manager is left.
 */
export function installExitHooks(manager: ProcessOwner, opts: ExitHookOptions = {}): () => void {
  managers.add(manager);
  removeHandlers ??= install(opts);
  let done = false;
  return () => {
    if (done) return;
    done = true;
    managers.delete(manager);
    if (managers.size === 0 && removeHandlers) {
      removeHandlers();
      removeHandlers = undefined;
    }
  };
}
