// SIGINT and SIGTERM during a run: the first cancels it cleanly (the loop
// ends, every job is stopped, the state is saved); a second leaves at once,
// and the exit hook still ends every job's process group on the way out.

const CODES = { SIGINT: 130, SIGTERM: 143 } as const;
type StopSignal = keyof typeof CODES;

export interface StopSignals {
  signal: AbortSignal;
  /** The exit status the signal asks for, once one arrived. */
  exitCode(): number | undefined;
  /** Stops the run for another reason (the output closed): the same cancellation, no signal's exit status. */
  stop(reason: Error): void;
  dispose(): void;
}

export function handleStopSignals(): StopSignals {
  const controller = new AbortController();
  let received: StopSignal | undefined;
  const on = (sig: StopSignal) => () => {
    if (received) process.exit(CODES[sig]);
    received = sig;
    controller.abort(new Error(sig === "SIGINT" ? "cancelled by the user" : "terminated"));
  };
  const onInt = on("SIGINT");
  const onTerm = on("SIGTERM");
  process.on("SIGINT", onInt);
  process.on("SIGTERM", onTerm);
  return {
    signal: controller.signal,
    exitCode: () => (received ? CODES[received] : undefined),
    stop: (reason) => controller.abort(reason),
    dispose() {
      process.off("SIGINT", onInt);
      process.off("SIGTERM", onTerm);
    },
  };
}
