// The session-scoped services the tools reach: the job manager, the one
// interactive terminal, and the notices that wake the model when background
// work ends. Also makes sure every process they start ends with yuj, however
// yuj ends, and that the jobs of an earlier yuj killed with SIGKILL are found.
// Both command surfaces share one sandbox, so the bash tools and the terminal
// are confined (or refused) alike.

import { defaultConfig, type Config } from "../core/config/schema.js";
import type { CoreEvent, Emit } from "../core/events.js";
import { installExitHooks } from "../core/jobs/exit-hooks.js";
import { EscapeWatch, stopMarked } from "../core/jobs/escapees.js";
import { createJobManager } from "../core/jobs/manager.js";
import { createJobNotices, type JobNotices } from "../core/jobs/notices.js";
import { chordNoticeStyle } from "../tools/lib/chord/job-notice.js";
import { reapOrphans } from "../core/jobs/orphans.js";
import { createTerminalManager, type TerminalManager } from "../core/jobs/terminal.js";
import type { JobManager } from "../core/jobs/types.js";
import { commandEnv, policyFromConfig } from "../core/jobs/shell-env.js";
import type { Env } from "../core/paths.js";
import { createSandbox, type Sandbox } from "../core/sandbox/index.js";
import { systemClock } from "../core/services.js";
import { spawn } from "node:child_process";
import { createLspManager, type LspService } from "../core/lsp/manager.js";
import { createMcpManager, type McpService } from "../core/mcp/manager.js";
import { discoverSkills } from "../core/skills/discover.js";
import { SkillSession } from "../core/skills/session.js";
import { configDir } from "../core/paths.js";
import { basename, join } from "node:path";
import { packageRoot } from "./locate.js";
import { createCellRunner, type CellRunner } from "../core/cells/runner.js";
import type { Isolation, WorkspaceServices } from "../core/agents/isolated.js";
import { sweepLeftoverWorktrees } from "../core/agents/worktree.js";
import { createHookService, type HookService } from "../core/hooks/service.js";
import { observeEventForHooks } from "../core/hooks/event-points.js";
import { createCheckpointer, type Checkpointer } from "../core/checkpoints/recorder.js";

export interface SessionServices {
  jobs: JobManager;
  terminals: TerminalManager;
  /** The language servers: started on first use, ended with the session. */
  lsp: LspService;
  /** The MCP servers: connected before the first request (app/extensions.ts), ended with the session. */
  mcp: McpService;
  /** The Agent Skills found for this project. */
  skills: SkillSession;
  notices: JobNotices;
  /** The [hooks] commands, run under the commands' sandbox and environment. */
  hooks: HookService;
  sandbox: Sandbox;
  /** Code mode's cells: under the same sandbox and environment as commands. */
  cells: CellRunner;
  /** Isolated children's worktrees: recorded in the state folder, with commands confined to them. */
  isolation: Isolation;
  /** Feed every event through here (the notices are built from them). */
  observe(event: CoreEvent): void;
  /** The session's workspace checkpoints (taken as it runs; a rewind reads them). */
  checkpoints: Checkpointer;
  /** Ends every job and the terminal; resolves when they are gone. */
  shutdown(): Promise<void>;
}

export interface ServicesOptions {
  sessionDir: string;
  stateDir: string;
  /** yuj's environment: commands get it filtered by [shell_env]. Default process.env. */
  env?: Env;
  /** Values hidden from the job and terminal logs, as from every result. */
  secrets?: readonly string[];
  emit: Emit;
  /** The active tool that reads a job's output, named in job notices. */
  readTool?: string;
  /** The surface's words for a finished background job (its profile's job_notice). Default yuj's. */
  jobNotice?: "yuj" | "chord";
  /**
   * Signals that end yuj after a cleanup. The rest stay with the caller,
   * which must cancel its run and call shutdown() itself.
   */
  exitSignals: Array<"SIGINT" | "SIGTERM" | "SIGHUP">;
  /** Decides the sandbox ([sandbox], [tools].sandbox_*); defaults apply when absent. */
  config?: Config;
  /** The project directory, writable inside the sandbox. Default process.cwd(). */
  projectDir?: string;
}

export function createSessionServices(opts: ServicesOptions): SessionServices {
  const projectDir = opts.projectDir ?? process.cwd();
  const sandbox = createSandbox(opts.config ?? defaultConfig(), process.env, {
    projectDir,
    installDir: packageRoot,
  });
  const config = opts.config ?? defaultConfig();
  // Built once: what every command and the terminal inherit, with secrets left out.
  const env = commandEnv(opts.env ?? process.env, policyFromConfig(config));
  const logs = { secrets: opts.secrets ?? [], maxLogBytes: config.output.max_job_log_bytes };
  // One marker for both: whatever either starts is found by it at the end.
  const escapees = new EscapeWatch();
  const jobs = createJobManager({ sessionDir: opts.sessionDir, emit: opts.emit, stateDir: opts.stateDir, sandbox, env, escapees, ...logs });
  const terminals = createTerminalManager({ emit: opts.emit, sessionDir: opts.sessionDir, sandbox, env, escapees, ...logs, ...terminalLimits(config) });
  const lsp = createLspManager({
    settings: config.lsp,
    projectDir,
    sessionDir: opts.sessionDir,
    stateDir: opts.stateDir,
    env,
    sandbox,
    // A server installed with yuj (a clone's devDependencies) is found before PATH.
    searchDirs: [join(packageRoot, "node_modules", ".bin")],
    emit: opts.emit,
  });
  const mcp = createMcpManager({
    settings: config.mcp,
    projectDir,
    sessionDir: opts.sessionDir,
    stateDir: opts.stateDir,
    env,
    ownEnv: opts.env ?? process.env,
    emit: opts.emit,
    clock: systemClock,
  });
  const ownEnv = opts.env ?? process.env;
  const home = ownEnv.HOME ?? process.env.HOME ?? "/";
  const found = discoverSkills({
    projectDir,
    userConfigDir: configDir(ownEnv, home),
    paths: config.skills.paths,
    home,
    packageDir: join(packageRoot, "skills"),
  });
  for (const problem of found.problems) opts.emit({ type: "notice", level: "warning", text: `skill skipped: ${problem}` });
  const skills = new SkillSession(found.skills);
  const notices = createJobNotices(opts.readTool, opts.jobNotice === "chord" ? chordNoticeStyle(jobs) : undefined);
  const isolation: Isolation = {
    stateDir: opts.stateDir,
    confined: () => sandbox.active,
    open: (dir, sessionDir, emit) => workspaceServices({ ...opts, projectDir: dir, sessionDir, emit, config }, env, logs),
  };
  // The model and turn hooks are told about follow the session's events.
  let model = "";
  let turn: number | undefined;
  const hooks = createHookService({
    settings: config.hooks,
    runner: { spawn, clock: systemClock, env, cwd: projectDir, sandbox },
    sessionId: basename(opts.sessionDir),
    agent: { id: "main", kind: "main" },
    model: () => model,
    emit: opts.emit,
    turn: () => turn,
  });
  let terminalPid: number | undefined;
  const checkpoints = createCheckpointer({
    cwd: projectDir,
    sessionId: basename(opts.sessionDir),
    sessionDir: opts.sessionDir,
    emit: opts.emit,
    enabled: config.workspace_checkpoints.enabled,
    pruneAfterDays: config.workspace_checkpoints.prune_after_days,
  });

  // The hooks end every group on the signals given, on uncaught errors and
  // on process exit; the caller handles the other signals by cancelling.
  const uninstall = installExitHooks(jobs, { signals: opts.exitSignals });
  const uninstallLsp = installExitHooks(lsp, { signals: opts.exitSignals });
  const uninstallMcp = installExitHooks(mcp, { signals: opts.exitSignals });
  const killTerminalSync = () => {
    if (terminalPid === undefined) return;
    try {
      process.kill(-terminalPid, "SIGKILL");
    } catch {
      /* already gone */
    }
  };
  process.on("exit", killTerminalSync);

  return {
    jobs,
    terminals,
    lsp,
    mcp,
    skills,
    notices,
    hooks,
    sandbox,
    cells: createCellRunner({ sandbox, env }),
    isolation,
    checkpoints,
    observe(event) {
      notices.observe(event);
      checkpoints.observe(event);
      if (event.type === "session_started") model = event.model;
      if (event.type === "model_switched") model = event.model;
      if (event.agentId === "main") turn = event.turn;
      observeEventForHooks(event, hooks);
      if (event.type === "run_finished") skills.release();
      if (event.type === "terminal_started") terminalPid = event.pid;
      if (event.type === "terminal_exited") terminalPid = undefined;
    },
    async shutdown() {
      // The end is told first and waited for (each hook is bounded by its own timeout).
      hooks.observe("on_session_end", {});
      await hooks.drain();
      const armed = escapees.armed;
      await Promise.all([jobs.shutdown(), terminals.shutdown(), lsp.shutdown(), mcp.shutdown(), checkpoints.settled()]);
      // The terminal may still have been ending while the jobs' sweep ran.
      if (armed) await stopMarked(escapees.marker, 1000, systemClock);
      uninstall();
      uninstallLsp();
      uninstallMcp();
      process.off("exit", killTerminalSync);
    },
  };
}

/**
 * A child's own jobs and terminal, in a sandbox whose one writable directory
 * is its worktree: the same settings as the session's, another project.
 */
function workspaceServices(
  opts: ServicesOptions & { projectDir: string; config: Config },
  env: Record<string, string>,
  logs: { secrets: readonly string[]; maxLogBytes: number },
): WorkspaceServices {
  const sandbox = createSandbox(opts.config, process.env, { projectDir: opts.projectDir, installDir: packageRoot });
  const escapees = new EscapeWatch();
  const jobs = createJobManager({ sessionDir: opts.sessionDir, emit: opts.emit, stateDir: opts.stateDir, sandbox, env, escapees, ...logs });
  const terminals = createTerminalManager({ emit: opts.emit, sessionDir: opts.sessionDir, sandbox, env, escapees, ...logs, ...terminalLimits(opts.config) });
  const uninstall = installExitHooks(jobs, { signals: opts.exitSignals });
  return {
    jobs,
    terminals,
    async shutdown() {
      const armed = escapees.armed;
      await Promise.all([jobs.shutdown(), terminals.shutdown()]);
      if (armed) await stopMarked(escapees.marker, 1000, systemClock);
      uninstall();
    },
  };
}

/** Ends the jobs an earlier yuj left behind when it was killed outright, and removes its children's worktrees. */
export async function reapEarlierOrphans(stateDir: string, emit: Emit): Promise<void> {
  const worktrees = await sweepLeftoverWorktrees(stateDir);
  if (worktrees.length > 0) emit({ type: "notice", level: "info", text: `removed ${worktrees.length} isolated task worktree(s) an earlier yuj left behind: ${worktrees.join(", ")}` });
  const reaped = await reapOrphans(stateDir);
  const killed = reaped.filter((r) => r.action === "killed");
  if (killed.length === 0) return;
  emit({
    type: "jobs_orphans_found",
    count: killed.length,
    detail: killed.map((r) => `${r.kind === "process" ? "process" : "process group"} ${r.pgid} (${r.command})`),
  });
}

/** The interactive terminal's bounds, from [tools]. */
function terminalLimits(config: Config): { maxLifetimeMs: number; maxInputChars: number } {
  return { maxLifetimeMs: config.tools.terminal_max_lifetime * 1000, maxInputChars: config.tools.terminal_max_input_chars };
}
