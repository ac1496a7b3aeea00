// The [lsp] settings as a user writes them: built-in servers completed or
// turned off field by field, a new server named in full, and clear errors.

import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigError } from "../../core/config/errors.js";
import { loadConfig } from "../../core/config/load.js";
import { effectiveServers, serverForFile } from "../../core/lsp/config.js";
import { findRoot } from "../../core/lsp/manager.js";

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "yuj-lsp-config-"));
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

function load(toml: string) {
  const file = path.join(tmp, "extra.toml");
  fs.writeFileSync(file, toml);
  return loadConfig({ cwd: tmp, env: {}, home: path.join(tmp, "home"), configFiles: [file] }).config;
}

function errorOf(toml: string): string {
  try {
    load(toml);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error("expected a ConfigError");
}

describe("[lsp]", () => {
  it("has typescript-language-server and pyright by default, off until enabled", () => {
    const config = load("");
    expect(config.lsp).toMatchObject({ enabled: false, tool_enabled: false, severity: "error", timeout_s: 20, idle_timeout_s: 600 });
    const servers = effectiveServers(config.lsp.servers);
    expect(servers.map((s) => [s.name, s.command.join(" ")])).toEqual([
      ["pyright", "pyright-langserver --stdio"],
      ["typescript", "typescript-language-server --stdio"],
    ]);
    expect(serverForFile(servers, "/p/src/a.tsx")).toMatchObject({ server: { name: "typescript" }, languageId: "typescriptreact" });
    expect(serverForFile(servers, "/p/m.py")).toMatchObject({ server: { name: "pyright" }, languageId: "python" });
    expect(serverForFile(servers, "/p/README.md")).toBeUndefined();
  });

  it("completes a built-in field by field, turns one off, and adds any stdio server by extension or language id", () => {
    const config = load(
      [
        "[lsp.servers.typescript]",
        'root_markers = ["deno.json"]',
        "[lsp.servers.pyright]",
        "enabled = false",
        "[lsp.servers.gopls]",
        'command = ["gopls"]',
        'languages = ["go"]',
        "[lsp.servers.zls]",
        'command = ["zls"]',
        'extensions = ["zig", ".ZON"]',
        "initialization_options = { enable_snippets = false }",
      ].join("\n"),
    );
    const servers = effectiveServers(config.lsp.servers);
    expect(servers.map((s) => s.name)).toEqual(["gopls", "typescript", "zls"]);
    expect(servers.find((s) => s.name === "typescript")).toMatchObject({ command: ["typescript-language-server", "--stdio"], rootMarkers: ["deno.json"] });
    expect(servers.find((s) => s.name === "zls")).toMatchObject({ extensions: [".zig", ".zon"], initializationOptions: { enable_snippets: false } });
    expect(serverForFile(servers, "/p/main.go")).toMatchObject({ server: { name: "gopls" }, languageId: "go" });
    expect(serverForFile(servers, "/p/build.zon")).toMatchObject({ server: { name: "zls" } });
  });

  it("names what a new server lacks", () => {
    expect(errorOf('[lsp.servers.mine]\nlanguages = ["go"]\n')).toMatch(/lsp\.servers\.mine\.command: required key is missing; set it to a non-empty array of strings/);
    expect(errorOf('[lsp.servers.mine]\ncommand = ["mine"]\n')).toMatch(/lsp\.servers\.mine\.languages: required key is missing; set it to an array of strings/);
    expect(errorOf('[lsp]\nseverity = "fatal"\n')).toMatch(/lsp\.severity: expected one of "error", "warning", "information", "hint"/);
    expect(errorOf("[lsp]\ntimeout_s = 0\n")).toMatch(/lsp\.timeout_s: expected a positive integer/);
    expect(errorOf('[lsp.servers.typescript]\ncmd = ["x"]\n')).toMatch(/unknown key lsp\.servers\.typescript\.cmd/);
  });

  it("refuses one extension claimed by two servers, naming both", () => {
    expect(errorOf('[lsp.servers.one]\ncommand = ["one"]\nextensions = [".py"]\n[lsp.servers.two]\ncommand = ["two"]\nextensions = ["PY"]\n')).toMatch(
      /lsp\.servers\.two\.extensions: extension \.py belongs to both one and two; give it to one of them \(enabled = false turns a server off\)/,
    );
    // Turning the built-in off leaves the extension to the user's server.
    const config = load('[lsp.servers.pyright]\nenabled = false\n[lsp.servers.pylsp]\ncommand = ["pylsp"]\nextensions = ["py"]\n');
    expect(serverForFile(effectiveServers(config.lsp.servers), "/p/m.py")).toMatchObject({ server: { name: "pylsp" } });
  });

  it("takes a command written as one string and a single root marker or extension as a list of one, as the reference does", () => {
    const config = load('[lsp.servers.pyright]\nenabled = false\n[lsp.servers.python]\ncommand = "pyright --stdio"\nextensions = "py"\nroot_markers = "pyproject.toml"\n');
    const [python] = effectiveServers(config.lsp.servers).filter((s) => s.name === "python");
    expect(python).toMatchObject({ command: ["pyright", "--stdio"], extensions: [".py"], rootMarkers: ["pyproject.toml"] });
  });
});

describe("roots", () => {
  it("is the nearest directory with a marker, from the file up to the project, else the project", () => {
    fs.mkdirSync(path.join(tmp, "pkg", "src"), { recursive: true });
    fs.writeFileSync(path.join(tmp, "pkg", "tsconfig.json"), "{}");
    expect(findRoot(path.join(tmp, "pkg", "src", "a.ts"), ["tsconfig.json"], tmp)).toBe(path.join(tmp, "pkg"));
    expect(findRoot(path.join(tmp, "other", "a.ts"), ["tsconfig.json"], tmp)).toBe(tmp);
    // A marker above the project does not count.
    expect(findRoot(path.join(tmp, "pkg", "src", "a.ts"), ["tsconfig.json"], path.join(tmp, "pkg", "src"))).toBe(path.join(tmp, "pkg", "src"));
  });
});
