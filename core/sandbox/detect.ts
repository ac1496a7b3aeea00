// Finding bubblewrap and proving it can actually build a sandbox here. A
// binary on disk is not enough: inside an unprivileged container, or where
// user namespaces are disabled, bwrap exists but every start fails. So the
// probe runs the real profile once (around `true`), capability drop and
// seccomp filter included, started the way every command is, and the answer
// is cached for the life of the process (it cannot change while yuj runs) and,
// when usable, on disk for later runs under a key of everything it depends on.

import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type { Env } from "../paths.js";
import { bwrapProfileArgs } from "./bwrap.js";
import { probeKey, readProbe, writeProbe } from "./probe-cache.js";
import { seccompFile, withSeccompFd } from "./seccomp.js";

const INSTALL_HINT = "apt-get install bubblewrap";

interface BwrapFound {
  /** Absolute path of the binary. */
  path: string;
  /** `bubblewrap 0.8.0`, or undefined when --version said nothing useful. */
  version?: string;
}

export type BwrapStatus =
  | { usable: true; bwrap: BwrapFound }
  /** Why not, as one sentence that says how to fix it. `bwrap` is set when the binary exists. */
  | { usable: false; reason: string; bwrap?: BwrapFound };

export interface DetectOptions {
  /** `[tools].bwrap_bin`: a path, or a bare name looked up on PATH. Unset: `bwrap` on PATH. */
  bwrapBin?: string;
  /** Whether the sandbox will keep the host network (the probe then does not unshare it). */
  network?: boolean;
  /** Whether the Docker socket is passed (the seccomp filter then allows unix sockets). */
  docker?: boolean;
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The first executable `name` on `envPath`, like the shell's lookup. */
function findOnPath(name: string, envPath: string | undefined): string | undefined {
  for (const dir of (envPath ?? "").split(path.delimiter)) {
    if (!dir || !path.isAbsolute(dir)) continue; // a relative entry would depend on the cwd
    const candidate = path.join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

/** Where bwrap is, or a reason naming what is missing and the fix. */
export function locateBwrap(opts: DetectOptions, env: Env): { path: string } | { reason: string } {
  const bin = opts.bwrapBin;
  if (bin === undefined || bin === "" || !bin.includes("/")) {
    const name = bin || "bwrap";
    const found = findOnPath(name, env.PATH);
    if (found) return { path: found };
    return { reason: `bubblewrap (${name}) is not installed (not found on PATH): ${INSTALL_HINT}` };
  }
  const abs = path.resolve(bin);
  if (isExecutable(abs)) return { path: abs };
  return { reason: `bubblewrap is not installed at ${abs} ([tools].bwrap_bin): ${INSTALL_HINT}, or point bwrap_bin at it` };
}

// A program for the probe to run that does not depend on the caller's PATH
// (a test or a user may have pointed PATH somewhere odd).
function probeProgram(env: Env): string {
  for (const p of ["/usr/bin/true", "/bin/true"]) if (isExecutable(p)) return p;
  return findOnPath("true", env.PATH) ?? "true";
}

const cache = new Map<string, BwrapStatus>();

/**
 * Finds bwrap and runs the sandbox profile once around `true`. Cached per
 * binary and network setting; `fresh` skips the cache (doctor, tests).
 */
export function detectBwrap(opts: DetectOptions, env: Env, fresh = false): BwrapStatus {
  const located = locateBwrap(opts, env);
  if ("reason" in located) return { usable: false, reason: located.reason };
  const network = opts.network ?? false;
  const blockUnixSockets = network && !opts.docker;
  const key = `${located.path}\0${network ? "net" : "nonet"}\0${blockUnixSockets ? "nounix" : "unix"}`;
  const cached = cache.get(key);
  if (cached && !fresh) return cached;
  const status = probe(located.path, network, blockUnixSockets, env, fresh);
  cache.set(key, status);
  return status;
}

function probe(bin: string, network: boolean, blockUnixSockets: boolean, env: Env, fresh: boolean): BwrapStatus {
  const bwrap: BwrapFound = { path: bin };
  let launch: { file: string; args: string[] };
  let key: string | undefined;
  try {
    const args = [...bwrapProfileArgs({ network }), "--", probeProgram(env)];
    const filter = seccompFile({ blockUnixSockets });
    launch = withSeccompFd(bin, args, filter);
    key = probeKey(bin, args, filter);
  } catch (err) {
    return { usable: false, bwrap, reason: `the sandbox's seccomp filter could not be written: ${(err as Error).message}` };
  }
  const kept = key && !fresh ? readProbe(env, key) : undefined;
  if (kept !== undefined) return { usable: true, bwrap: kept ? { ...bwrap, version: kept } : bwrap };
  const version = spawnSync(bin, ["--version"], { encoding: "utf8", timeout: 5000 });
  const line = (version.stdout ?? "").trim().split("\n")[0];
  if (version.status === 0 && line) bwrap.version = line;
  const run = spawnSync(launch.file, launch.args, { encoding: "utf8", timeout: 10_000, cwd: "/", env: { ...env } as NodeJS.ProcessEnv });
  if (run.status === 0) {
    if (key) writeProbe(env, key, bwrap.version);
    return { usable: true, bwrap };
  }
  const detail = run.error
    ? run.error.message
    : (run.stderr ?? "").trim().split("\n").filter(Boolean).pop() ?? `exit code ${run.status ?? run.signal}`;
  return {
    usable: false,
    bwrap,
    reason:
      `bubblewrap (${bin}) is installed but cannot create a sandbox here: ${detail} ` +
      "(it needs root, a setuid bwrap, or unprivileged user namespaces)",
  };
}
