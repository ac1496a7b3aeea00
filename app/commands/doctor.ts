// `yuj doctor`: what yuj found on this machine and whether each part works.

import { spawnSync } from "node:child_process";
import { accessSync, constants, existsSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, join } from "node:path";
import { ConfigError } from "../../core/config/errors.js";
import { loadConfig } from "../../core/config/load.js";
import { trustLine } from "../trust-notice.js";
import { reportMcp } from "./doctor-mcp.js";
import type { Config } from "../../core/config/schema.js";
import { detectBwrap } from "../../core/sandbox/detect.js";
import { createSandbox } from "../../core/sandbox/index.js";
import { projectConfigPath, stateDir, userConfigPath } from "../../core/paths.js";
import { safeText } from "../../core/text/safe.js";
import type { ParsedArgs } from "../args.js";
import { FatalError } from "../errors.js";
import { packageRoot } from "../locate.js";
import { buildProvider, resolveSession } from "../session.js";
import { droppedLines } from "../tool-cap-notice.js";

type Status = "ok" | "warn" | "fail";
const MARK: Record<Status, string> = { ok: "ok  ", warn: "warn", fail: "FAIL" };

export async function doctorCommand(args: ParsedArgs, version: string): Promise<number> {
  const env = process.env;
  const home = env.HOME ?? homedir();
  const cwd = process.cwd();
  let failures = 0;
  const say = (status: Status, what: string, detail: string) => {
    if (status === "fail") failures++;
    // Details echo paths, config values and provider errors: made safe to print.
    process.stdout.write(`[${MARK[status]}] ${what}: ${safeText(detail)}\n`);
  };
  say("ok", "yuj", `${version} on Node ${process.versions.node}`);

  let config: Config | undefined;
  try {
    const { sources, config: loaded, project, notes } = loadConfig({ cwd, env, home, configFiles: args.configFiles });
    config = loaded;
    for (const s of sources) say("ok", "config", `${s.path} (${s.found ? "found, valid" : "not present"})`);
    for (const note of notes) say("warn", "config", note);
    const trust = trustLine(project);
    say(trust.status, "project trust", trust.detail);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    say("fail", "config", err.message);
    say("warn", "config files", `${userConfigPath(env, home)}, ${projectConfigPath(cwd)}`);
  }

  try {
    const resolved = resolveSession({ args, cwd, env, topLevel: true });
    say("ok", "profile", `${resolved.toolset.profile.name}: ${[...resolved.toolset.tools.keys()].join(", ")}`);
    for (const line of droppedLines(resolved.toolset.dropped)) say("warn", "tool cap", line);
    if (!resolved.choice) {
      say("warn", "provider", "none configured (yuj runs the offline demo); see `yuj setup --help`");
    } else {
      const c = resolved.choice;
      const provider = await buildProvider(c, resolved.config);
      try {
        const models = (await provider.listModels?.(AbortSignal.timeout(10_000))) ?? [];
        say("ok", "provider", `${c.name} ${c.model} reachable (${models.length} models listed)`);
      } catch (err) {
        say("fail", "provider", `${c.name} ${c.model}: ${(err as Error).message}`);
      }
    }
  } catch (err) {
    if (!(err instanceof FatalError)) throw err;
    say("fail", "setup", err.message);
  }

  const git = spawnSync("git", ["--version"], { encoding: "utf8" });
  say(git.status === 0 ? "ok" : "warn", "git", git.status === 0 ? git.stdout.trim() : "not found (checkpoints and diffs need git)");

  const rg = onPath("rg");
  if (rg) say("ok", "ripgrep", rg);
  else {
    const bundled = await bundledRipgrep();
    say(bundled ? "ok" : "warn", "ripgrep", bundled ? `bundled ${bundled}` : "not found; grep uses the JavaScript fallback");
  }

  if (config) reportSandbox(config, cwd, say);
  if (config) await reportMcp(config, cwd, env, say);

  const state = stateDir(env, home);
  say(writable(state) ? "ok" : "warn", "state dir", state);
  return failures ? 1 : 0;
}

/** bwrap's path, version and whether it starts; then what the configured mode makes of that. */
function reportSandbox(config: Config, cwd: string, say: (status: Status, what: string, detail: string) => void): void {
  const probe = detectBwrap({ bwrapBin: config.tools.bwrap_bin, network: config.sandbox.network }, process.env, true);
  const found = probe.bwrap ? `${probe.bwrap.version ?? "bubblewrap"} at ${probe.bwrap.path}` : undefined;
  if (probe.usable) say("ok", "bubblewrap", `${found}: starts a sandbox`);
  else say("warn", "bubblewrap", found ? `${found}: ${probe.reason}` : probe.reason);

  const sandbox = createSandbox(config, process.env, { projectDir: cwd, installDir: packageRoot });
  const mode = `mode ${sandbox.mode} (${sandbox.modeSource})`;
  const net = config.sandbox.network ? "network allowed" : "no network";
  if (sandbox.unavailable) say("fail", "sandbox", `${mode}: required but unavailable, so no command will run: ${sandbox.unavailable}`);
  else if (sandbox.active) say("ok", "sandbox", `${mode}: commands run in bubblewrap (project writable, ${net})`);
  else if (sandbox.mode === "off") say("warn", "sandbox", `${mode}: commands run unsandboxed, with your permissions`);
  else say("warn", "sandbox", `${mode}: bubblewrap unusable, so commands run unsandboxed, with your permissions`);
  if (sandbox.active) say("ok", "capabilities", capabilityLine());
  say(config.sandbox.docker ? "warn" : "ok", "docker", dockerLine(config));
}

function capabilityLine(): string {
  const root = process.getuid?.() === 0;
  return (
    `dropped: sandboxed commands hold no capabilities (--cap-drop ALL${root ? ", and yuj runs as root" : ""}) ` +
    "and cannot create user namespaces"
  );
}

function dockerLine(config: Config): string {
  if (config.sandbox.docker) {
    return "[sandbox].docker = true: the Docker socket is passed to sandboxed commands, which is host access";
  }
  const unix = config.sandbox.network ? "; with network = true, sandboxed commands cannot create unix sockets" : "";
  return `[sandbox].docker = false (default): the Docker socket is not passed to sandboxed commands${unix}`;
}

function onPath(cmd: string): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    const p = join(dir, cmd);
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {
      /* not here */
    }
  }
  return undefined;
}

async function bundledRipgrep(): Promise<string | undefined> {
  try {
    const { rgPath } = (await import("@vscode/ripgrep")) as { rgPath: string };
    return existsSync(rgPath) ? rgPath : undefined;
  } catch {
    return undefined;
  }
}

function writable(dir: string): boolean {
  for (let d = dir; ; d = join(d, "..")) {
    if (existsSync(d)) {
      try {
        accessSync(d, constants.W_OK);
        return true;
      } catch {
        return false;
      }
    }
    if (d === "/" || d === join(d, "..")) return false;
  }
}
