// With the sandbox off, processes that leave their command's process group
// (setsid, a daemon's fork-setsid-fork) or stay in it quietly (a subshell's
// `&`, nohup) are still ended however yuj ends: the built CLI, a scripted
// model that starts them from a foreground and a background command on each
// surface and from the interactive terminal, then a normal end, SIGINT,
// SIGTERM, an uncaught error, or SIGKILL followed by the next start. /proc
// is searched for every one of them afterwards.

import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { isolatedEnv, runCli, waitUntil, yujBin } from "../support/cli.js";
import { livePidsNamed } from "../support/procs.js";

const KINDS = ["setsid", "subshell", "nohup", "daemon"] as const;

/** Starts one long sleep of each kind, each named `<prefix>-<kind>` in /proc. */
function escapes(prefix: string): string {
  const sleeper = (kind: string) => `exec -a ${prefix}-${kind} sleep 1000`;
  return [
    `setsid bash -c '${sleeper("setsid")}' >/dev/null 2>&1 </dev/null &`,
    `(bash -c '${sleeper("subshell")}' >/dev/null 2>&1 </dev/null &) &`,
    `nohup bash -c '${sleeper("nohup")}' >/dev/null 2>&1 </dev/null &`,
    `python3 -c 'import os; os.fork() and os._exit(0); os.setsid(); os.fork() and os._exit(0); ` +
      `os.execvp("bash", ["bash", "-c", "${sleeper("daemon")}"])' >/dev/null 2>&1 </dev/null`,
  ].join("\n");
}

type Surface = "_base" | "chord";

/** The scenario's calls, and the names that must be alive while yuj waits for the go file. */
function plan(surface: Surface, token: string): { calls: unknown[]; waitCall: unknown; alive: string[] } {
  const bg = `${escapes(`${token}-bg`)}\nexec -a ${token}-bg-main sleep 1000`;
  const fg = `${escapes(`${token}-fg`)}\nsleep 0.3`;
  const waitForGo = "until [ -e go ]; do sleep 0.05; done";
  if (surface === "_base") {
    const pty = `${escapes(`${token}-pty`)}\nexec -a ${token}-pty-main sleep 1000`;
    return {
      calls: [
        { name: "bash", arguments: { cmd: bg, background: true } },
        { name: "terminal_start", arguments: { cmd: pty } },
        // What stays in the group the foreground call ends itself; what left it lives on.
        { name: "bash", arguments: { cmd: fg } },
      ],
      waitCall: { name: "bash", arguments: { cmd: waitForGo } },
      alive: [
        ...["bg", "pty"].flatMap((where) => [...KINDS, "main"].map((k) => `${token}-${where}-${k}`)),
        `${token}-fg-setsid`,
        `${token}-fg-daemon`,
      ],
    };
  }
  return {
    calls: [
      { name: "shell", arguments: { command: bg, description: "background", run_in_background: true } },
      // Its shell exits while the group lives on: promoted to a background job after a second.
      { name: "shell", arguments: { command: fg, description: "foreground", yield_time_ms: 1000 } },
    ],
    waitCall: { name: "shell", arguments: { command: waitForGo, description: "wait for the test" } },
    alive: [...[...KINDS, "main"].map((k) => `${token}-bg-${k}`), ...KINDS.map((k) => `${token}-fg-${k}`)],
  };
}

// A stand-in for a bug: yuj loaded with this throws from a timer on SIGUSR2,
// so its uncaught-error path runs as it would for any unexpected failure.
const hookDir = mkdtempSync(join(tmpdir(), "yuj-throw-hook-"));
const throwHook = join(hookDir, "throw-on-usr2.mjs");
writeFileSync(throwHook, 'process.on("SIGUSR2", () => setTimeout(() => { throw new Error("deliberate failure"); }, 0));\n');

type Ending = "normal end" | "SIGINT" | "SIGTERM" | "uncaught error" | "SIGKILL, then the next start";
const ENDINGS: Ending[] = ["normal end", "SIGINT", "SIGTERM", "uncaught error", "SIGKILL, then the next start"];

const allDead = (names: string[]) => names.every((n) => livePidsNamed(n).length === 0);
const survivors = (names: string[]) => names.filter((n) => livePidsNamed(n).length > 0);

describe.each(["_base", "chord"] as const)("sandbox off, %s surface: nothing a command started survives", (surface) => {
  it.each(ENDINGS)("%s", async (ending) => {
    const token = `yujesc${process.pid}x${Math.floor(Math.random() * 1e9)}`;
    const { calls, waitCall, alive } = plan(surface, token);
    const cwd = mkdtempSync(join(tmpdir(), "yuj-escapes-"));
    const scenario = { turns: [{ text: "Starting.", tool_calls: calls }, { text: "Waiting.", tool_calls: [waitCall] }, { text: "All done." }] };
    writeFileSync(join(cwd, "scenario.json"), JSON.stringify(scenario));
    writeFileSync(
      join(cwd, "yuj.toml"),
      `[provider]\nname = "scripted"\nscenario = "scenario.json"\n[tools]\nbackground_enabled = true\nterminal_enabled = true\n[sandbox]\nmode = "off"\n`,
    );
    const env = isolatedEnv();
    // --yolo: the calls run without approval asks (inline python meets every ask rule).
    const child = spawn(process.execPath, ["--import", pathToFileURL(throwHook).href, yujBin, "code", "start things", "--profile", surface, "--config", "yuj.toml", "--yolo"], {
      cwd,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));

    try {
      await waitUntil(() => survivors(alive).length === alive.length, `every process to start (${alive.join(", ")})`).catch((err: Error) => {
        throw new Error(`${err.message}; yuj printed:\n${output}`);
      });
      if (ending === "normal end") writeFileSync(join(cwd, "go"), "");
      if (ending === "SIGINT") child.kill("SIGINT");
      if (ending === "SIGTERM") child.kill("SIGTERM");
      if (ending === "uncaught error") child.kill("SIGUSR2");
      if (ending.startsWith("SIGKILL")) child.kill("SIGKILL");
      const code = await exited;
      const expected = { "normal end": 0, SIGINT: 130, SIGTERM: 143, "uncaught error": 1, "SIGKILL, then the next start": null }[ending];
      expect(code, output).toBe(expected);
      if (ending === "uncaught error") expect(output).toContain("yuj: fatal: Error: deliberate failure");
      if (ending.startsWith("SIGKILL")) {
        // Nothing could clean up; the next yuj in the same state directory does.
        expect(survivors(alive).length).toBeGreaterThan(0);
        const next = await runCli(["tool", "read", '{"path":"yuj.toml"}'], { cwd, env });
        expect(next.stderr).toMatch(/^yuj: ended \d+ process group\(s\) or process\(es\) left by an earlier yuj that was killed: /);
        expect(next.stderr).toContain(`${token}-bg-setsid`);
      }
      // Zombies count as dead; the kills are sent by now, death follows within moments.
      await waitUntil(() => allDead(alive), `every process to be gone; alive: ${survivors(alive).join(", ")}`, 5000);
      expect(survivors(alive)).toEqual([]);
    } finally {
      if (!existsSync(join(cwd, "go"))) writeFileSync(join(cwd, "go"), "");
      child.kill("SIGKILL");
      for (const name of alive) for (const pid of livePidsNamed(name)) process.kill(pid, "SIGKILL");
    }
  });
});
