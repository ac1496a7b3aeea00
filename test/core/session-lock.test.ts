// The session lock in one process and across processes: held once, refused
// with the holder's pid, seen by the read-only probe, and gone with its
// process, SIGKILL included.

import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { lockSession, sessionHolder, SessionBusyError } from "../../core/session-lock.js";
import { repoRoot } from "../support/loop-harness.js";

const sessionDir = () => {
  const dir = join(mkdtempSync(join(tmpdir(), "yuj-lock-")), "20261201-120000-abcdef");
  mkdirSync(dir);
  return dir;
};

describe("session lock", () => {
  it("is held once: a second take is refused naming the pid, and free again after release", async () => {
    const dir = sessionDir();
    expect(sessionHolder(dir)).toBeUndefined();
    const lock = await lockSession(dir);
    expect(sessionHolder(dir)).toBe(process.pid);
    const refused = await lockSession(dir).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(SessionBusyError);
    expect((refused as SessionBusyError).message).toBe(
      `session 20261201-120000-abcdef is in use by yuj process ${process.pid}; wait for it to end or stop it (kill ${process.pid}); ` +
        "`yuj status 20261201-120000-abcdef` shows it meanwhile",
    );
    lock.release();
    expect(sessionHolder(dir)).toBeUndefined();
    (await lockSession(dir)).release();
  });

  it("is let go by the kernel when its holder is killed with SIGKILL", async () => {
    const dir = sessionDir();
    const holder = spawn(process.execPath, ["--import", "tsx", "-e", `
      const { lockSession } = await import(${JSON.stringify(join(repoRoot, "core", "session-lock.ts"))});
      await lockSession(${JSON.stringify(dir)});
      process.stdout.write("held\\n");
      setInterval(() => {}, 1000);
    `], { stdio: ["ignore", "pipe", "inherit"] });
    await new Promise<void>((resolve) => holder.stdout!.once("data", () => resolve()));
    expect(sessionHolder(dir)).toBe(holder.pid);
    await expect(lockSession(dir)).rejects.toThrow(`in use by yuj process ${holder.pid}`);
    holder.kill("SIGKILL");
    await new Promise((r) => holder.once("exit", r));
    expect(sessionHolder(dir)).toBeUndefined();
    (await lockSession(dir)).release();
  });
});
