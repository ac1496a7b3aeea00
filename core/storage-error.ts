// The error every failed write of a session's files raises (state, metadata,
// conversation log, trace): the run that meets it stops, and the user is told
// which file, why, and what to do, in one line.

/** What to do about a failed write; every step saved before it is kept. */
const STORAGE_ADVICE =
  "Free disk space or fix the directory's permissions; every step before this one is saved and `yuj resume` continues from there";

export class StateWriteError extends Error {
  override name = "StateWriteError";
  /** What failed and the system's reason, without the advice. */
  readonly short: string;
  constructor(what: string, cause: unknown) {
    const short = `${what}: ${cause instanceof Error ? cause.message : String(cause)}`;
    super(`${short}. ${STORAGE_ADVICE}`);
    this.short = short;
  }
}
