// The bubblewrap probe's answer kept on disk between runs. Proving that bwrap
// can build a sandbox costs two process starts (its --version and a run of
// the real profile around `true`), paid on every run's first command; the
// answer depends only on the binary, on what the probe runs, and on the
// kernel's settings, so it is kept under a key made of exactly those: the
// binary's identity (device, inode, size, times), the profile's arguments
// and seccomp filter, the user, the kernel release, this boot, and the
// user-namespace settings. Any change of them means a new probe.
//
// Only a usable answer is kept. A wrong "usable" fails closed (the next
// command's bwrap start fails with bwrap's own error); a wrong "unusable"
// would let a command run unsandboxed in auto mode, so it is never trusted
// from disk.

import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { atomicWriteSync } from "../atomic-write.js";
import { stateDir, type Env } from "../paths.js";

const KERNEL_SETTINGS = [
  "/proc/sys/kernel/random/boot_id",
  "/proc/sys/kernel/unprivileged_userns_clone",
  "/proc/sys/user/max_user_namespaces",
  "/proc/sys/kernel/apparmor_restrict_unprivileged_userns",
];

function readOr(file: string): string {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return "-";
  }
}

/** The key of a probe: undefined when the binary cannot be stat'ed (no cache then). */
export function probeKey(bwrapPath: string, probeArgs: readonly string[], filterFile: string): string | undefined {
  let st: fs.Stats;
  let filter: Buffer;
  try {
    st = fs.statSync(bwrapPath);
    filter = fs.readFileSync(filterFile);
  } catch {
    return undefined;
  }
  const hash = createHash("sha256");
  for (const part of [
    bwrapPath,
    `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.mode}:${st.uid}`,
    probeArgs.join("\0"),
    String(process.getuid?.() ?? -1),
    os.release(),
    ...KERNEL_SETTINGS.map(readOr),
  ]) {
    hash.update(part).update("\0\0");
  }
  return hash.update(filter).digest("hex");
}

function cacheFile(env: Env): string {
  return path.join(stateDir(env), "bwrap-probe.json");
}

/** Usable answers by key: bwrap's version line, "" when it gave none. A few keys (network on and off, two binaries). */
type Stored = Record<string, string>;
const KEPT = 8;

function load(env: Env): Stored {
  try {
    const parsed: unknown = JSON.parse(fs.readFileSync(cacheFile(env), "utf8"));
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return {};
    return Object.fromEntries(Object.entries(parsed).filter(([, v]) => typeof v === "string")) as Stored;
  } catch {
    return {}; // none yet, unreadable or damaged: probe again
  }
}

/** The kept usable answer for this key (bwrap's version line, or ""), else undefined. */
export function readProbe(env: Env, key: string): string | undefined {
  const stored = load(env);
  return Object.hasOwn(stored, key) ? stored[key] : undefined;
}

/** Keeps a usable answer; a state dir that cannot be written only costs the next run a probe. */
export function writeProbe(env: Env, key: string, version: string | undefined): void {
  const entries = Object.entries(load(env)).filter(([k]) => k !== key);
  const kept = Object.fromEntries([...entries.slice(-(KEPT - 1)), [key, version ?? ""]]);
  try {
    atomicWriteSync(cacheFile(env), JSON.stringify(kept) + "\n", { createParents: true, durable: false });
  } catch {
    // Not kept: the probe runs again next time.
  }
}
