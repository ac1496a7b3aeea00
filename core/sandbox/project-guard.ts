// What stays read-only inside the otherwise writable project: the files
// through which a command could change what runs outside the sandbox later.
//
// `.yuj/` holds the project's yuj config (the sandbox's own settings among
// them), so it is read-only. When it does not exist yet it is created, empty,
// before the command starts: a path that does not exist cannot be mounted
// over, and without the mount a command could create `.yuj/config.toml`
// itself. The mount also pins it: it cannot be renamed or removed.
// Git's config and hooks: see git-guard.ts.

import * as fs from "node:fs";
import * as path from "node:path";
import { PROJECT_DIR, type Env } from "../paths.js";
import { guardGit, type GuardResult } from "./git-guard.js";

function guardYujDir(project: string): { readOnly: string[] } | { error: string } {
  const dir = path.join(project, PROJECT_DIR);
  let st: fs.Stats | undefined;
  try {
    st = fs.lstatSync(dir);
  } catch {
    try {
      fs.mkdirSync(dir);
      st = fs.lstatSync(dir);
    } catch {
      return { readOnly: [] }; // yuj cannot create it here, so no command can either
    }
  }
  if (st.isSymbolicLink()) {
    return {
      error: `${dir} is a symbolic link; the sandbox keeps ${PROJECT_DIR}/ read-only and cannot do so behind a link (replace it with a directory)`,
    };
  }
  return { readOnly: [dir] };
}

/** The mounts that keep `.yuj/` and git's config and hooks read-only for commands in `cwd`. */
export function guardProject(project: string, cwd: string, env: Env): GuardResult {
  const yuj = guardYujDir(project);
  if ("error" in yuj) return yuj;
  const git = guardGit(project, cwd, env);
  if ("error" in git) return git;
  return { pinned: git.pinned, readOnly: [...yuj.readOnly, ...git.readOnly] };
}
