// One atomic write for every file yuj replaces: a failure at any point (a
// full disk, a rename refused) leaves the old file as it was and no
// temporary file; a process killed between the write and the rename leaves
// the old file and a temporary copy the next start removes.

import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as fsp from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { claimSession } from "../../app/claim-session.js";
import { atomicWrite, atomicWriteSync, removeStaleTemps, type SyncFileSystem } from "../../core/atomic-write.js";
import { sessionsDir } from "../../core/paths.js";
import type { FileSystem } from "../../core/services.js";
import { newSessionId } from "../../core/session.js";
import { readState } from "../../core/session-state.js";

const CRASH = join(import.meta.dirname, "fixtures", "crash-while-saving.ts");
const scratch = () => fs.mkdtempSync(join(tmpdir(), "yuj-atomic-"));
const errno = (code: string) => Object.assign(new Error(`${code}: refused by the test's file system`), { code });

/** The file system with one call replaced. */
const withAsync = (over: Partial<FileSystem>): FileSystem => ({ ...fsp, ...over }) as FileSystem;
const withSync = (over: Partial<SyncFileSystem>): SyncFileSystem => ({ ...fs, ...over }) as SyncFileSystem;

function oldFile(): { dir: string; file: string } {
  const dir = scratch();
  const file = join(dir, "data.txt");
  fs.writeFileSync(file, "old\n");
  return { dir, file };
}

describe("atomicWrite", () => {
  it("leaves the old file and no temporary file when the rename fails", async () => {
    const { dir, file } = oldFile();
    await expect(atomicWrite(withAsync({ rename: () => Promise.reject(errno("EXDEV")) }), file, "new\n")).rejects.toThrow(/EXDEV/);
    expect(fs.readFileSync(file, "utf8")).toBe("old\n");
    expect(fs.readdirSync(dir)).toEqual(["data.txt"]);
  });

  it("leaves the old file and no temporary file when the disk is full", async () => {
    const { dir, file } = oldFile();
    const full = withAsync({
      open: (async (...args: Parameters<typeof fsp.open>) => {
        const handle = await fsp.open(...args);
        return Object.assign(Object.create(handle) as typeof handle, { writeFile: () => Promise.reject(errno("ENOSPC")) });
      }) as FileSystem["open"],
    });
    await expect(atomicWrite(full, file, "new\n")).rejects.toThrow(/ENOSPC/);
    expect(fs.readFileSync(file, "utf8")).toBe("old\n");
    expect(fs.readdirSync(dir)).toEqual(["data.txt"]);
  });

  it("keeps the permission bits of the file it replaces, and gives a new one the mode asked", async () => {
    const { dir, file } = oldFile();
    fs.chmodSync(file, 0o751);
    await atomicWrite(fsp, file, "new\n");
    expect(fs.statSync(file).mode & 0o7777).toBe(0o751);
    atomicWriteSync(file, "newer\n");
    expect(fs.statSync(file).mode & 0o7777).toBe(0o751);
    atomicWriteSync(join(dir, "private"), "x", { mode: 0o600 });
    expect(fs.statSync(join(dir, "private")).mode & 0o777).toBe(0o600);
  });
});

describe("atomicWriteSync", () => {
  it("leaves the old file and no temporary file when the rename fails", () => {
    const { dir, file } = oldFile();
    const refusing = withSync({
      renameSync: () => {
        throw errno("EACCES");
      },
    });
    expect(() => atomicWriteSync(file, "new\n", { fs: refusing })).toThrow(/EACCES/);
    expect(fs.readFileSync(file, "utf8")).toBe("old\n");
    expect(fs.readdirSync(dir)).toEqual(["data.txt"]);
  });

  it("leaves the old file and no temporary file when a write comes up short", () => {
    const { dir, file } = oldFile();
    expect(() => atomicWriteSync(file, "new\n", { fs: withSync({ writeSync: () => 0 }) })).toThrow(/short write: 0 of 4 bytes/);
    expect(fs.readFileSync(file, "utf8")).toBe("old\n");
    expect(fs.readdirSync(dir)).toEqual(["data.txt"]);
  });
});

describe("a process killed between the write and the rename", () => {
  it("leaves the saved state whole, and its temporary copy is removed when the session is next taken", async () => {
    const home = scratch();
    const env = { HOME: home, XDG_STATE_HOME: join(home, "state") };
    const id = newSessionId();
    const dir = join(sessionsDir(env, home), id);
    const child = spawn(process.execPath, ["--import", "tsx", CRASH, dir, id], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const [code, signal] = await new Promise<[number | null, string | null]>((done) => child.on("exit", (c, s) => done([c, s])));
    expect({ code, signal, stderr }).toMatchObject({ code: null, signal: "SIGKILL" });

    // The old state, whole; the new one only in the dead writer's temporary file.
    expect(readState(dir)).toMatchObject({ task: "the saved task" });
    const left = fs.readdirSync(dir).filter((n) => n.endsWith(".tmp"));
    expect(left).toEqual([expect.stringMatching(new RegExp(`^\\.state\\.json\\.${child.pid}\\.[0-9a-f]{12}\\.tmp$`))]);
    expect(fs.readFileSync(join(dir, left[0]!), "utf8")).toContain("the task being saved when the process died");

    const claimed = await claimSession(env, home, id);
    try {
      expect(claimed.state.task).toBe("the saved task");
      expect(fs.readdirSync(dir).filter((n) => n.endsWith(".tmp"))).toEqual([]);
    } finally {
      claimed.lock.release();
    }
  });

  it("keeps the temporary file of a writer that still runs", () => {
    const { dir, file } = oldFile();
    const mine = join(dir, `.data.txt.${process.pid}.0123456789ab.tmp`);
    fs.writeFileSync(mine, "in progress");
    expect(removeStaleTemps(file)).toEqual([]);
    expect(fs.existsSync(mine)).toBe(true);
  });
});
