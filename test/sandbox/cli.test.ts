// The sandbox through the built CLI, as a user meets it: `yuj tool bash`
// in an isolated HOME, then the host is checked for what the command did.

import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { isolatedEnv, runCli } from "../support/cli.js";
import { tempDemoRepo } from "../support/loop-harness.js";
import { cleanupAll, marker, noBwrap, tempDir } from "./support.js";

const leftovers: string[] = [];
afterEach(async () => {
  for (const f of leftovers.splice(0)) fs.rmSync(f, { force: true });
  await cleanupAll();
});

function project(configToml?: string): string {
  const cwd = tempDemoRepo();
  if (configToml !== undefined) fs.writeFileSync(path.join(cwd, "sbx.toml"), configToml);
  return cwd;
}

const bash = (cmd: string, config = true) => ["tool", "bash", JSON.stringify({ cmd }), ...(config ? ["--config", "sbx.toml"] : [])];

describe.skipIf(noBwrap)("yuj tool bash, sandboxed (real bwrap, the built CLI)", () => {
  it("with [sandbox].mode = \"on\", touching the host /tmp writes nothing there", async () => {
    const outside = `/tmp/yuj-outside-test-${marker("cli")}`;
    leftovers.push(outside);
    const cwd = project('[sandbox]\nmode = "on"\n');
    const res = await runCli(bash(`touch ${outside} && echo touched && touch inside-${path.basename(outside)}`), {
      cwd,
      env: isolatedEnv(),
    });
    expect(res.stdout).toBe("touched\n"); // it ran, in its own /tmp
    expect(res.code).toBe(0);
    expect(fs.existsSync(outside)).toBe(false);
    expect(fs.existsSync(path.join(cwd, `inside-${path.basename(outside)}`))).toBe(true);
  });

  it("is on by default where bwrap works (mode auto), and off when configured off", async () => {
    const outside = `/tmp/yuj-outside-test-${marker("cli-auto")}`;
    leftovers.push(outside);
    const auto = await runCli(bash(`touch ${outside}`, false), { cwd: project(), env: isolatedEnv() });
    expect(auto.code).toBe(0);
    expect(fs.existsSync(outside)).toBe(false);
    const off = await runCli(bash(`touch ${outside}`), { cwd: project('[sandbox]\nmode = "off"\n'), env: isolatedEnv() });
    expect(off.code).toBe(0);
    expect(fs.existsSync(outside)).toBe(true); // the control: unsandboxed, the same command does write
  });

  it("doctor reports the mode, bwrap's path and version, and that it starts", async () => {
    const res = await runCli(["doctor", "--config", "sbx.toml"], { cwd: project('[sandbox]\nmode = "on"\n'), env: isolatedEnv() });
    expect(res.stdout).toMatch(/^\[ok {2}\] bubblewrap: bubblewrap [\d.]+ at \/\S*bwrap: starts a sandbox$/m);
    expect(res.stdout).toMatch(/^\[ok {2}\] sandbox: mode on \(\[sandbox\]\.mode\): commands run in bubblewrap \(project writable, no network\)$/m);
    const root = process.getuid?.() === 0 ? ", and yuj runs as root" : "";
    expect(res.stdout).toContain(
      `[ok  ] capabilities: dropped: sandboxed commands hold no capabilities (--cap-drop ALL${root}) and cannot create user namespaces\n`,
    );
    expect(res.stdout).toContain("[ok  ] docker: [sandbox].docker = false (default): the Docker socket is not passed to sandboxed commands\n");
  });

  it("doctor says when the Docker socket is passed, and what that means", async () => {
    const res = await runCli(["doctor", "--config", "sbx.toml"], { cwd: project("[sandbox]\ndocker = true\nnetwork = true\n"), env: isolatedEnv() });
    expect(res.stdout).toContain(
      "[warn] docker: [sandbox].docker = true: the Docker socket is passed to sandboxed commands, which is host access\n",
    );
    const net = await runCli(["doctor", "--config", "sbx.toml"], { cwd: project("[sandbox]\nnetwork = true\n"), env: isolatedEnv() });
    expect(net.stdout).toContain("with network = true, sandboxed commands cannot create unix sockets\n");
  });
});

describe("yuj tool bash, bwrap missing (the built CLI)", () => {
  /** PATH with bash and touch, and no bwrap. */
  function envWithoutBwrap(): Record<string, string> {
    const bin = tempDir("yuj-sbx-clibin-");
    for (const tool of ["bash", "touch"]) {
      const real = ["/usr/bin", "/bin"].map((d) => path.join(d, tool)).find((p) => fs.existsSync(p));
      if (real) fs.symlinkSync(real, path.join(bin, tool));
    }
    return isolatedEnv({ PATH: bin });
  }

  it("mode on: the command does not run, and the model sees why and how to fix it", async () => {
    const name = marker("cli-missing");
    const cwd = project('[sandbox]\nmode = "on"\n');
    const res = await runCli(bash(`touch ${name}`), { cwd, env: envWithoutBwrap() });
    expect(res.stdout).toBe(
      "yuj: sandbox unavailable: bubblewrap (bwrap) is not installed (not found on PATH): apt-get install bubblewrap; the command was not run\n" +
        "[exit code: 126]\n",
    );
    expect(res.code).toBe(1);
    expect(fs.existsSync(path.join(cwd, name))).toBe(false);
  });

  it("doctor fails the sandbox check in mode on, and warns in mode auto", async () => {
    const on = await runCli(["doctor", "--config", "sbx.toml"], { cwd: project('[sandbox]\nmode = "on"\n'), env: envWithoutBwrap() });
    expect(on.stdout).toMatch(/^\[warn\] bubblewrap: bubblewrap \(bwrap\) is not installed \(not found on PATH\): apt-get install bubblewrap$/m);
    expect(on.stdout).toMatch(/^\[FAIL\] sandbox: mode on \(\[sandbox\]\.mode\): required but unavailable, so no command will run: /m);
    expect(on.code).toBe(1);
    const auto = await runCli(["doctor"], { cwd: project(), env: envWithoutBwrap() });
    expect(auto.stdout).toMatch(/^\[warn\] sandbox: mode auto \(default\): bubblewrap unusable, so commands run unsandboxed/m);
  });
});
