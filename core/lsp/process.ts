// One language server process, owned the way a job is: it leads its own
// process group (so its helpers, tsserver for instance, end with it), it
// runs inside the sandbox when the sandbox is on, with the project mounted
// read-only (a server reads code, it never needs to write it), and it gets
// the commands' environment, secrets left out. Unlike a job it keeps stdin
// and stdout as pipes: they carry the protocol.

import { spawn as nodeSpawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type { Clock } from "../services.js";
import { unavailableMessage, type Sandbox } from "../sandbox/index.js";
import { groupLive, mayStillBeOurs, signalGroup, terminateGroup } from "../jobs/process-group.js";
import { groupMembers, readStartTime, type Member } from "../jobs/proc.js";

export interface ServerSpawnOptions {
  /** As configured: a bare program name is looked up in `searchDirs`, then on the environment's PATH. */
  argv: readonly string[];
  /** The server's workspace root (its working directory). */
  cwd: string;
  env: Record<string, string>;
  sandbox?: Sandbox;
  searchDirs: readonly string[];
  spawn?: typeof nodeSpawn;
}

interface ServerExit {
  code: number | null;
  signal: string | null;
}

export interface ServerProcess {
  readonly child: ChildProcess;
  /** Also the process group id. */
  readonly pid: number;
  readonly startTime: number | undefined;
  readonly sandboxed: boolean;
  /** The program that was started (after the PATH lookup). */
  readonly program: string;
  readonly exited: Promise<ServerExit>;
  readonly exit: ServerExit | undefined;
  /** The last few KiB the server wrote to stderr, for failure reports. */
  stderrTail(): string;
  /** SIGTERM to the group, SIGKILL after `graceMs`; resolves when it is gone. */
  stop(graceMs: number, clock: Clock): Promise<void>;
  /** SIGKILL to the group, synchronously (process 'exit'). */
  killSync(): void;
}

const STDERR_TAIL_BYTES = 4096;

/** The executable a configured program name means, or why there is none. */
function findProgram(name: string, cwd: string, searchDirs: readonly string[], envPath: string | undefined): string | { error: string } {
  if (name.includes("/")) {
    const abs = path.resolve(cwd, name);
    return isExecutable(abs) ? abs : { error: `${abs} is not an executable file` };
  }
  const dirs = [...searchDirs, ...(envPath ?? "").split(":").filter((d) => d !== "")];
  for (const dir of dirs) {
    const candidate = path.join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return { error: `${name} was not found in ${searchDirs.length ? `${searchDirs.join(", ")} or ` : ""}PATH` };
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

export function spawnServer(opts: ServerSpawnOptions): ServerProcess | { error: string } {
  const [name, ...rest] = opts.argv;
  if (name === undefined) return { error: "the command is empty" };
  const program = findProgram(name, opts.cwd, opts.searchDirs, opts.env.PATH);
  if (typeof program !== "string") return program;
  const argv = [program, ...rest];
  const wrapped = opts.sandbox?.wrapArgv(argv, opts.cwd, opts.env, { projectReadOnly: true });
  if (wrapped && "error" in wrapped) return { error: unavailableMessage(wrapped.error).replace("the command was", "the server was") };
  const sandboxed = opts.sandbox?.active === true;
  let child: ChildProcess;
  try {
    child = (opts.spawn ?? nodeSpawn)(wrapped?.file ?? program, wrapped?.args ?? rest, {
      cwd: opts.cwd,
      env: wrapped?.env ?? opts.env,
      // Its own session and group: signals reach every process it starts.
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
    });
  } catch (err) {
    return { error: `could not start ${program}: ${(err as Error).message}` };
  }
  return track(child, program, sandboxed);
}

function track(child: ChildProcess, program: string, sandboxed: boolean): ServerProcess {
  const pid = child.pid ?? 0;
  const startTime = pid > 0 ? readStartTime(pid) : undefined;
  let stderr = Buffer.alloc(0);
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = Buffer.concat([stderr, chunk]);
    if (stderr.length > STDERR_TAIL_BYTES) stderr = stderr.subarray(stderr.length - STDERR_TAIL_BYTES);
  });
  // A pipe the server closed must not throw in yuj.
  child.stdin?.on("error", () => {});
  let exit: ServerExit | undefined;
  let reaped = false;
  // Members left in the group once the leader is gone, proving the group is still ours.
  let members: Member[] = [];
  const exited = new Promise<ServerExit>((resolve) => {
    child.once("error", (err) => {
      if (pid > 0) return;
      stderr = Buffer.from(`could not start ${program}: ${err.message}`);
      exit = { code: null, signal: null };
      resolve(exit);
    });
    child.once("exit", (code, signal) => {
      reaped = true;
      members = groupMembers(pid).map((s) => ({ pid: s.pid, startTime: s.startTime }));
      exit = { code, signal };
      resolve(exit);
    });
  });
  const isOurs = () => pid > 1 && (!reaped || mayStillBeOurs(pid, members));
  const isGone = () => (reaped ? !groupLive(pid, members) : false);

  return {
    child,
    pid,
    startTime,
    sandboxed,
    program,
    exited,
    get exit() {
      return exit;
    },
    stderrTail: () => stderr.toString("utf8").trim(),
    async stop(graceMs, clock) {
      if (pid <= 1 || (reaped && !groupLive(pid, members))) return;
      await terminateGroup(pid, { graceMs, clock, isOurs, isGone });
    },
    killSync() {
      if (isOurs()) signalGroup(pid, "SIGKILL");
    },
  };
}
