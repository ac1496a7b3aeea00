import * as fsp from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { displayPath, resolveInCwd } from "../../tools/lib/paths.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
});
afterEach(() => t.cleanup());

const resolve = (p: string, forbidNewline = false) => resolveInCwd(t.ctx.services.fs, t.cwd, p, { forbidNewline });

describe("path containment", () => {
  it("joins relative paths with cwd and keeps absolute paths inside cwd", async () => {
    const real = await fsp.realpath(t.cwd);
    expect(await resolve("a/b.txt")).toMatchObject({ ok: true, abs: path.join(real, "a/b.txt"), display: "a/b.txt" });
    expect(await resolve(path.join(t.cwd, "x"))).toMatchObject({ ok: true, display: "x" });
    expect(await resolve(".")).toMatchObject({ ok: true, display: "." });
  });

  it("re-roots an absolute path whose first component is in the repository", async () => {
    await t.put({ "src/a.py": "x" });
    expect(await resolve("/src/a.py")).toMatchObject({ ok: true, display: "src/a.py" });
    expect(await resolve("/src/new/b.py")).toMatchObject({ ok: true, display: "src/new/b.py" });
  });

  it("refuses any other absolute path outside cwd, devices included", async () => {
    expect(await resolve("/etc/passwd")).toEqual({ ok: false, error: "ERROR: path escapes cwd: /etc/passwd" });
    expect(await resolve("/dev/stdin")).toEqual({ ok: false, error: "ERROR: path escapes cwd: /dev/stdin" });
    expect(await resolve("/proc/self/environ")).toEqual({ ok: false, error: "ERROR: path escapes cwd: /proc/self/environ" });
  });

  it("refuses .. that leaves cwd", async () => {
    expect(await resolve("../x")).toEqual({ ok: false, error: "ERROR: path escapes cwd: ../x" });
    expect(await resolve("a/../../x")).toEqual({ ok: false, error: "ERROR: path escapes cwd: a/../../x" });
    expect(await resolve("a/../b")).toMatchObject({ ok: true, display: "b" });
  });

  it("follows symlinks and refuses ones that lead outside", async () => {
    await fsp.symlink("/etc", path.join(t.cwd, "out"));
    await fsp.symlink("/dev/stdin", path.join(t.cwd, "stdin"));
    await t.put({ "real/f.txt": "x" });
    await fsp.symlink("real", path.join(t.cwd, "in"));
    expect(await resolve("out/passwd")).toEqual({ ok: false, error: "ERROR: path escapes cwd: out/passwd" });
    expect(await resolve("out/new/deeper.txt")).toMatchObject({ ok: false });
    expect(await resolve("stdin")).toMatchObject({ ok: false });
    expect(await resolve("in/f.txt")).toMatchObject({ ok: true, display: "real/f.txt" });
  });

  it("refuses special files such as FIFOs", async () => {
    const { execFileSync } = await import("node:child_process");
    execFileSync("mkfifo", [path.join(t.cwd, "pipe")]);
    expect(await resolve("pipe")).toEqual({ ok: false, error: "ERROR: pipe is not a regular file" });
  });

  it("refuses NUL always and newline when asked", async () => {
    const msg = "ERROR: path contains forbidden character (newline or NUL)";
    expect(await resolve("a\0b")).toEqual({ ok: false, error: msg });
    expect(await resolve("a\nb", true)).toEqual({ ok: false, error: msg });
    expect(await resolve("a\nb", false)).toMatchObject({ ok: true });
  });

  it("displays paths relative to cwd with forward slashes", () => {
    expect(displayPath("/w", "/w/a/b")).toBe("a/b");
    expect(displayPath("/w", "/w")).toBe(".");
  });
});
