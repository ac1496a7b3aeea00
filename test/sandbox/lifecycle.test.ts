// Stopping sandboxed jobs: bwrap leads the job's process group, and killing
// the group (kill, deadline, shutdown, the exit hook) must leave nothing
// alive, inside the sandbox's pid namespace or out of it. `ps` is the judge.

import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { defaultConfig } from "../../core/config/schema.js";
import { createEmitter } from "../../core/events.js";
import { createTerminalManager } from "../../core/jobs/terminal.js";
import { createSandbox } from "../../core/sandbox/index.js";
import { alive, cleanupAll, named, makeHarness, marker, noBwrap, tempDir, until } from "./support.js";

afterEach(cleanupAll);

/** Two sleepers named `m`: one in the background of the shell, one in front. */
const sleepers = (m: string) => `(exec -a ${m} sleep 300) & (exec -a ${m} sleep 300); wait`;

describe.skipIf(noBwrap)("stopping sandboxed jobs leaves no process (real bwrap)", () => {
  it("kill", async () => {
    const h = makeHarness();
    const m = marker("kill");
    const job = h.manager.start({ command: sleepers(m), cwd: h.project, background: true });
    expect(await until(() => named(m).length === 2)).toBe(true);
    const result = await h.manager.kill(job.id, "test");
    expect(result.confirmed).toBe(true);
    expect(result.snapshot.status).toBe("killed");
    expect(alive(m)).toEqual([]);
    expect(alive(`bwrap`).filter((l) => l.includes(h.project))).toEqual([]);
  });

  it("deadline", async () => {
    const h = makeHarness();
    const m = marker("deadline");
    const job = h.manager.start({ command: sleepers(m), cwd: h.project, background: false, deadlineMs: 800 });
    expect(await until(() => named(m).length === 2)).toBe(true);
    expect(await h.manager.wait(job.id, "exit", 10_000)).toBe("exited");
    expect(h.manager.get(job.id)?.status).toBe("timed_out");
    expect(alive(m)).toEqual([]);
  });

  it("shutdown and the synchronous exit-hook kill", async () => {
    const h = makeHarness();
    const a = marker("shutdown");
    const b = marker("killsync");
    h.manager.start({ command: sleepers(a), cwd: h.project, background: true });
    expect(await until(() => named(a).length === 2)).toBe(true);
    await h.manager.shutdown();
    expect(alive(a)).toEqual([]);

    const h2 = makeHarness();
    h2.manager.start({ command: sleepers(b), cwd: h2.project, background: true });
    expect(await until(() => named(b).length === 2)).toBe(true);
    h2.manager.killAllSync();
    expect(await until(() => alive(b).length === 0)).toBe(true);
  });

  it("a shell that exits early leaves the job running while what it started runs; a kill ends all of it", async () => {
    const h = makeHarness();
    const m = marker("leftover");
    const job = h.manager.start({ command: `(exec -a ${m} sleep 300) & sleep 0.5; echo started`, cwd: h.project, background: true });
    expect(await until(() => named(m).length === 1)).toBe(true);
    expect(await until(() => h.manager.get(job.id)?.leaderExited === true)).toBe(true);
    expect(h.manager.get(job.id)?.status).toBe("running");
    expect((await h.manager.kill(job.id, "test")).snapshot).toMatchObject({ status: "killed", exitCode: 0 });
    expect(alive(m)).toEqual([]);
  });

  it("when yuj itself dies by SIGKILL, --die-with-parent ends the sandbox: no orphan at all", async () => {
    const m = marker("sigkill");
    const project = tempDir("yuj-sbx-parent-");
    // A separate node process owns the manager, so it can be SIGKILLed.
    const script = `
      import { createJobManager } from ${JSON.stringify(path.resolve("core/jobs/manager.ts"))};
      import { createSandbox } from ${JSON.stringify(path.resolve("core/sandbox/index.ts"))};
      import { defaultConfig } from ${JSON.stringify(path.resolve("core/config/schema.ts"))};
      const config = defaultConfig(); config.sandbox.mode = "on";
      const sandbox = createSandbox(config, process.env, { projectDir: ${JSON.stringify(project)} });
      const jobs = createJobManager({ sessionDir: ${JSON.stringify(tempDir("yuj-sbx-parent-session-"))}, emit: () => {}, sandbox });
      jobs.start({ command: ${JSON.stringify(sleepers(m))}, cwd: ${JSON.stringify(project)}, background: true });
      setInterval(() => {}, 1000);
    `;
    const file = path.join(project, "owner.mts");
    fs.writeFileSync(file, script);
    const owner = spawn(process.execPath, ["--import", "tsx", file], { stdio: "ignore" });
    try {
      expect(await until(() => named(m).length === 2, 15_000)).toBe(true);
      owner.kill("SIGKILL");
      expect(await until(() => alive(m).length === 0, 5000)).toBe(true);
    } finally {
      owner.kill("SIGKILL");
    }
  }, 30_000);

  it("the terminal runs inside the sandbox and ends with it", async () => {
    const config = defaultConfig();
    config.sandbox.mode = "on";
    const project = tempDir("yuj-sbx-pty-");
    const { emit } = createEmitter("test", () => undefined);
    const terminals = createTerminalManager({
      emit,
      sessionDir: tempDir("yuj-sbx-pty-session-"),
      sandbox: createSandbox(config, process.env, { projectDir: project }),
    });
    const m = marker("pty");
    const name = marker("pty-file");
    const started = await terminals.start(
      `touch /tmp/${name} ${name}; test -t 0 && echo "tty=yes"; echo "term=$TERM"; exec -a ${m} sleep 300`,
      project,
    );
    expect(started.ok).toBe(true);
    const text = started.ok ? started.read.text : "";
    expect(text).toContain("tty=yes");
    expect(text).toContain("term=xterm-256color");
    expect(await until(() => named(m).length === 1)).toBe(true);
    expect(fs.existsSync(path.join(project, name))).toBe(true);
    expect(fs.existsSync(`/tmp/${name}`)).toBe(false);
    await terminals.shutdown();
    expect(await until(() => alive(m).length === 0)).toBe(true);
  });
});
