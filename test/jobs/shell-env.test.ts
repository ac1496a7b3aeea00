// The environment commands get: secret-looking and provider variables are
// dropped unless [shell_env] says otherwise, ordinary ones stay, and a real
// process started by the job manager or the terminal never sees what was
// dropped.

import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigError } from "../../core/config/errors.js";
import { loadConfig } from "../../core/config/load.js";
import { commandEnv, policyFromConfig, type ShellEnvPolicy } from "../../core/jobs/shell-env.js";
import { createTerminalManager } from "../../core/jobs/terminal.js";
import { createEmitter } from "../../core/events.js";
import { cleanupAll, makeHarness } from "./support.js";

afterEach(cleanupAll);

const SOURCE = {
  PATH: "/usr/bin:/bin",
  HOME: "/home/me",
  LANG: "C.UTF-8",
  TERM: "xterm",
  GIT_AUTHOR_NAME: "Ada Lovelace",
  ANTHROPIC_API_KEY: "sk-ant-1",
  ANTHROPIC_BASE_URL: "http://proxy",
  OPENAI_API_KEY: "sk-oa-1",
  OPENAI_ORG_ID: "org-1",
  GITHUB_TOKEN: "ghp_1",
  AWS_SECRET_ACCESS_KEY: "aws-1",
  DB_PASSWORD: "pw-1",
  MYSQL_PWD_PASSWD: "pw-2",
  GOOGLE_APPLICATION_CREDENTIALS: "/creds.json",
  NPM_CONFIG__AUTH: "npm-1",
  SSH_AUTH_SOCK: "/tmp/agent",
  api_key: "lower-1",
  MY_LLM: "custom-1",
};
const policy = (p: Partial<ShellEnvPolicy> = {}): ShellEnvPolicy => ({ include: [], exclude: [], set: {}, ...p });

describe("the command environment", () => {
  it("drops secret-looking names, the provider variables and the named key variable; keeps the rest", () => {
    expect(commandEnv(SOURCE, policy({ apiKeyEnv: "MY_LLM" }))).toEqual({
      PATH: "/usr/bin:/bin",
      HOME: "/home/me",
      LANG: "C.UTF-8",
      TERM: "xterm",
      GIT_AUTHOR_NAME: "Ada Lovelace",
    });
  });

  it("keeps the key variable when no policy names it, and nothing else changes", () => {
    expect(commandEnv(SOURCE, policy()).MY_LLM).toBe("custom-1");
  });

  it("include keeps what the defaults drop, but the key variable only when named exactly", () => {
    const env = commandEnv(SOURCE, policy({ include: ["*TOKEN*", "ssh_auth_*", "*"], apiKeyEnv: "MY_LLM" }));
    expect(env.GITHUB_TOKEN).toBe("ghp_1");
    expect(env.SSH_AUTH_SOCK).toBe("/tmp/agent");
    expect(env.ANTHROPIC_BASE_URL).toBe("http://proxy");
    // A glob, even "*", never lets a key variable through.
    expect(env.MY_LLM).toBeUndefined();
    expect(env.ANTHROPIC_API_KEY).toBeUndefined();
    expect(env.OPENAI_API_KEY).toBeUndefined();
    const named = commandEnv(SOURCE, policy({ include: ["MY_LLM", "ANTHROPIC_API_KEY"], apiKeyEnv: "MY_LLM" }));
    expect([named.MY_LLM, named.ANTHROPIC_API_KEY]).toEqual(["custom-1", "sk-ant-1"]);
  });

  it("exclude drops more and wins over include; set comes last", () => {
    const env = commandEnv(SOURCE, policy({ include: ["GITHUB_*"], exclude: ["GITHUB_*", "l?ng"], set: { LANG: "fr_FR.UTF-8", CI: "1" } }));
    expect(env.GITHUB_TOKEN).toBeUndefined();
    expect(env.LANG).toBe("fr_FR.UTF-8");
    expect(env.CI).toBe("1");
  });

  it("reads the policy from [shell_env] and [provider].api_key_env", () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "yuj-shellenv-"));
    const file = path.join(tmp, "c.toml");
    fs.writeFileSync(file, '[provider]\napi_key_env = "MY_LLM"\n[shell_env]\ninclude = ["GITHUB_TOKEN"]\nexclude = ["TERM"]\nset = { CI = "true" }\n');
    const { config } = loadConfig({ cwd: tmp, env: {}, home: tmp, configFiles: [file] });
    expect(policyFromConfig(config)).toEqual({ include: ["GITHUB_TOKEN"], exclude: ["TERM"], set: { CI: "true" }, apiKeyEnv: "MY_LLM" });
    const env = commandEnv(SOURCE, policyFromConfig(config));
    expect([env.GITHUB_TOKEN, env.TERM, env.CI, env.MY_LLM]).toEqual(["ghp_1", undefined, "true", undefined]);
  });

  it("rejects a pattern or a variable name that cannot be one, naming the key", () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "yuj-shellenv-"));
    const file = path.join(tmp, "c.toml");
    const fails = (text: string) => {
      fs.writeFileSync(file, text);
      try {
        loadConfig({ cwd: tmp, env: {}, home: tmp, configFiles: [file] });
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        return (err as Error).message;
      }
      throw new Error("the config loaded");
    };
    expect(fails('[shell_env]\ninclude = ["GITHUB TOKEN"]\n')).toContain(
      `shell_env.include[0]: expected a variable name or a glob of one (letters, digits, _, * and ?), got string "GITHUB TOKEN"`,
    );
    expect(fails('[shell_env]\nset = { "1X" = "a" }\n')).toContain(`shell_env.set.1X: the key "1X" must be an environment variable name`);
    expect(fails("[shell_env]\ninclde = []\n")).toContain("unknown key shell_env.inclde");
    expect(fails("[output]\nmax_job_log_bytes = 1000\n")).toContain("output.max_job_log_bytes: expected an integer at least 65536, got number 1000");
  });
});

describe("real processes", () => {
  const planted = { YUJ_PLANTED_TOKEN: "tok-5f1c9a7e3b2d", ANTHROPIC_API_KEY: "sk-ant-2b7d9f1e3c5a" };

  function withPlanted<T>(run: () => Promise<T>): Promise<T> {
    Object.assign(process.env, planted);
    return run().finally(() => {
      for (const k of Object.keys(planted)) delete process.env[k];
    });
  }

  it("a job started with no environment given gets yuj's own under the default policy", async () => {
    await withPlanted(async () => {
      const { manager } = makeHarness();
      const job = manager.start({ command: "env", cwd: process.cwd(), background: false });
      await manager.wait(job.id, "exit", 5000);
      const out = fs.readFileSync(job.outputFile, "utf8");
      expect(out).toMatch(/^PATH=/m);
      expect(out).not.toContain("YUJ_PLANTED_TOKEN");
      expect(out).not.toContain("ANTHROPIC_API_KEY");
      expect(out).not.toContain(planted.YUJ_PLANTED_TOKEN);
    });
  });

  it("the terminal's process gets it too", async () => {
    await withPlanted(async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "yuj-term-env-"));
      const { emit } = createEmitter("test", () => undefined);
      const terminals = createTerminalManager({ emit, sessionDir: dir });
      try {
        const started = await terminals.start("env; echo done-$((2+2))", dir);
        expect(started.ok).toBe(true);
        let text = started.ok ? started.read.text : "";
        for (let i = 0; i < 20 && !text.includes("done-4"); i++) {
          const more = await terminals.io("t1", { timeoutMs: 500 });
          if (more.ok) text += more.read.text;
        }
        expect(text).toContain("done-4");
        expect(text).toMatch(/^HOME=/m);
        expect(text).not.toContain("YUJ_PLANTED_TOKEN");
        expect(text).not.toContain("ANTHROPIC_API_KEY");
      } finally {
        await terminals.shutdown();
      }
    });
  });
});
