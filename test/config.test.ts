import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parse } from "smol-toml";
import { ConfigError } from "../core/config/errors.js";
import { loadConfig, writeUserConfig, type LoadConfigOptions } from "../core/config/load.js";
import { defaultConfig } from "../core/config/schema.js";
import { projectConfigPath, sessionsDir, stateDir, userConfigPath } from "../core/paths.js";
import { projectKey, recordTrust, sha256, trustStorePath } from "../core/config/trust-store.js";

let tmp: string;
let home: string;
let cwd: string;

beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "yuj-config-"));
  home = path.join(tmp, "home");
  cwd = path.join(tmp, "proj");
  fs.mkdirSync(cwd, { recursive: true });
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

function put(file: string, text: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}
const userFile = () => path.join(home, ".config", "yuj", "config.toml");
const projectFile = () => path.join(cwd, ".yuj", "config.toml");
const load = (extra: Partial<LoadConfigOptions> = {}) => loadConfig({ cwd, env: {}, home, ...extra });

/** The ConfigError's message, failing the test if anything else happens. */
function errorOf(run: () => unknown): ConfigError {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error("expected a ConfigError, but loading succeeded");
}

describe("paths", () => {
  it("uses XDG variables when absolute, and ~/.config, ~/.local/state otherwise", () => {
    expect(userConfigPath({}, "/h")).toBe("/h/.config/yuj/config.toml");
    expect(userConfigPath({ XDG_CONFIG_HOME: "/x/cfg" }, "/h")).toBe("/x/cfg/yuj/config.toml");
    expect(userConfigPath({ XDG_CONFIG_HOME: "relative" }, "/h")).toBe("/h/.config/yuj/config.toml");
    expect(userConfigPath({ HOME: "/from-env" })).toBe("/from-env/.config/yuj/config.toml");
    expect(stateDir({}, "/h")).toBe("/h/.local/state/yuj");
    expect(sessionsDir({ XDG_STATE_HOME: "/x/state" }, "/h")).toBe("/x/state/yuj/sessions");
    expect(projectConfigPath("/repo")).toBe("/repo/.yuj/config.toml");
  });
});

describe("loadConfig", () => {
  it("gives the built-in defaults when no file exists, and lists the files it looked for", () => {
    const { config, sources } = load();
    expect(config).toEqual(defaultConfig());
    expect(config.tools.bash_timeout).toBe(120);
    expect(config.profile).toBe("_base");
    expect(sources).toEqual([
      { path: userFile(), found: false },
      { path: projectFile(), found: false },
    ]);
  });

  it("layers user < project < each --config in order < overrides, merging tables and replacing arrays", () => {
    put(userFile(), `
[tools]
bash_timeout = 10
grep_timeout = 7
sink_tail_bytes = 3
[loop]
max_turns = 5
[[permissions.rules]]
tool = "bash"
action = "ask"
[[permissions.rules]]
tool = "read"
action = "allow"
`);
    put(projectFile(), `[tools]\nbash_timeout = 20\n[[permissions.rules]]\ntool = "bash"\naction = "deny"\n`);
    // Dropping the user's rules is loosening: the project is trusted here (see test/config-trust.test.ts).
    recordTrust(trustStorePath({}, home), projectKey(cwd), { file: projectFile(), sha256: sha256(fs.readFileSync(projectFile())) });
    const a = put(path.join(tmp, "a.toml"), `[tools]\nbash_timeout = 30\nsink_head_bytes = 1\n[loop]\nmax_turns = 6\n`);
    put(path.join(cwd, "b.toml"), `[tools]\nbash_timeout = 40\n`);

    const { config, sources } = load({
      configFiles: [a, "b.toml"], // relative to cwd
      overrides: { tools: { sink_head_bytes: 99, grep_timeout: undefined, sink_tail_bytes: null } },
    });
    expect(config.tools.bash_timeout).toBe(40); // b.toml, the last --config
    expect(config.tools.sink_head_bytes).toBe(99); // overrides beat every file
    expect(config.tools.grep_timeout).toBe(7); // user key survives: tables merge
    expect(config.loop.max_turns).toBe(6);
    expect(config.tools.glob_max_listed_paths).toBe(50); // untouched default
    expect(config.permissions.rules).toEqual([{ tool: "bash", action: "deny" }]); // array replaced
    expect(config.tools.sink_tail_bytes).toBe(1000); // null resets to the default
    expect(sources.map((s) => [s.path, s.found])).toEqual([
      [userFile(), true],
      [projectFile(), true],
      [a, true],
      [path.join(cwd, "b.toml"), true],
    ]);
  });

  it("honours XDG_CONFIG_HOME and then ignores ~/.config", () => {
    const xdg = path.join(tmp, "xdg");
    put(path.join(xdg, "yuj", "config.toml"), `[loop]\nmax_turns = 11\n`);
    put(userFile(), `[loop]\nmax_turns = 99\n`);
    const { config, sources } = load({ env: { XDG_CONFIG_HOME: xdg } });
    expect(config.loop.max_turns).toBe(11);
    expect(sources[0]).toEqual({ path: path.join(xdg, "yuj", "config.toml"), found: true });
  });

  it("names the file and suggests the key for an unknown key", () => {
    const file = put(path.join(tmp, "a.toml"), `[tools]\nbash_timout = 5\n`);
    expect(errorOf(() => load({ configFiles: [file] })).message).toBe(
      `config error in ${file}: unknown key tools.bash_timout (did you mean tools.bash_timeout?)`,
    );
  });

  it("suggests the right table for a key in the wrong one, and lists the keys of small tables", () => {
    put(projectFile(), `bash_timeout = 5\n[[permissions.rules]]\ntool = "x"\naction = "allow"\nwhatever = 1\n`);
    const message = errorOf(() => load()).message;
    expect(message).toContain(`unknown key bash_timeout (did you mean tools.bash_timeout? move it there)`);
    expect(message).toContain(`unknown key permissions.rules[0].whatever (remove it; the keys allowed here are tool, pattern, action)`);
  });

  it("names file, key path and expected type for a wrong type", () => {
    put(projectFile(), `[tools]\nbash_timeout = "abc"\n`);
    const err = errorOf(() => load());
    expect(err.message).toBe(
      `config error in ${projectFile()}: tools.bash_timeout: expected a number at least 0, got string "abc"`,
    );
    expect(err.issues).toEqual([expect.objectContaining({ file: projectFile(), key: "tools.bash_timeout" })]);
  });

  it("describes ranges, enums and whole-table type errors", () => {
    put(projectFile(), `tools = 3\n[loop]\nplan_mode = "sometimes"\nmax_turns = 1.5\n[output]\ntruncate_head_ratio = 2\n`);
    const message = errorOf(() => load()).message;
    expect(message).toContain(`loop.plan_mode: expected one of "off", "required", got string "sometimes"`);
    expect(message).toContain(`loop.max_turns: expected a positive integer, got number 1.5`);
    expect(message).toContain(`output.truncate_head_ratio: expected a number from 0 to 1, got number 2`);
    expect(message).toContain(`tools: expected a table, got number 3`);
  });

  it("reports a TOML syntax error with file, line and column", () => {
    put(projectFile(), `[tools]\nbash_timeout = = 5\n`);
    const err = errorOf(() => load());
    expect(err.message).toMatch(
      new RegExp(`^config error in ${projectFile().replace(/[.]/g, "\\.")}: TOML syntax error at line 2, column \\d+: `),
    );
    expect(err.issues[0]).toMatchObject({ line: 2 });
  });

  it("fails on a missing --config file but not on missing user or project files", () => {
    const missing = path.join(tmp, "nope.toml");
    expect(errorOf(() => load({ configFiles: [missing] })).message).toBe(
      `config error in ${missing}: file not found (given with --config); check the path`,
    );
  });

  it("rejects an unknown permission action and an unknown rule field, naming the rule", () => {
    put(projectFile(), `
[[permissions.rules]]
tool = "read"
action = "allow"
[[permissions.rules]]
tool = "edit"
action = "ask"
[[permissions.rules]]
tool = "bash"
patern = "rm *"
action = "permit"
`);
    const err = errorOf(() => load());
    expect(err.message).toContain(
      `config error in ${projectFile()}: permissions.rules[2].action: expected one of "allow", "ask", "deny", got string "permit"`,
    );
    expect(err.message).toContain(`unknown key permissions.rules[2].patern (did you mean permissions.rules[2].pattern?)`);
  });

  it("reads [post_edit_check] and names a bad on_fail", () => {
    put(userFile(), `[post_edit_check]\nenabled = true\ntimeout = 5\n\n[[post_edit_check.checks]]\nname = "lint"\nwhen = "*.py"\ncmd = "ruff check {path}"\non_fail = "block"\n`);
    const { config } = load();
    expect(config.post_edit_check).toEqual({
      enabled: true,
      timeout: 5,
      checks: [{ name: "lint", trigger: "edit|write", when: "*.py", cmd: "ruff check {path}", on_fail: "block" }],
    });
    put(userFile(), `[[post_edit_check.checks]]\nname = "lint"\ncmd = "x"\non_fail = "stop"\n`);
    expect(errorOf(() => load()).message).toContain(
      `post_edit_check.checks[0].on_fail: expected one of "append", "warn", "block", got string "stop"`,
    );
  });

  it("requires each rule to be complete in its own layer, because arrays replace", () => {
    put(userFile(), `[[permissions.rules]]\ntool = "bash"\n`);
    expect(errorOf(() => load()).message).toBe(
      `config error in ${userFile()}: permissions.rules[0].action: required key is missing; set it to one of "allow", "ask", "deny"`,
    );
  });

  it("blames the layer holding the bad key, not the first or last file", () => {
    put(userFile(), `[tools]\nbash_timeout = 5\n`);
    const a = put(path.join(tmp, "a.toml"), `[loop]\nmax_turns = -1\n`);
    const b = put(path.join(tmp, "b.toml"), `[loop]\nplan_max_turns = 2\n`);
    expect(errorOf(() => load({ configFiles: [a, b] })).message).toBe(
      `config error in ${a}: loop.max_turns: expected a positive integer, got number -1`,
    );
  });

  it("lets table entries be completed by a later layer, and blames the last one when still incomplete", () => {
    put(userFile(), `[lsp.servers.ts]\ncommand = ["tsls", "--stdio"]\n`);
    put(projectFile(), `[lsp.servers.ts]\nlanguages = ["typescript"]\n`);
    expect(load().config.lsp.servers.ts).toEqual({
      command: ["tsls", "--stdio"],
      languages: ["typescript"],
      enabled: true,
    });
    fs.rmSync(userFile());
    expect(errorOf(() => load()).message).toBe(
      `config error in ${projectFile()}: lsp.servers.ts.command: required key is missing; set it to a non-empty array of strings`,
    );
  });

  it("validates overrides and names them as command-line options", () => {
    expect(errorOf(() => load({ overrides: { loop: { max_turns: 0 } } })).message).toBe(
      `config error in command-line options: loop.max_turns: expected a positive integer, got number 0`,
    );
  });

  it("rejects a __proto__ key as unknown instead of merging it into the prototype", () => {
    put(projectFile(), `[tools.__proto__]\nbash_timeout = 1\n`);
    expect(errorOf(() => load()).message).toContain("unknown key tools.__proto__");
    expect(({} as Record<string, unknown>).bash_timeout).toBeUndefined();
  });
});

describe("writeUserConfig", () => {
  it("merges a patch into the file, keeping other keys, and creates missing directories", () => {
    const file = path.join(tmp, "fresh", "yuj", "config.toml");
    writeUserConfig(file, { provider: { name: "anthropic", model: "m1" } });
    expect(parse(fs.readFileSync(file, "utf8"))).toEqual({ provider: { name: "anthropic", model: "m1" } });

    fs.writeFileSync(file, `[provider]\nname = "anthropic"\nmodel = "m1"\n\n[tools]\nbash_timeout = 5\n`);
    writeUserConfig(file, { provider: { model: "m2", api_key_env: "MY_KEY" }, loop: { max_turns: 9 } });
    expect(parse(fs.readFileSync(file, "utf8"))).toEqual({
      provider: { name: "anthropic", model: "m2", api_key_env: "MY_KEY" },
      tools: { bash_timeout: 5 },
      loop: { max_turns: 9 },
    });
    writeUserConfig(file, { provider: { model: null } }); // null removes a key
    expect(parse(fs.readFileSync(file, "utf8")).provider).toEqual({ name: "anthropic", api_key_env: "MY_KEY" });
    expect(fs.readdirSync(path.dirname(file))).toEqual(["config.toml"]); // no temp file left
  });

  it("is what loadConfig reads back from the XDG location", () => {
    const xdg = path.join(tmp, "xdg");
    writeUserConfig(userConfigPath({ XDG_CONFIG_HOME: xdg }, home), { tools: { bash_timeout: 77 } });
    expect(load({ env: { XDG_CONFIG_HOME: xdg } }).config.tools.bash_timeout).toBe(77);
  });

  it("refuses a patch that would make the file invalid, leaving the file as it was", () => {
    const file = put(userFile(), `[tools]\nbash_timeout = 5\n`);
    const before = fs.readFileSync(file, "utf8");
    const bad = { tools: { bash_timeout: "soon" } } as unknown as Parameters<typeof writeUserConfig>[1];
    expect(errorOf(() => writeUserConfig(file, bad)).message).toBe(
      `config error in ${file}: tools.bash_timeout: expected a number at least 0, got string "soon"`,
    );
    expect(fs.readFileSync(file, "utf8")).toBe(before);
  });

  it("refuses to overwrite a file with a syntax error", () => {
    const file = put(userFile(), `[tools\n`);
    expect(errorOf(() => writeUserConfig(file, { loop: { max_turns: 3 } })).message).toContain("TOML syntax error at line 1");
    expect(fs.readFileSync(file, "utf8")).toBe(`[tools\n`);
  });
});
