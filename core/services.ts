// Side effects the core and tools reach through, injected so tests can
// substitute them: the filesystem, the process spawner and the clock.

import * as fsp from "node:fs/promises";
import { spawn } from "node:child_process";

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
  | "mkdtemp"
  | "copyFile"
>;

export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export interface Services {
  fs: FileSystem;
  spawn: typeof spawn;
  clock: Clock;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason ?? new Error("aborted"));
      const timer = setTimeout(() => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal?.reason ?? new Error("aborted"));
      };
      signal?.addEventListener("abort", onAbort, { once: true });
    }),
};

export function nodeServices(): Services {
  return { fs: fsp, spawn, clock: systemClock };
}
