// yuj's own files are never a file tool's to change. The model's file tools
// run on the host, with the user's permissions, so without this a write or
// delete could reach:
//
//   - the project's `.yuj/` (its config.toml): a change there is always
//     untrusted until `yuj trust`, but a file the model wrote would still
//     set what needs no trust, and would be one `y` away from applying
//     whole; commands cannot write it either (the sandbox keeps it read-only);
//   - the user's config directory (`$XDG_CONFIG_HOME/yuj`: config.toml, and
//     trusted.toml, which says which project configs apply);
//   - the state directory (`$XDG_STATE_HOME/yuj`: every session's files, the
//     running pointers).
//
// Files outside the project are out of reach already (paths.ts); these
// checks matter when the project holds them: yuj started in $HOME, or an
// XDG directory inside the project. Paths are compared as written (after
// `..` is resolved) and as the real paths they lead to, so neither a symlink
// nor a second name of a directory gets around them. Reading stays allowed.

import * as path from "node:path";
import type { FileSystem } from "../../core/services.js";
import { PROJECT_DIR, type OwnDir } from "../../core/paths.js";

const inside = (root: string, p: string): boolean => {
  const rel = path.relative(root, p);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
};

/** `p`'s real path, or for a path that does not exist yet its deepest existing ancestor's with the rest appended. */
async function realOrDeepest(fs: FileSystem, p: string): Promise<string> {
  const tail: string[] = [];
  for (let cur = path.resolve(p); ; cur = path.dirname(cur)) {
    try {
      const real = await fs.realpath(cur);
      return path.join(real, ...tail.reverse());
    } catch {
      if (path.dirname(cur) === cur) return path.resolve(p);
      tail.push(path.basename(cur));
    }
  }
}

/** The project's `.yuj` entry or anything under it (any case: file systems may fold it). */
function inProjectYujDir(projectDir: string, p: string): boolean {
  const rel = path.relative(projectDir, p);
  if (rel === "" || rel.startsWith("..") || path.isAbsolute(rel)) return false;
  return rel.split(path.sep)[0]!.toLowerCase() === PROJECT_DIR;
}

export interface OwnFilesCheck {
  /** The project directory as given and as its real path. */
  cwdAbs: string;
  cwdReal: string;
  /** The target as written (normalised) and as its real path. */
  target: string;
  real: string;
  /** yuj's own directories (Services.ownDirs). */
  ownDirs: readonly OwnDir[];
}

/** Why a file tool must not write or delete this path; undefined when it may. */
export async function ownFileRefusal(fs: FileSystem, input: string, c: OwnFilesCheck): Promise<string | undefined> {
  if (inProjectYujDir(c.cwdReal, c.real) || inProjectYujDir(c.cwdAbs, c.target)) {
    return (
      `ERROR: ${input} is in ${PROJECT_DIR}/, the project's yuj config: file tools do not write or delete it (a ` +
      "config the model wrote would need your trust to apply, and commands cannot change it either); tell the " +
      `user what to change in ${PROJECT_DIR}/config.toml instead`
    );
  }
  for (const own of c.ownDirs) {
    const realDir = await realOrDeepest(fs, own.dir);
    if (inside(path.resolve(own.dir), c.target) || inside(realDir, c.real) || inside(realDir, c.target)) {
      return `ERROR: ${input} is in ${own.dir}, which holds ${own.holds}: file tools never write or delete yuj's own files`;
    }
  }
  return undefined;
}
