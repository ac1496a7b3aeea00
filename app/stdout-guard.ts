// Headless output to a reader that may go away (`yuj code … | head`). A
// closed pipe makes every later write fail with EPIPE, reported as an
// 'error' event that would otherwise end the process with a stack trace and
// no saved status. Here it is noticed once, the writes stop, and the run is
// told, so it can stop and save its status like any other failed run.

export interface GuardedStdout {
  write(text: string): void;
  /** Why stdout is closed, once it is. */
  closed(): string | undefined;
}

export function guardStdout(onClosed: (reason: string) => void): GuardedStdout {
  let closed: string | undefined;
  // Nothing more can be said where stderr is closed too; it must not crash the run.
  process.stderr.on("error", () => undefined);
  // Kept for the life of the process: writes still queued fail later too.
  process.stdout.on("error", (err: NodeJS.ErrnoException) => {
    if (closed !== undefined) return;
    closed = err.code === "EPIPE" ? "stdout was closed by its reader (EPIPE)" : `stdout failed: ${err.message}`;
    onClosed(closed);
  });
  return {
    write(text) {
      if (closed === undefined) process.stdout.write(text);
    },
    closed: () => closed,
  };
}
