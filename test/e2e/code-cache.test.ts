// The built CLI keeps the code V8 compiled for the bundle's chunks under
// $XDG_STATE_HOME/yuj/code-cache/<build>/ (scripts/bundle/chunk-loader.js).
// A run that finds a file it can use leaves it alone; one that finds it
// damaged (its CRC fails: V8 itself would run or crash on it), made for
// another source (V8 rejects it) or unreadable compiles from the source, does
// its work as usual and writes the file again.

import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { crc32 } from "node:zlib";
import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { scriptedProject, type ScriptedProject } from "../support/durable-session.js";

const turns = [
  { tool_calls: [{ name: "bash", arguments: { cmd: "sh -c 'echo listed' > out.txt" } }] },
  { tool_calls: [{ name: "done", arguments: { message: "finished" } }] },
];

const cacheRoot = (p: ScriptedProject) => join(p.env.XDG_STATE_HOME!, "yuj", "code-cache");

async function run(p: ScriptedProject): Promise<void> {
  const r = await runCli(["code", "write the list", ...p.flags], { cwd: p.cwd, env: p.env });
  expect(r.code, r.stderr).toBe(0);
  expect(readFileSync(join(p.cwd, "out.txt"), "utf8")).toBe("listed\n");
}

/** The one build directory's files: name → content. */
function cacheFiles(p: ScriptedProject): Map<string, Buffer> {
  const builds = readdirSync(cacheRoot(p));
  expect(builds).toHaveLength(1);
  const dir = join(cacheRoot(p), builds[0]!);
  return new Map(readdirSync(dir).map((f) => [join(dir, f), readFileSync(join(dir, f))]));
}

const crcHolds = (file: Buffer) => file.readUInt32LE(0) === crc32(file.subarray(4));

describe("the bundle's code cache", () => {
  it("is written by the first run, kept by the next, and every file holds its CRC", async () => {
    const p = scriptedProject(turns);
    await run(p);
    const first = cacheFiles(p);
    const names = [...first.keys()].map((f) => f.split("/").at(-1));
    expect(names.some((n) => /^main-\w+\.js\.v8$/.test(n!))).toBe(true);
    expect(names.every((n) => n!.endsWith(".js.v8")), "no temporary file left").toBe(true);
    for (const data of first.values()) expect(crcHolds(data)).toBe(true);
    const mtimes = [...first.keys()].map((f) => statSync(f).mtimeMs);
    await run(p);
    expect([...first.keys()].map((f) => statSync(f).mtimeMs)).toEqual(mtimes);
  });

  it("ignores a damaged, a foreign or an empty file, and writes it again", async () => {
    const p = scriptedProject(turns);
    await run(p);
    const good = cacheFiles(p);
    const [damaged, foreign, empty] = [...good.keys()].sort((a, b) => good.get(b)!.length - good.get(a)!.length);
    // Bytes flipped through the payload, the CRC left as it was.
    const flipped = Buffer.from(good.get(damaged!)!);
    for (let i = 64; i < flipped.length; i += 101) flipped[i]! ^= 0xff;
    writeFileSync(damaged!, flipped);
    // Another chunk's data with a CRC that holds: V8 rejects it for this source.
    writeFileSync(foreign!, good.get(damaged!)!);
    writeFileSync(empty!, "");
    await run(p);
    const again = cacheFiles(p);
    for (const f of [damaged!, foreign!, empty!]) {
      expect(crcHolds(again.get(f)!), f).toBe(true);
      expect(again.get(f)!.length, f).toBeGreaterThan(4);
    }
    expect(again.get(damaged!)!.equals(flipped)).toBe(false);
    expect(again.get(foreign!)!.equals(good.get(damaged!)!)).toBe(false);
  });

  it("keeps the three most recently written builds' directories", async () => {
    const p = scriptedProject(turns);
    mkdirSync(cacheRoot(p), { recursive: true });
    const old = ["old-build-1", "old-build-2", "old-build-3"];
    old.forEach((name, i) => {
      mkdirSync(join(cacheRoot(p), name));
      utimesSync(join(cacheRoot(p), name), 1_000_000 + i, 1_000_000 + i);
    });
    await run(p);
    const left = readdirSync(cacheRoot(p));
    expect(left).toHaveLength(3);
    expect(left).not.toContain("old-build-1");
    expect(existsSync(join(cacheRoot(p), "old-build-3"))).toBe(true);
  });
});
