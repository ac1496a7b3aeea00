// The session's sandbox: decides once whether commands run inside
// bubblewrap, and turns each command into the argv to spawn. Both command
// surfaces (the job manager and the PTY terminal) spawn whatever wrap()
// returns, so there is one place where "sandboxed or not" is decided, and a
// required sandbox that cannot start turns into an error no caller can skip.
//
// Modes (`[sandbox].mode`):
//   auto (default) - sandboxed when bwrap exists and starts; otherwise
//                    unsandboxed, with a one-time notice.
//   on             - required: when bwrap is missing or cannot start, no
//                    command runs (fail closed).
//   off            - no sandbox: commands run with the user's permissions.
// The older `[tools]` keys still count when `[sandbox].mode` is not set:
//   sandbox_bash = false                          -> off
//   sandbox_bash = true, sandbox_required = true  -> on (fail closed)
//   sandbox_bash = true, sandbox_required = false -> auto
// And auto acts as on when `[sandbox].unreadable_paths` is set: hiding those
// paths was asked for, and only the sandbox can do it.

import * as fs from "node:fs";
import * as path from "node:path";
import type { Config } from "../config/schema.js";
import type { Env } from "../paths.js";
import { bwrapArgs, DOCKER_SOCKETS, SANDBOX_ENV } from "./bwrap.js";
import { detectBwrap, type BwrapStatus } from "./detect.js";
import { hostSocketCover } from "./host-sockets.js";
import { guardProject } from "./project-guard.js";
import { RepoWatch } from "./repo-watch.js";
import { seccompFile, withSeccompFd } from "./seccomp.js";
import { resolveUnreadable } from "./unreadable.js";

type SandboxMode = "auto" | "on" | "off";

export interface ModeChoice {
  mode: SandboxMode;
  /** Which setting decided it, for doctor and the notice. */
  source: string;
}

/** The program to spawn for one command. */
interface Wrapped {
  file: string;
  args: string[];
  env: Record<string, string | undefined>;
}

/** `error` is the reason the command must not run; see unavailableMessage(). */
type WrapResult = Wrapped | { error: string };

interface WrapOptions {
  /** The project is mounted read-only too: the process may read it and nothing else. */
  projectReadOnly?: boolean;
}

export interface Sandbox {
  readonly mode: SandboxMode;
  readonly modeSource: string;
  /** Commands run inside bwrap. Probes bwrap on first use. */
  readonly active: boolean;
  /** Set when no command may run: the sandbox is required and bwrap is unusable. */
  readonly unavailable: string | undefined;
  /** The probe's answer; undefined in mode off (nothing was probed). */
  readonly status: BwrapStatus | undefined;
  /** `bash -o pipefail -c command`, inside the sandbox when active. */
  wrap(command: string, cwd: string, env?: Env): WrapResult;
  /**
   * Any argv, inside the sandbox when active (the terminal's leader script;
   * a language server, which gets the project read-only).
   */
  wrapArgv(argv: readonly string[], cwd: string, env?: Env, opts?: WrapOptions): WrapResult;
  /** The auto-mode fallback notice, once per sandbox; undefined afterwards. */
  takeNotice(): string | undefined;
  /**
   * After a sandboxed command (or an exchange with the sandboxed terminal):
   * undoes what it planted in the project's git repositories that git would
   * run on the host (repo-watch.ts); one line per thing undone. Nothing to
   * do, and none, when the sandbox is not active.
   */
  afterCommand(): Promise<string[]>;
}

export interface SandboxOptions {
  /** The writable directory; the session's working directory. Default process.cwd(). */
  projectDir?: string;
  /** Skip the cached probe (doctor). */
  freshProbe?: boolean;
  /**
   * yuj's own installation: the language servers and test runners it starts
   * come from its node_modules, so it stays readable inside the sandbox even
   * where a fresh mount would cover it (yuj installed under /tmp).
   */
  installDir?: string;
}

/** The one line a refused command leaves where its output would be (after `yuj: `). */
export function unavailableMessage(reason: string): string {
  return `sandbox unavailable: ${reason}; the command was not run`;
}

/**
 * With the host network shared, the host's abstract unix sockets are shared
 * too, so no unix socket may be created (seccomp.ts); except when Docker is
 * passed, which needs one and is host access already.
 */
function unixSocketsBlocked(config: Config): boolean {
  return config.sandbox.network && !config.sandbox.docker;
}

export function resolveSandboxMode(config: Config): ModeChoice {
  const { mode } = config.sandbox;
  const { sandbox_bash: legacy, sandbox_required: required } = config.tools;
  if (mode) return { mode, source: "[sandbox].mode" };
  if (legacy === false) return { mode: "off", source: "[tools].sandbox_bash = false" };
  if (legacy === true) {
    return required
      ? { mode: "on", source: "[tools].sandbox_bash = true with sandbox_required = true" }
      : { mode: "auto", source: "[tools].sandbox_bash = true with sandbox_required = false" };
  }
  return { mode: "auto", source: "default" };
}

function realOr(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

/** Docker sockets present on the host, as `[real path, path the command uses]`. */
function dockerSockets(): Array<[string, string]> {
  const out = new Map<string, [string, string]>();
  for (const p of DOCKER_SOCKETS) {
    try {
      if (!fs.statSync(p).isSocket()) continue;
    } catch {
      continue;
    }
    // /var/run is usually a link to /run: one mount serves both names.
    const inside = path.join(realOr(path.dirname(p)), path.basename(p));
    out.set(inside, [realOr(p), inside]);
  }
  return [...out.values()];
}

export function createSandbox(config: Config, env: Env, opts: SandboxOptions = {}): Sandbox {
  const choice = resolveSandboxMode(config);
  const { network, docker } = config.sandbox;
  const unreadable = config.sandbox.unreadable_paths;
  const projectDir = realOr(opts.projectDir ?? process.cwd());
  const required = choice.mode === "on" || (choice.mode === "auto" && unreadable.length > 0);

  let status: BwrapStatus | undefined;
  const detect = (): BwrapStatus | undefined => {
    if (choice.mode === "off") return undefined;
    status ??= detectBwrap({ bwrapBin: config.tools.bwrap_bin, network, docker }, env, opts.freshProbe);
    return status;
  };
  const active = () => detect()?.usable === true;
  const unavailable = (): string | undefined => {
    const s = detect();
    if (!s || s.usable || !required) return undefined;
    return choice.mode === "auto" ? `${s.reason} ([sandbox].unreadable_paths needs the sandbox)` : s.reason;
  };
  let noticeGiven = false;
  const repos = new RepoWatch(projectDir);

  function wrapArgv(argv: readonly string[], cwd: string, callEnv?: Env, wrapOpts: WrapOptions = {}): WrapResult {
    const base = { ...(callEnv ?? env) };
    const refused = unavailable();
    if (refused) return { error: refused };
    const s = detect();
    if (!s?.usable) return { file: argv[0]!, args: argv.slice(1), env: base };
    const resolved = resolveUnreadable(unreadable, { projectDir, ...(env.HOME ? { home: env.HOME } : {}) });
    if ("error" in resolved) return { error: resolved.error };
    const realCwd = realOr(cwd);
    // Before the guard creates anything: what is there now is the user's.
    repos.beforeCommand();
    const guard = guardProject(projectDir, realCwd, env);
    if ("error" in guard) return { error: guard.error };
    repos.keptReadOnly(guard.readOnly);
    const sockets = hostSocketCover(env);
    const plan = {
      projectDir,
      cwd: realCwd,
      network,
      socketDirs: sockets.dirs,
      socketDirLinks: sockets.links,
      socketDirFiles: sockets.files,
      pinned: guard.pinned,
      readOnly: guard.readOnly,
      dockerSockets: docker ? dockerSockets() : [],
      hidden: resolved.hidden,
      ...(opts.installDir ? { installDir: realOr(opts.installDir) } : {}),
      ...(wrapOpts.projectReadOnly ? { projectReadOnly: true } : {}),
    };
    const filter = seccompFile({ blockUnixSockets: unixSocketsBlocked(config) }, projectDir);
    return { ...withSeccompFd(s.bwrap.path, bwrapArgs(plan, argv), filter), env: { ...base, ...SANDBOX_ENV } };
  }

  return {
    mode: choice.mode,
    modeSource: choice.source,
    get active() {
      return active();
    },
    get unavailable() {
      return unavailable();
    },
    get status() {
      return detect();
    },
    wrapArgv,
    afterCommand: () => (active() ? repos.afterCommand() : Promise.resolve([])),
    wrap: (command, cwd, callEnv) => wrapArgv(["bash", "-o", "pipefail", "-c", command], cwd, callEnv),
    takeNotice() {
      if (noticeGiven || choice.mode !== "auto") return undefined;
      const s = detect();
      if (!s || s.usable || required) return undefined;
      noticeGiven = true;
      return (
        `sandbox off: ${s.reason}. Commands run unsandboxed, with your permissions ` +
        `(set [sandbox].mode = "on" to refuse to run without it, or "off" to silence this notice)`
      );
    },
  };
}
