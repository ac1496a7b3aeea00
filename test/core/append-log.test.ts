// Appending log lines on a real disk that fills: a write the disk takes only
// part of is undone, so the file is exactly what it was; the next append
// after room is made is a whole line of its own. And a torn tail left by a
// killed writer is never glued to.

import { execFileSync, spawnSync } from "node:child_process";
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openAppendLog } from "../../core/append-log.js";

let mounted: string | undefined;
afterEach(() => {
  if (mounted) execFileSync("umount", [mounted]);
  mounted = undefined;
});

describe("append log", () => {
  it("undoes a short write on a full disk, then appends whole lines once there is room", () => {
    const dir = mkdtempSync(join(tmpdir(), "yuj-append-"));
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", dir]);
    mounted = dir;
    const file = join(dir, "log.jsonl");
    const log = openAppendLog(file);
    log.append('{"n":1}', { sync: true });
    spawnSync("dd", ["if=/dev/zero", `of=${join(dir, "filler")}`, "bs=1k"], { stdio: "ignore" });
    const before = readFileSync(file);
    // Larger than what is left of the file's page: the disk takes part of it, then refuses.
    const big = JSON.stringify({ n: 2, pad: "x".repeat(20_000) });
    expect(() => log.append(big, { sync: true })).toThrow(/ENOSPC/);
    expect(readFileSync(file)).toEqual(before);
    rmSync(join(dir, "filler"));
    log.append(big);
    log.append('{"n":3}');
    log.close();
    expect(readFileSync(file, "utf8").split("\n").map((l) => (l ? JSON.parse(l).n : undefined))).toEqual([1, 2, 3, undefined]);
  });

  it("starts on a fresh line after a torn tail, in this process and the next", () => {
    const file = join(mkdtempSync(join(tmpdir(), "yuj-append-")), "log.jsonl");
    appendFileSync(file, '{"n":1}\n{"n":2,"cut');
    const first = openAppendLog(file);
    first.append('{"n":3}');
    first.close();
    appendFileSync(file, '{"n":4,"cut');
    const second = openAppendLog(file);
    second.append('{"n":5}');
    second.close();
    expect(readFileSync(file, "utf8")).toBe('{"n":1}\n{"n":2,"cut\n{"n":3}\n{"n":4,"cut\n{"n":5}\n');
  });
});
