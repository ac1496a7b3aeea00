// Yuj surface behaviour that configurations and transcripts written for
// other agents of this kind rely on, on real parts: a config file read by
// the real loader, a code cell run by the built yuj with a real python3 and
// a real inner command, and the stale-file guard watching a real bash grep.

import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../core/config/load.js";
import { ConfigError } from "../../core/config/errors.js";
import { guardedSession } from "../guards/session.js";
import { isolatedEnv, runCli } from "../support/cli.js";
import { tempDemoRepo } from "../support/loop-harness.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function configFile(text: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "yuj-suite3-"));
  dirs.push(dir);
  const file = path.join(dir, "code-mode.toml");
  fs.writeFileSync(file, text);
  return { dir, file, load: () => loadConfig({ cwd: dir, env: { HOME: dir }, home: dir, configFiles: [file] }) };
}

function errorOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof ConfigError) return err.message;
    throw err;
  }
  throw new Error("no config error");
}

describe("code mode's settings under the names exec_cell_enabled and exec_cell_timeout", () => {
  it("are read as [tools].code_mode and code_cell_timeout, with a note naming yuj's keys", () => {
    const c = configFile("[tools]\nexec_cell_enabled = true\nexec_cell_timeout = 9\n");
    const loaded = c.load();
    expect(loaded.config.tools.code_mode).toBe(true);
    expect(loaded.config.tools.code_cell_timeout).toBe(9);
    expect(loaded.notes).toEqual([
      `${c.file}: tools.exec_cell_enabled is read as tools.code_mode (yuj's name for the setting); rename the key to silence this note`,
      `${c.file}: tools.exec_cell_timeout is read as tools.code_cell_timeout (yuj's name for the setting); rename the key to silence this note`,
    ]);
  });

  it("yuj doctor shows the note", async () => {
    const cwd = tempDemoRepo();
    dirs.push(cwd);
    fs.writeFileSync(path.join(cwd, "yuj.toml"), "[tools]\nexec_cell_timeout = 9\n");
    const res = await runCli(["doctor", "--config", "yuj.toml"], { cwd, env: isolatedEnv(), timeoutMs: 60_000 });
    expect(res.stdout).toContain(`[warn] config: ${fs.realpathSync(cwd)}/yuj.toml: tools.exec_cell_timeout is read as tools.code_cell_timeout (yuj's name for the setting); rename the key to silence this note`);
  }, 60_000);

  it("a file with yuj's own names has no note", () => {
    const loaded = configFile("[tools]\ncode_mode = true\n").load();
    expect(loaded.config.tools.code_mode).toBe(true);
    expect(loaded.notes).toEqual([]);
  });

  it.each(['"yes"', "0", "1.5"])("a bad timeout %s is an error that names the key as written", (value) => {
    const c = configFile(`[tools]\nexec_cell_timeout = ${value}\n`);
    expect(errorOf(c.load)).toMatch(/^config error in .*code-mode\.toml: tools\.exec_cell_timeout \(read as tools\.code_cell_timeout\): expected /);
  });

  it("a non-boolean switch is an error that names the key as written", () => {
    const c = configFile('[tools]\nexec_cell_enabled = "yes"\n');
    expect(errorOf(c.load)).toContain('tools.exec_cell_enabled (read as tools.code_mode): expected true or false, got string "yes"');
  });

  it("both names of one setting in one file is an error", () => {
    const c = configFile("[tools]\nexec_cell_enabled = true\ncode_mode = false\n");
    expect(errorOf(c.load)).toBe(
      `config error in ${c.file}: tools.exec_cell_enabled and tools.code_mode are both set: exec_cell_enabled is another name for code_mode; remove exec_cell_enabled`,
    );
  });
});

describe("a code cell that reaches its whole-cell timeout", () => {
  it("stops the inner command, whose result says the cell timed out (not that the user cancelled)", async () => {
    const cwd = tempDemoRepo();
    dirs.push(cwd);
    const source = "print('started', flush=True)\nprint('INNER<' + bash(cmd='sleep 30') + '>INNER', flush=True)\n";
    const turns = [
      { tool_calls: [{ name: "exec_cell", arguments: { source } }] },
      { tool_calls: [{ name: "done", arguments: { message: "finished" } }] },
    ];
    fs.writeFileSync(path.join(cwd, "scenario.json"), JSON.stringify({ turns }));
    // The reference's key names, so the alias is exercised end to end too.
    fs.writeFileSync(path.join(cwd, "yuj.toml"), '[provider]\nname = "scripted"\nscenario = "scenario.json"\n[tools]\nexec_cell_enabled = true\nexec_cell_timeout = 2\n[sandbox]\nmode = "off"\n');
    const res = await runCli(["code", "work", "--config", "yuj.toml", "--output", "jsonl"], { cwd, env: isolatedEnv(), timeoutMs: 60_000 });
    expect(res.code, res.stderr).toBe(0);
    const results = res.stdout.trim().split("\n").map((l) => JSON.parse(l)).filter((r) => r.type === "tool_result");
    const inner = results.find((r) => r.parentCallId !== undefined && r.name === "bash");
    expect(inner?.ok).toBe(false);
    expect(inner?.modelText).toMatch(/^ERROR: the cell timed out after 2 seconds \(\[tools\]\.code_cell_timeout\) before the tool finished/);
    expect(inner?.modelText).not.toContain("cancelled by the user");
    const cell = results.find((r) => r.name === "exec_cell");
    expect(cell?.modelText).toMatch(/^started\nERROR: cell timed out after 2 seconds /);
  }, 90_000);
});

describe("stale-file guard: a one-file search through bash that found nothing", () => {
  it.each([
    ["grep absent src.py", true],
    ["rg --line-number absent src.py", true],
    ["grep needle src.py", true],
    // Not a read of the file: an error (exit 2), a count, and a file that does not exist.
    ["grep -E '(' src.py", false],
    ["grep -c absent src.py", false],
  ])("%j counts as a read of it: %s", async (cmd, credited) => {
    const s = await guardedSession((c) => (c.tools.stale_file = "block"));
    try {
      await s.put({ "src.py": "needle\n" });
      await s.call("bash", { cmd });
      const w = await s.call("write", { path: "src.py", content: "new\n" });
      expect(w.modelText).toBe(credited ? "OK: wrote 4 bytes to src.py" : "ERROR: stale_file: read src.py first");
    } finally {
      await s.cleanup();
    }
  });

  it("a search of a file that is not there records nothing", async () => {
    const s = await guardedSession((c) => (c.tools.stale_file = "block"));
    try {
      expect((await s.call("bash", { cmd: "grep absent missing.py" })).ok).toBe(false);
      await s.put({ "missing.py": "made later\n" });
      const w = await s.call("write", { path: "missing.py", content: "new\n" });
      expect(w.modelText).toBe("ERROR: stale_file: read missing.py first");
    } finally {
      await s.cleanup();
    }
  });
});
