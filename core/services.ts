// Side effects the core and tools reach through, injected so tests can
// substitute them: the filesystem, the process spawner, the clock, and the
// environment of the processes tools start.

import * as fsp from "node:fs/promises";
import { spawn } from "node:child_process";
import { commandEnv } from "./jobs/shell-env.js";
import { ownDirs, type OwnDir } from "./paths.js";

export type FileSystem = Pick<
  typeof fsp,
  | "readFile"
  | "writeFile"
  | "appendFile"
  | "stat"
  | "lstat"
  | "readdir"
  | "mkdir"
  | "realpath"
  | "rename"
  | "unlink"
  | "open"
  | "chmod"
  | "rm"
  | "rmdir"
  | "mkdtemp"
  | "copyFile"
  | "link"
>;

export interface Clock {
  now(): number;
  /**
   * Resolves `ms` from now; rejects when `signal` fires first. `unref`: the
   * wait alone does not keep the process running (an idle timer).
   */
  sleep(ms: number, signal?: AbortSignal, opts?: { unref?: boolean }): Promise<void>;
}

/** Calls `fire` once `ms` have passed on `clock`, unless cancelled first. */
export function clockTimer(clock: Clock, ms: number, fire: () => void, opts?: { unref?: boolean }): { cancel(): void } {
  const stop = new AbortController();
  clock.sleep(ms, stop.signal, opts).then(fire, () => undefined);
  return { cancel: () => stop.abort() };
}

export interface Services {
  fs: FileSystem;
  spawn: typeof spawn;
  clock: Clock;
  /**
   * The environment of every process a tool starts (ripgrep, the formatter):
   * yuj's own, filtered by the [shell_env] policy, so no secret rides along.
   */
  env: Record<string, string>;
  /**
   * yuj's own directories (user config, state), from yuj's own environment:
   * the file tools never write or delete anything in them.
   */
  ownDirs: readonly OwnDir[];
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal, opts) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason ?? new Error("aborted"));
      const timer = setTimeout(() => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      }, ms);
      if (opts?.unref) timer.unref();
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal?.reason ?? new Error("aborted"));
      };
      signal?.addEventListener("abort", onAbort, { once: true });
    }),
};

/**
 * The real services; `env` defaults to yuj's environment under the default
 * [shell_env] policy, `own` to the directories yuj's environment names.
 */
export function nodeServices(env: Record<string, string> = commandEnv(process.env), own: readonly OwnDir[] = ownDirs(process.env)): Services {
  return { fs: fsp, spawn, clock: systemClock, env, ownDirs: own };
}
