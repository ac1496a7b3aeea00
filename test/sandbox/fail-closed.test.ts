// When the sandbox is required and cannot start, nothing runs; when it is
// only wanted (auto), commands run unsandboxed after one notice. PATH is
// pointed at a directory holding bash and touch but no bwrap, so a command
// that did run would leave its file behind: its absence is the proof.

import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { defaultConfig } from "../../core/config/schema.js";
import { createEmitter, type CoreEvent } from "../../core/events.js";
import { createTerminalManager } from "../../core/jobs/terminal.js";
import { createSandbox } from "../../core/sandbox/index.js";
import { cleanupAll, makeHarness, marker, tempDir } from "./support.js";

afterEach(cleanupAll);

const MISSING =
  "yuj: sandbox unavailable: bubblewrap (bwrap) is not installed (not found on PATH): apt-get install bubblewrap; the command was not run\n";

/** A PATH with the tools the commands use, and no bwrap. */
function pathWithoutBwrap(): string {
  const bin = tempDir("yuj-sbx-bin-");
  for (const tool of ["bash", "touch", "echo", "cat", "sleep"]) {
    const real = ["/usr/bin", "/bin"].map((d) => path.join(d, tool)).find((p) => fs.existsSync(p));
    if (real) fs.symlinkSync(real, path.join(bin, tool));
  }
  return bin;
}

const envWithout = () => ({ ...process.env, PATH: pathWithoutBwrap() });

describe("bwrap missing, mode on: fail closed", () => {
  it("does not run the command; exit 126 and one line naming what is missing and the fix", async () => {
    const h = makeHarness({ env: envWithout() }); // mode "on", no bwrap_bin
    const name = marker("not-run");
    expect(h.sandbox.active).toBe(false);
    const { text, snap } = await h.run(`touch ${name}`);
    expect(text).toBe(MISSING);
    expect(snap).toMatchObject({ status: "exited", exitCode: 126, pid: 0 });
    expect(fs.existsSync(path.join(h.project, name))).toBe(false);
    const types = h.events.map((e) => e.type);
    expect(types).toEqual(["job_started", "job_output", "job_exited"]);
  });

  it("the same PATH runs the command when the sandbox is off (the control)", async () => {
    const h = makeHarness({ env: envWithout(), adjust: (c) => void (c.sandbox.mode = "off") });
    const name = marker("control");
    const { snap } = await h.run(`touch ${name}`);
    expect(snap.exitCode).toBe(0);
    expect(fs.existsSync(path.join(h.project, name))).toBe(true);
  });

  it("refuses background jobs too", async () => {
    const h = makeHarness({ env: envWithout() });
    const name = marker("bg");
    const job = h.manager.start({ command: `touch ${name}`, cwd: h.project, background: true });
    expect(job.status).toBe("exited");
    expect(fs.readFileSync(job.outputFile, "utf8")).toBe(MISSING);
    expect(fs.existsSync(path.join(h.project, name))).toBe(false);
  });

  it("names a configured bwrap_bin that is not there", async () => {
    const h = makeHarness({ adjust: (c) => void (c.tools.bwrap_bin = "/opt/none/bwrap") });
    const name = marker("bin");
    const { text, snap } = await h.run(`touch ${name}`);
    expect(snap.exitCode).toBe(126);
    expect(text).toBe(
      "yuj: sandbox unavailable: bubblewrap is not installed at /opt/none/bwrap ([tools].bwrap_bin): apt-get install bubblewrap, or point bwrap_bin at it; the command was not run\n",
    );
    expect(fs.existsSync(path.join(h.project, name))).toBe(false);
  });

  it("a bwrap that exists but cannot start is refused too, with its own error", async () => {
    const fake = path.join(tempDir("yuj-sbx-fake-"), "bwrap");
    fs.writeFileSync(fake, '#!/bin/sh\necho "bwrap: Creating new namespace failed: Operation not permitted" >&2\nexit 1\n', { mode: 0o755 });
    const h = makeHarness({ adjust: (c) => void (c.tools.bwrap_bin = fake) });
    const name = marker("fake");
    const { text, snap } = await h.run(`touch ${name}`);
    expect(snap.exitCode).toBe(126);
    expect(text).toBe(
      `yuj: sandbox unavailable: bubblewrap (${fake}) is installed but cannot create a sandbox here: ` +
        "bwrap: Creating new namespace failed: Operation not permitted " +
        "(it needs root, a setuid bwrap, or unprivileged user namespaces); the command was not run\n",
    );
    expect(fs.existsSync(path.join(h.project, name))).toBe(false);
  });

  it("the terminal refuses to start, and starts nothing", async () => {
    const env = envWithout();
    const config = defaultConfig();
    config.sandbox.mode = "on";
    const project = tempDir("yuj-sbx-term-");
    const events: CoreEvent[] = [];
    const { emit } = createEmitter("test", (e) => events.push(e));
    const terminals = createTerminalManager({
      emit,
      sessionDir: tempDir("yuj-sbx-term-session-"),
      env,
      sandbox: createSandbox(config, env, { projectDir: project }),
    });
    const name = marker("term");
    const outcome = await terminals.start(`touch ${name}`, project);
    expect(outcome).toEqual({
      ok: false,
      error:
        "sandbox unavailable: bubblewrap (bwrap) is not installed (not found on PATH): apt-get install bubblewrap; the command was not run",
    });
    expect(events).toEqual([]);
    expect(fs.existsSync(path.join(project, name))).toBe(false);
  });
});

describe("bwrap missing, mode auto", () => {
  it("runs unsandboxed, with one notice for the session", async () => {
    const h = makeHarness({ env: envWithout(), adjust: (c) => void (c.sandbox.mode = "auto") });
    const a = marker("auto-a");
    const b = marker("auto-b");
    expect((await h.run(`touch ${a}`)).snap.exitCode).toBe(0);
    expect((await h.run(`touch ${b}`)).snap.exitCode).toBe(0);
    expect(fs.existsSync(path.join(h.project, a))).toBe(true);
    expect(fs.existsSync(path.join(h.project, b))).toBe(true);
    const notices = h.events.filter((e) => e.type === "notice");
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({
      level: "warning",
      text:
        "sandbox off: bubblewrap (bwrap) is not installed (not found on PATH): apt-get install bubblewrap. " +
        'Commands run unsandboxed, with your permissions (set [sandbox].mode = "on" to refuse to run without it, or "off" to silence this notice)',
    });
  });

  it("is the default when nothing is configured", async () => {
    const h = makeHarness({ env: envWithout(), adjust: (c) => void delete c.sandbox.mode });
    expect(h.sandbox.mode).toBe("auto");
    expect(h.sandbox.modeSource).toBe("default");
    expect((await h.run("true")).snap.exitCode).toBe(0);
  });

  it("acts as on when unreadable_paths is set: hiding them needs the sandbox", async () => {
    const h = makeHarness({
      env: envWithout(),
      adjust: (c) => {
        c.sandbox.mode = "auto";
        c.sandbox.unreadable_paths = ["optional:/nonexistent"];
      },
    });
    const name = marker("auto-unread");
    const { text, snap } = await h.run(`touch ${name}`);
    expect(snap.exitCode).toBe(126);
    expect(text).toBe(
      "yuj: sandbox unavailable: bubblewrap (bwrap) is not installed (not found on PATH): apt-get install bubblewrap " +
        "([sandbox].unreadable_paths needs the sandbox); the command was not run\n",
    );
    expect(fs.existsSync(path.join(h.project, name))).toBe(false);
  });
});

describe("the older [tools] keys", () => {
  const modeOf = (adjust: Parameters<typeof makeHarness>[0]) => makeHarness({ env: envWithout(), ...adjust }).sandbox;

  it("sandbox_bash = true (sandbox_required defaults to true) is mode on: fail closed", async () => {
    const h = makeHarness({
      env: envWithout(),
      adjust: (c) => {
        delete c.sandbox.mode;
        c.tools.sandbox_bash = true;
      },
    });
    expect(h.sandbox.mode).toBe("on");
    const name = marker("legacy-on");
    expect((await h.run(`touch ${name}`)).text).toBe(MISSING);
    expect(fs.existsSync(path.join(h.project, name))).toBe(false);
  });

  it("sandbox_bash = false is off; with sandbox_required = false it is auto; [sandbox].mode wins over both", () => {
    const off = modeOf({ adjust: (c) => void (delete c.sandbox.mode, (c.tools.sandbox_bash = false)) });
    expect([off.mode, off.modeSource]).toEqual(["off", "[tools].sandbox_bash = false"]);
    const auto = modeOf({
      adjust: (c) => void (delete c.sandbox.mode, (c.tools.sandbox_bash = true), (c.tools.sandbox_required = false)),
    });
    expect(auto.mode).toBe("auto");
    const explicit = modeOf({ adjust: (c) => void ((c.sandbox.mode = "on"), (c.tools.sandbox_bash = false)) });
    expect([explicit.mode, explicit.modeSource]).toEqual(["on", "[sandbox].mode"]);
  });
});
