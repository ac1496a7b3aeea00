// Yuj background bash as the reference pins it, through the real dispatcher
// and real process groups: a poll returns only what is new, a poll's wait is
// capped by [tools].background_poll_timeout, live background commands are
// limited by [tools].background_max_procs (only live ones count), bash_kill
// stops the whole group, and the session's end stops every child.

import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../core/config/load.js";
import { livePidsWith, uniqueSleep } from "../support/procs.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";
import { yujCall } from "../support/yuj-call.js";
import { baseToolset } from "../support/loop-harness.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext((c) => {
    c.tools.background_enabled = true;
  });
});
afterEach(async () => {
  await t.cleanup();
});

const start = async (cmd: string): Promise<string> => {
  const r = await yujCall(t, "bash", { cmd, background: true });
  expect(r.ok).toBe(true);
  const id = /^Started background process (\S+)\. Poll it with bash_poll\(proc_id='\1'\)\.$/.exec(r.text)?.[1];
  expect(id).toBeDefined();
  return id!;
};
const poll = (proc_id: string, timeout_s?: number) => yujCall(t, "bash_poll", { proc_id, ...(timeout_s === undefined ? {} : { timeout_s }) });

/** The live `sleep TAG` processes themselves, not the shells whose command lines name them. */
const sleeps = (tag: string): number[] =>
  livePidsWith(tag).filter((pid) => {
    try {
      return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")[0] === "sleep";
    } catch {
      return false;
    }
  });

/** Waits until `check` holds (real processes take a moment to go). */
async function until(check: () => boolean, ms = 5000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

describe("the surface follows [tools].background_enabled", () => {
  it("off: no bash_poll, no bash_kill, no `background` on bash, and each call says how to turn it on", async () => {
    t.ctx.config.tools.background_enabled = false;
    const off = baseToolset(t.ctx.config);
    expect([off.names.has("bash_poll"), off.names.has("bash_kill")]).toEqual([false, false]);
    expect(Object.keys(off.tools.get("bash")!.spec.parameters.properties ?? {})).toEqual(["cmd"]);
    expect(await yujCall(t, "bash", { cmd: "echo hi", background: true })).toEqual({
      ok: false,
      text: "ERROR: background commands are disabled (set [tools].background_enabled = true)",
    });
    expect((await poll("j1")).text).toMatch(/^ERROR: the bash_poll tool is disabled in this session \(\[tools\]\.background_enabled = true turns it on\)\./);
  });

  it("on: both controls, and bash takes a boolean `background`", () => {
    const on = baseToolset(t.ctx.config);
    expect([on.names.has("bash_poll"), on.names.has("bash_kill")]).toEqual([true, true]);
    expect((on.tools.get("bash")!.spec.parameters.properties as Record<string, { type: string }>).background?.type).toBe("boolean");
  });
});

describe("bash_poll", () => {
  it("returns only the output added since the previous poll", async () => {
    const id = await start("echo ready; sleep 0.6; echo request complete");
    expect((await poll(id, 5)).text).toBe(`ready\n[background process ${id}: running]`);
    // The second poll waits for the rest and the exit; the first line is not repeated.
    let second = (await poll(id, 5)).text;
    if (second.endsWith("running]")) second = (await poll(id, 5)).text;
    expect(second).toBe(`request complete\n[background process ${id}: exited (0)]`);
    expect((await poll(id, 0)).text).toBe(`[background process ${id}: exited (0)]`);
  });

  it("waits no longer than [tools].background_poll_timeout, whatever timeout_s asks", async () => {
    t.ctx.config.tools.background_poll_timeout = 0.5;
    const id = await start("sleep 30");
    const began = Date.now();
    expect((await poll(id, 99)).text).toBe(`[background process ${id}: running]`);
    const waited = Date.now() - began;
    expect(waited).toBeGreaterThanOrEqual(450);
    expect(waited).toBeLessThan(3000);
  });
});

describe("[tools].background_max_procs", () => {
  it("refuses a start past the limit, naming the running ones and what frees a place", async () => {
    t.ctx.config.tools.background_max_procs = 2;
    const a = await start("sleep 30");
    const b = await start("sleep 30");
    const r = await yujCall(t, "bash", { cmd: "touch third.txt", background: true });
    expect(r).toEqual({
      ok: false,
      text:
        `ERROR: background process limit reached (2): ${a}, ${b} still running. ` +
        "Stop one with bash_kill or wait for it to exit (bash_poll) before starting another; [tools].background_max_procs sets the limit.",
    });
    // Only live commands count: once one is killed, the next start is admitted.
    expect((await yujCall(t, "bash_kill", { proc_id: a })).text).toMatch(new RegExp(`^Killed background process ${a} `));
    await start("sleep 30");
  });

  it("counts what a foreground command left running, since it is polled and killed like one", async () => {
    t.ctx.config.tools.background_max_procs = 1;
    const fg = await yujCall(t, "bash", { cmd: "sleep 30 & echo started" });
    const id = /still run as proc_id (\S+);/.exec(fg.text)?.[1];
    expect(fg.text).toBe(`started\n[the command exited but processes it started still run as proc_id ${id}; use bash_poll / bash_kill]`);
    expect((await yujCall(t, "bash", { cmd: "sleep 30", background: true })).text).toMatch(
      new RegExp(`^ERROR: background process limit reached \\(1\\): ${id} still running\\. `),
    );
  });

  it("counts a command that has exited as no longer running", async () => {
    t.ctx.config.tools.background_max_procs = 1;
    const a = await start("echo done");
    expect((await poll(a, 5)).text).toBe(`done\n[background process ${a}: exited (0)]`);
    await start("sleep 30");
  });

  it("defaults to 4 live commands and a 300 s poll cap; a config file may set both, within range", () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), "y-bash-home-"));
    const file = path.join(home, ".config", "yuj", "config.toml");
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const load = (text: string) => {
      fs.writeFileSync(file, `[tools]\n${text}\n`);
      try {
        return loadConfig({ cwd: t.cwd, env: {}, home }).config.tools;
      } catch (err) {
        return (err as Error).message;
      }
    };
    try {
      expect(load("")).toMatchObject({ background_max_procs: 4, background_poll_timeout: 300 });
      expect(load("background_max_procs = 2\nbackground_poll_timeout = 1.5")).toMatchObject({ background_max_procs: 2, background_poll_timeout: 1.5 });
      expect(load("background_max_procs = 0")).toContain("tools.background_max_procs");
      expect(load("background_poll_timeout = -1")).toContain("tools.background_poll_timeout");
      expect(load("background_poll_timeout = nan")).toContain("tools.background_poll_timeout");
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
});

describe("bash_kill and the session's end", () => {
  it("bash_kill stops every process of the command's group, not only the shell", async () => {
    const tag = uniqueSleep();
    const id = await start(`sleep ${tag} & sleep ${tag} & wait`);
    expect(await until(() => sleeps(tag).length === 2)).toBe(true);
    const killed = await yujCall(t, "bash_kill", { proc_id: id });
    expect(killed.text).toMatch(new RegExp(`^Killed background process ${id} \\(process group \\d+\\)$`));
    expect(await until(() => sleeps(tag).length === 0)).toBe(true);
    expect((await yujCall(t, "bash_kill", { proc_id: id })).text).toMatch(new RegExp(`^Background process ${id} already exited`));
  });

  it("the session's end stops every background child still running", async () => {
    const tag = uniqueSleep();
    await start(`sleep ${tag}`);
    await start(`sleep ${tag} & wait`);
    expect(await until(() => sleeps(tag).length === 2)).toBe(true);
    await t.ctx.jobs!.shutdown();
    expect(await until(() => sleeps(tag).length === 0)).toBe(true);
  });

  it("names the live ones when asked for an unknown proc_id", async () => {
    const id = await start("sleep 30");
    expect((await poll("p9999", 0)).text).toBe(`ERROR: unknown background process 'p9999'. Running: ${id}.`);
  });
});
