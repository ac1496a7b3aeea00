// The bubblewrap probe's answer kept between runs: real `yuj tool bash`
// processes, a real bwrap behind a wrapper that logs each start, so the test
// sees how many times bwrap ran (the probe is `--version` and a run of the
// profile; then the command itself).

import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { isolatedEnv, runCli } from "../support/cli.js";
import { bwrapStatus, cleanupAll, noBwrap, tempDir } from "./support.js";

afterEach(cleanupAll);

interface Setup {
  env: Record<string, string>;
  project: string;
  wrapper: string;
  starts(): string[];
  cacheFile: string;
}

/** A wrapper around the real bwrap (or one that always fails), named in the user config. */
function setup(opts: { broken?: boolean } = {}): Setup {
  const real = bwrapStatus.usable ? bwrapStatus.bwrap.path : "/usr/bin/bwrap";
  const dir = tempDir("yuj-probe-cache-");
  const log = path.join(dir, "starts.log");
  const wrapper = path.join(dir, "bwrap");
  const tail = opts.broken ? 'echo "bwrap: No permissions to create new namespace" >&2\nexit 1\n' : `exec ${real} "$@"\n`;
  fs.writeFileSync(wrapper, `#!/bin/sh\necho "$1" >> ${log}\n${tail}`, { mode: 0o755 });
  const env = isolatedEnv();
  fs.mkdirSync(path.join(env.XDG_CONFIG_HOME!, "yuj"), { recursive: true });
  fs.writeFileSync(path.join(env.XDG_CONFIG_HOME!, "yuj", "config.toml"), `[tools]\nbwrap_bin = "${wrapper}"\n`);
  const project = tempDir("yuj-probe-cache-project-");
  const starts = () => (fs.existsSync(log) ? fs.readFileSync(log, "utf8").trimEnd().split("\n") : []);
  return { env, project, wrapper, starts, cacheFile: path.join(env.XDG_STATE_HOME!, "yuj", "bwrap-probe.json") };
}

async function echo(s: Setup, word: string): Promise<void> {
  const r = await runCli(["tool", "bash", JSON.stringify({ cmd: `echo ${word}` })], { cwd: s.project, env: s.env });
  expect(r.stderr).not.toMatch(/ERROR/);
  expect(r.stdout).toContain(word);
  expect(r.code).toBe(0);
}

describe.skipIf(noBwrap)("the bubblewrap probe kept between runs", () => {
  it("a later run's first command starts bwrap once: no second probe", async () => {
    const s = setup();
    await echo(s, "first");
    expect(s.starts()).toEqual(["--version", "--ro-bind", "--ro-bind"]);
    await echo(s, "second");
    expect(s.starts()).toHaveLength(4);
  });

  it("a changed binary is probed again", async () => {
    const s = setup();
    await echo(s, "first");
    fs.appendFileSync(s.wrapper, "# changed\n");
    await echo(s, "second");
    expect(s.starts().filter((a) => a === "--version")).toHaveLength(2);
  });

  it("a damaged kept answer is ignored and written anew", async () => {
    const s = setup();
    fs.mkdirSync(path.dirname(s.cacheFile), { recursive: true });
    fs.writeFileSync(s.cacheFile, "{ not json");
    await echo(s, "first");
    expect(s.starts()[0]).toBe("--version");
    expect(() => JSON.parse(fs.readFileSync(s.cacheFile, "utf8"))).not.toThrow();
    await echo(s, "second");
    expect(s.starts().filter((a) => a === "--version")).toHaveLength(1);
  });

  it("where the answer cannot be kept, every run probes and commands still run", async () => {
    const s = setup();
    // A directory with a file in it: the kept answer can be neither read nor renamed into place.
    fs.mkdirSync(s.cacheFile, { recursive: true });
    fs.writeFileSync(path.join(s.cacheFile, "x"), "");
    await echo(s, "first");
    await echo(s, "second");
    expect(s.starts().filter((a) => a === "--version")).toHaveLength(2);
  });

  it("a bwrap that cannot build a sandbox is never kept: the next run probes again", async () => {
    const s = setup({ broken: true });
    await echo(s, "first"); // auto mode: the command runs without the sandbox, with a notice
    await echo(s, "second");
    expect(s.starts().filter((a) => a === "--version")).toHaveLength(2);
    expect(fs.existsSync(s.cacheFile)).toBe(false);
  });
});
