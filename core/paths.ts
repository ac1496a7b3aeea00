// Where yuj keeps its files, following the XDG base-directory spec: the user
// config under $XDG_CONFIG_HOME, sessions (traces, saved tool output) under
// $XDG_STATE_HOME. Every function takes the environment and home directory as
// arguments, read at call time, so tests can point them at a temp dir.

import * as os from "node:os";
import * as path from "node:path";

/** The environment as the functions here read it; `process.env` fits. */
export type Env = Readonly<Record<string, string | undefined>>;

/** Directory, inside a project, that holds the project's yuj files. */
export const PROJECT_DIR = ".yuj";
const CONFIG_FILE = "config.toml";

/** $HOME when set (so a test env can move it), else the OS's idea of it. */
export function homeDir(env: Env = process.env): string {
  return env.HOME || os.homedir();
}

// The spec says a relative or empty XDG variable is invalid and must be
// ignored, so a stray `XDG_CONFIG_HOME=foo` cannot scatter files around cwd.
function xdgBase(env: Env, name: string, fallback: string): string {
  const value = env[name];
  return value && path.isAbsolute(value) ? value : fallback;
}

/** `$XDG_CONFIG_HOME/yuj`, default `~/.config/yuj`. */
export function configDir(env: Env = process.env, home: string = homeDir(env)): string {
  return path.join(xdgBase(env, "XDG_CONFIG_HOME", path.join(home, ".config")), "yuj");
}

/** The user config file: `$XDG_CONFIG_HOME/yuj/config.toml`. */
export function userConfigPath(env: Env = process.env, home: string = homeDir(env)): string {
  return path.join(configDir(env, home), CONFIG_FILE);
}

/** `$XDG_STATE_HOME/yuj`, default `~/.local/state/yuj`. */
export function stateDir(env: Env = process.env, home: string = homeDir(env)): string {
  return path.join(xdgBase(env, "XDG_STATE_HOME", path.join(home, ".local", "state")), "yuj");
}

/** `<state>/sessions`: one directory per session, see core/session.ts. */
export function sessionsDir(env: Env = process.env, home: string = homeDir(env)): string {
  return path.join(stateDir(env, home), "sessions");
}

/** A directory of yuj's own files, and what it holds (for messages). */
export interface OwnDir {
  dir: string;
  holds: string;
}

/**
 * The directories of yuj's own files that no tool of the model may change:
 * the user config (config.toml, trusted.toml) and the state (sessions, locks).
 */
export function ownDirs(env: Env = process.env, home: string = homeDir(env)): OwnDir[] {
  return [
    { dir: configDir(env, home), holds: "yuj's user config and the list of trusted projects" },
    { dir: stateDir(env, home), holds: "yuj's sessions and their locks" },
  ];
}

/** The project config file: `<cwd>/.yuj/config.toml`. */
export function projectConfigPath(cwd: string): string {
  return path.join(cwd, PROJECT_DIR, CONFIG_FILE);
}
