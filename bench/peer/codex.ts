// The pinned peer for side-by-side runs: `@openai/codex` from npm, installed
// once into bench/.peers/codex (ignored by git), run with a HOME of its own
// whose config points it at the local scripted server and turns off every
// feature that would reach the network at start.

import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const CODEX_VERSION = "0.171.0";
const peerDir = join(import.meta.dirname, "..", ".peers", "codex");
const codexBin = join(peerDir, "node_modules", ".bin", "codex");

/** The codex launcher, installed on first use (npm; the package carries the linux-x64 binary). */
export function ensureCodex(): string {
  if (existsSync(codexBin)) {
    const v = spawnSync(codexBin, ["--version"], { encoding: "utf8" });
    if (v.stdout.includes(CODEX_VERSION)) return codexBin;
  }
  mkdirSync(peerDir, { recursive: true });
  writeFileSync(join(peerDir, "package.json"), JSON.stringify({ name: "bench-peers", private: true }) + "\n");
  const r = spawnSync("npm", ["i", "--no-audit", "--no-fund", `@openai/codex@${CODEX_VERSION}`], { cwd: peerDir, stdio: "inherit" });
  if (r.status !== 0) throw new Error(`installing @openai/codex@${CODEX_VERSION} into ${peerDir} failed (exit ${r.status}); check npm's access to the registry`);
  return codexBin;
}

/** Writes codex's config into `home`: the local server as its only provider, the repository trusted. */
export function codexHome(home: string, responsesBaseUrl: string, repo: string): void {
  mkdirSync(join(home, ".codex"), { recursive: true });
  const features = ["plugins", "remote_plugin", "plugin_sharing", "apps", "in_app_updates", "tool_suggest", "skill_mcp_dependency_install", "api_key_model_discovery"];
  const toml = [
    `model = "mock-model"`,
    `model_provider = "mock"`,
    `check_for_update_on_startup = false`,
    `[model_providers.mock]`,
    `name = "mock"`,
    `base_url = ${JSON.stringify(responsesBaseUrl)}`,
    `env_key = "MOCK_API_KEY"`,
    `wire_api = "responses"`,
    `[analytics]`,
    `enabled = false`,
    `[feedback]`,
    `enabled = false`,
    `[features]`,
    ...features.map((f) => `${f} = false`),
    `[projects.${JSON.stringify(repo)}]`,
    `trust_level = "trusted"`,
  ].join("\n");
  writeFileSync(join(home, ".codex", "config.toml"), toml + "\n");
}

export function codexEnv(home: string): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH!, HOME: home, MOCK_API_KEY: "sk-bench-000000000", TERM: "xterm-256color" };
}
