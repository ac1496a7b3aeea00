// One process per session. A process that runs a session (a new task, a
// resume, an answer or approval, the terminal UI, a replay's new session)
// holds the session's lock for as long as it lives; a second one is refused
// with the pid of the first, so two processes never run (and repeat) the
// same steps.
//
// The lock is a unix socket bound to an abstract name made from the session
// folder's device and inode (so every path to the folder names the same
// lock). The kernel lets only one socket hold a name, and releases it the
// moment its process ends, however it ends (SIGKILL included): there is no
// stale lock to clean up, and no child process to keep alive. libuv opens it
// close-on-exec, so the commands yuj starts never inherit it. Abstract names
// belong to a network namespace: processes in different network namespaces
// (containers sharing one state directory) do not see each other's locks.
// Where there are no abstract sockets (not Linux), the pid file below alone
// is checked, which a reused pid can fool.
//
// `lock.pid` beside the session's files names the holder, for the message
// and for `yuj status`; the socket alone decides who holds the lock.

import { readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { basename, join } from "node:path";

const LOCK_PID_FILE = "lock.pid";

const ABSTRACT = process.platform === "linux";

/** Another process holds the session. */
export class SessionBusyError extends Error {
  override name = "SessionBusyError";
  constructor(
    readonly sessionId: string,
    /** The holder, when its pid file could be read. */
    readonly pid: number | undefined,
  ) {
    super(
      pid === undefined
        ? `session ${sessionId} is in use by another yuj process; wait for it to end`
        : `session ${sessionId} is in use by yuj process ${pid}; wait for it to end or stop it (kill ${pid}); ` +
            `\`yuj status ${sessionId}\` shows it meanwhile`,
    );
  }
}

export interface SessionLock {
  /** Lets the session go (the end of the process does the same). */
  release(): void;
}

/** Takes the lock of the session in `dir`; throws SessionBusyError when another process holds it. */
export async function lockSession(dir: string): Promise<SessionLock> {
  const id = basename(dir).replace(/^\.(.*)\.new$/, "$1");
  let server: Server | undefined;
  if (ABSTRACT) {
    server = await bind(lockName(dir)).catch(async (err: NodeJS.ErrnoException) => {
      if (err.code !== "EADDRINUSE") throw err;
      throw new SessionBusyError(id, await liveHolder(dir));
    });
  } else {
    const pid = holderPid(dir);
    if (pid !== undefined && pid !== process.pid && alive(pid)) throw new SessionBusyError(id, pid);
  }
  try {
    writeFileSync(join(dir, LOCK_PID_FILE), `${process.pid}\n`, { mode: 0o600 });
  } catch {
    // Only the message names the pid; a folder that cannot take the file fails the run's first save instead.
  }
  return {
    release() {
      server?.close();
      server = undefined;
    },
  };
}

/**
 * Answers "who runs this session?" without taking the lock: the holder's pid
 * (0 when it cannot be read), or undefined when no process holds it.
 * `listening` is the list of bound abstract names (readBoundNames), read once
 * for many sessions.
 */
export function sessionHolder(dir: string, listening: ReadonlySet<string> | undefined = readBoundNames()): number | undefined {
  if (listening) {
    let name: string;
    try {
      name = lockName(dir);
    } catch {
      return undefined; // the folder is gone
    }
    return listening.has(name.slice(1)) ? (holderPid(dir) ?? 0) : undefined;
  }
  const pid = holderPid(dir);
  return pid !== undefined && alive(pid) ? pid : undefined;
}

/** The abstract socket names bound in this network namespace, or undefined where that cannot be known. */
export function readBoundNames(): Set<string> | undefined {
  if (!ABSTRACT) return undefined;
  let table: string;
  try {
    table = readFileSync("/proc/net/unix", "utf8");
  } catch {
    return undefined;
  }
  const names = new Set<string>();
  // The last column is the path; an abstract one starts with "@", NULs shown as "@".
  for (const line of table.split("\n")) {
    const at = line.indexOf(" @");
    if (at >= 0) names.add(line.slice(at + 2).replace(/@+$/, ""));
  }
  return names;
}

// The leading NUL makes the name abstract: nothing is created on disk.
function lockName(dir: string): string {
  const { dev, ino } = statSync(dir);
  return `\0yuj-session:${dev}:${ino}`;
}

function bind(name: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer((socket) => socket.destroy());
    server.once("error", reject);
    server.listen({ path: name }, () => {
      server.off("error", reject);
      // The lock must not keep the process alive once its work is done.
      server.unref();
      resolve(server);
    });
  });
}

// How long a refused start waits for the new holder's pid file.
const HOLDER_WAIT_MS = 1000;

/**
 * The pid of the process that holds the lock now. A holder binds the lock
 * first and writes its pid just after, so a start refused in between still
 * reads the pid of the run before (often one that was killed): it waits for a
 * live pid rather than name a dead one, and names none if it never comes.
 */
async function liveHolder(dir: string): Promise<number | undefined> {
  const deadline = Date.now() + HOLDER_WAIT_MS;
  for (;;) {
    const pid = holderPid(dir);
    if (pid !== undefined && alive(pid)) return pid;
    if (Date.now() >= deadline) return undefined;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function holderPid(dir: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(join(dir, LOCK_PID_FILE), "utf8"), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
