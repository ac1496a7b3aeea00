// The [[hooks.<point>]] settings: what a mistake in one says.

import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../core/config/load.js";

function load(toml: string) {
  const dir = mkdtempSync(join(tmpdir(), "yuj-hooks-config-"));
  const file = join(dir, "hooks.toml");
  writeFileSync(file, toml);
  return () => loadConfig({ cwd: dir, env: { HOME: dir }, home: dir, configFiles: [file] });
}

describe("[hooks] settings", () => {
  it("takes an entry with its defaults: timeout 30 s, automation joins before the next request and notifies", () => {
    const { config } = load('[[hooks.on_tool_call]]\ncommand = ["true"]\n[[hooks.on_tool_batch_complete]]\nshell = "true"\n')();
    expect(config.hooks.on_tool_call[0]).toMatchObject({ command: ["true"], timeout: 30, only_on_error: false });
    expect(config.hooks.on_tool_batch_complete[0]).toMatchObject({ join: "before_next_llm", result: "notify_only", result_format: "tail" });
  });

  it("an entry with both command and shell, or neither, names the entry and says which to give", () => {
    expect(load('[[hooks.on_idle]]\ncommand = ["true"]\nshell = "true"\n')).toThrow(/hooks\.on_idle\[0\]: give either command \(an argv list\) or shell \(a command line\), not both and not neither/);
    expect(load("[[hooks.on_idle]]\ntimeout = 5\n")).toThrow(/hooks\.on_idle\[0\]: give either command/);
  });

  it("an unknown point, or a result mode only automation has, is an unknown key", () => {
    expect(load('[[hooks.after_edit]]\nshell = "true"\n')).toThrow(/unknown key hooks\.after_edit/);
    expect(load('[[hooks.on_tool_call]]\nshell = "true"\nresult = "always_append"\n')).toThrow(/unknown key hooks\.on_tool_call\[0\]\.result/);
  });
});
