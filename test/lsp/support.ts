// Real language servers for the tests: a project directory, the session's
// LSP manager over it (with or without the real sandbox), its events, and a
// way to find the server processes by their working directory.

import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { defaultConfig, type Config } from "../../core/config/schema.js";
import { createEmitter, type CoreEvent } from "../../core/events.js";
import { createLspManager, type LspService } from "../../core/lsp/manager.js";
import { createSandbox } from "../../core/sandbox/index.js";
import { commandEnv } from "../../core/jobs/shell-env.js";
import { isZombie, readStat } from "../../core/jobs/proc.js";
import { repoRoot } from "../support/loop-harness.js";
import type { Clock } from "../../core/services.js";

export const BIN_DIR = path.join(repoRoot, "node_modules", ".bin");
export const PROBE_SERVER = path.join(repoRoot, "test", "lsp", "fixtures", "probe-server.mjs");

export interface LspHarness {
  project: string;
  config: Config;
  lsp: LspService;
  events: CoreEvent[];
  put(files: Record<string, string>): void;
  abs(rel: string): string;
  /** The diagnostics of a project file as it is on disk. */
  check(rel: string): ReturnType<LspService["diagnostics"]>;
  close(): Promise<void>;
}

function tempProject(prefix = "yuj-lsp-project-"): string {
  // Real path: the servers report file URIs of real paths.
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
}

export function makeLspHarness(adjust: (config: Config) => void = () => undefined, project = tempProject(), opts: { clock?: Clock } = {}): LspHarness {
  const config = defaultConfig();
  config.sandbox.mode = "off";
  config.lsp.enabled = true;
  adjust(config);
  const sessionDir = fs.mkdtempSync(path.join(os.tmpdir(), "yuj-lsp-session-"));
  const events: CoreEvent[] = [];
  const { emit } = createEmitter("test", (e) => events.push(e));
  const env = commandEnv(process.env);
  // As the session services do: yuj's own installation (here the checkout, with the probe server) stays readable inside.
  const sandbox = createSandbox(config, process.env, { projectDir: project, installDir: repoRoot });
  const lsp = createLspManager({ settings: config.lsp, projectDir: project, sessionDir, env, sandbox, searchDirs: [BIN_DIR], emit, ...(opts.clock ? { clock: opts.clock } : {}) });
  const abs = (rel: string) => path.join(project, rel);
  return {
    project,
    config,
    lsp,
    events,
    abs,
    put(files) {
      for (const [rel, text] of Object.entries(files)) {
        fs.mkdirSync(path.dirname(abs(rel)), { recursive: true });
        fs.writeFileSync(abs(rel), text);
      }
    },
    check: (rel) => lsp.diagnostics(abs(rel), fs.readFileSync(abs(rel), "utf8")),
    async close() {
      await lsp.shutdown();
      fs.rmSync(project, { recursive: true, force: true });
      fs.rmSync(sessionDir, { recursive: true, force: true });
    },
  };
}

/** Live processes whose working directory is `dir` (a server and the helpers it started there). */
export function processesIn(dir: string): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    let cwd: string;
    try {
      cwd = fs.readlinkSync(`/proc/${pid}/cwd`);
    } catch {
      continue;
    }
    if (cwd !== dir) continue;
    const stat = readStat(pid);
    if (stat && !isZombie(stat)) found.push(pid);
  }
  return found;
}

export async function until(check: () => boolean, timeoutMs = 10_000): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

/** The lsp_server events of one server, as state words. */
export function states(events: readonly CoreEvent[], server: string): string[] {
  return events.flatMap((e) => (e.type === "lsp_server" && e.server === server ? [e.state] : []));
}

export const TS_CONFIG = `{ "compilerOptions": { "strict": true, "noEmit": true, "target": "ES2022", "module": "ESNext", "moduleResolution": "Bundler" } }\n`;
