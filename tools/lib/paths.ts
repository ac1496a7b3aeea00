// Path containment for every file tool: whatever the model names, the tool
// only ever touches something inside the task directory.
//
// An absolute path outside cwd is re-rooted when its first component exists in
// the repository, because models often write `/src/x.py` meaning the
// repository's `src/x.py`; any other absolute path outside (`/etc/passwd`,
// `/dev/stdin`) is refused as an escape. Symlinks are
// resolved (realpath of the deepest existing ancestor) so a link cannot lead
// out of cwd; the resolved path is what the tool then operates on.
//
// Nothing inside a `.git` directory (or a `.git` file) is a task file: git's
// config and hooks name programs that git runs on the host, outside any
// sandbox, so a file tool writing there could plant a command for the next
// `git status`. Every file tool refuses such paths; git commands are the way.

import * as path from "node:path";
import type { FileSystem } from "../../core/services.js";
import type { OwnDir } from "../../core/paths.js";
import { tooLarge } from "./file-limits.js";
import { readChecked } from "./pinned-fs.js";
import { ownFileRefusal } from "./own-files.js";
import { didYouMean, didYouMeanList, echoPath } from "./path-suggest.js";

export { didYouMean, didYouMeanList, echoPath };

export type PathCheck =
  | { ok: true; abs: string; cwdReal: string; display: string }
  | { ok: false; error: string };

export interface ResolveOptions {
  /** write/edit: refuse newline in the path too (NUL is always refused). */
  forbidNewline?: boolean;
  /**
   * The tool will write or delete the path: yuj's own files (the project's
   * `.yuj/`, these directories) are refused (own-files.ts).
   */
  write?: { ownDirs: readonly OwnDir[] };
  /**
   * Read-only tools: absolute folders outside cwd that may be opened too (the
   * session's saved output). A path inside one is echoed absolute.
   */
  readableRoots?: readonly string[];
  /**
   * Chord's local-path handling: `~` is the home directory, and a path
   * outside the project is resolved where it is (the permission rules decide
   * about it) instead of being refused. Device paths stay refused.
   */
  outside?: { home: string };
  /** Real paths no file tool opens ([sandbox].unreadable_paths, resolved): a directory covers what is inside it. */
  hidden?: readonly { path: string; kind: "file" | "dir" }[];
  /** [sandbox].unreadable_paths could not be resolved: nothing is opened until it is fixed (fail closed, as commands do). */
  hiddenError?: string;
}

const FORBIDDEN_CHAR_ERROR = "ERROR: path contains forbidden character (newline or NUL)";

/** The refusal for a path inside `.git`, naming why and what to do instead. */
export function gitDirError(input: string): string {
  return (
    `ERROR: ${input} is inside .git/, which holds git's config and hooks: git runs what they name outside the sandbox, ` +
    "so file tools neither read nor change anything there; use git commands through the shell instead"
  );
}

/** `abs` is a `.git` entry of the task directory or lies inside one. */
export function isInGitDir(cwdReal: string, abs: string): boolean {
  const rel = path.relative(cwdReal, abs);
  if (rel.startsWith("..") || path.isAbsolute(rel)) return false;
  return rel.split(path.sep).some((part) => part.toLowerCase() === ".git");
}

// Pseudo-filesystems whose entries are never task files; reading one could block
// (/dev/stdin) or leak host state, even when cwd itself is "/".
const SPECIAL_ROOTS = ["/dev", "/proc", "/sys"];

const inside = (root: string, p: string): boolean =>
  p === root || p.startsWith(root.endsWith(path.sep) ? root : root + path.sep);

/** `abs` lies in a pseudo-filesystem (/dev, /proc, /sys) that `cwdAbs` itself is not in. */
export function isDevicePath(abs: string, cwdAbs: string): boolean {
  return SPECIAL_ROOTS.some((root) => inside(root, abs) && !inside(root, cwdAbs));
}

const isMissing = (err: unknown): boolean => {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
};

/** Realpath of the deepest ancestor that exists, with the missing tail re-appended. */
async function realpathDeepest(fs: FileSystem, p: string): Promise<string> {
  const tail: string[] = [];
  let cur = p;
  for (;;) {
    try {
      const real = await fs.realpath(cur);
      return tail.length ? path.join(real, ...tail.reverse()) : real;
    } catch (err) {
      if (!isMissing(err)) throw err;
      const parent = path.dirname(cur);
      if (parent === cur) return p;
      tail.push(path.basename(cur));
      cur = parent;
    }
  }
}

async function exists(fs: FileSystem, p: string): Promise<boolean> {
  try {
    await fs.lstat(p);
    return true;
  } catch {
    return false;
  }
}

/** Maps the model's path to a real path inside cwd, or the error the model sees. */
export async function resolveInCwd(
  fs: FileSystem,
  cwd: string,
  input: string,
  options: ResolveOptions = {},
): Promise<PathCheck> {
  if (input.includes("\0") || (options.forbidNewline && /[\r\n]/.test(input))) {
    return { ok: false, error: FORBIDDEN_CHAR_ERROR };
  }
  if (options.hiddenError) return { ok: false, error: `ERROR: ${options.hiddenError}` };
  const escapes: PathCheck = { ok: false, error: `ERROR: path escapes cwd: ${input}` };
  const cwdAbs = path.resolve(cwd);
  const cwdReal = await fs.realpath(cwdAbs);
  if (options.readableRoots?.length && path.isAbsolute(input) && !options.write) {
    const saved = await inReadableRoot(fs, path.resolve(input), options.readableRoots);
    if (saved) return { ok: true, abs: saved, cwdReal, display: saved };
  }
  if (options.outside) return resolveAnywhere(fs, input, cwdAbs, cwdReal, options, options.outside.home);

  let target: string;
  if (path.isAbsolute(input)) {
    const norm = path.resolve(input);
    if (inside(cwdAbs, norm) || inside(cwdReal, norm)) {
      target = norm;
    } else {
      const rel = norm.replace(/^[/\\]+/, "");
      const first = rel.split(/[/\\]/)[0] ?? "";
      if (!first || !(await exists(fs, path.join(cwdAbs, first)))) return escapes;
      target = path.join(cwdAbs, rel);
    }
  } else {
    target = path.resolve(cwdAbs, input);
  }
  // Lexical check first: `..` is resolved before any symlink is looked at, so
  // `../x` never reaches the filesystem.
  if (!inside(cwdAbs, target) && !inside(cwdReal, target)) return escapes;

  let real: string;
  try {
    real = await realpathDeepest(fs, target);
  } catch {
    // A symlink loop or unreadable component: nothing safe to operate on.
    return escapes;
  }
  if (!inside(cwdReal, real)) return escapes;
  if (SPECIAL_ROOTS.some((root) => inside(root, real) && !inside(root, cwdReal))) return escapes;
  return finishCheck(fs, input, cwdAbs, cwdReal, target, real, options);
}

/**
 * Chord's local paths: `~` expanded, and a path outside the project taken
 * where it is (absolute when shown); the rules that hold inside the project
 * (no `.git`, no device, no hidden path, none of yuj's own files to change) still do.
 */
async function resolveAnywhere(
  fs: FileSystem,
  input: string,
  cwdAbs: string,
  cwdReal: string,
  options: ResolveOptions,
  home: string,
): Promise<PathCheck> {
  const expanded = input === "~" || input.startsWith("~/") ? path.join(home, input.slice(1)) : input;
  const target = path.resolve(cwdAbs, expanded);
  let real: string;
  try {
    real = await realpathDeepest(fs, target);
  } catch {
    return { ok: false, error: `ERROR: cannot resolve ${input}: a symbolic link loop or an unreadable folder on the way` };
  }
  if (SPECIAL_ROOTS.some((root) => inside(root, real) && !inside(root, cwdReal))) {
    return { ok: false, error: `ERROR: blocked device path: ${input} (file tools read and write regular files only)` };
  }
  // A path named inside the project stays inside it: the permission rules
  // judged it as a project path, and a link made (or swapped in) after they
  // did must not carry the tool outside unasked. The outside place, named
  // itself, goes to the rules like any outside path.
  if ((inside(cwdAbs, target) || inside(cwdReal, target)) && !inside(cwdReal, real)) {
    return { ok: false, error: `ERROR: ${input} leads outside the project through a symbolic link (to ${real}); name that path itself to use it` };
  }
  return finishCheck(fs, input, cwdAbs, cwdReal, target, real, options);
}

/**
 * Whether a path error is the refusal of a hidden path (or of hidden paths
 * that could not be resolved): tools that answer in kinds report it as a
 * missing file, never as a path outside the project.
 */
export function isHiddenRefusal(error: string): boolean {
  return error.includes("[sandbox].unreadable_paths");
}

/** The refusal for a real path that [sandbox].unreadable_paths hides; undefined when it is not hidden. */
export function hiddenRefusal(hidden: ResolveOptions["hidden"], input: string, real: string): string | undefined {
  const by = hidden?.find((h) => (h.kind === "dir" ? inside(h.path, real) : h.path === real));
  return by ? `ERROR: ${input} is hidden by [sandbox].unreadable_paths (${by.path}): file tools do not open it either` : undefined;
}

/** The checks every resolved path passes last: `.git`, hidden paths, own files, a regular file. */
async function finishCheck(
  fs: FileSystem,
  input: string,
  cwdAbs: string,
  cwdReal: string,
  target: string,
  real: string,
  options: ResolveOptions,
): Promise<PathCheck> {
  if (isInGitDir(cwdReal, real) || isInGitDir(cwdAbs, target)) return { ok: false, error: gitDirError(input) };
  const hidden = hiddenRefusal(options.hidden, input, real);
  if (hidden) return { ok: false, error: hidden };
  if (options.write) {
    const refused = await ownFileRefusal(fs, input, { cwdAbs, cwdReal, target, real, ownDirs: options.write.ownDirs });
    if (refused) return { ok: false, error: refused };
  }

  try {
    const st = await fs.stat(real);
    if (!st.isFile() && !st.isDirectory()) {
      return { ok: false, error: `ERROR: ${input} is not a regular file` };
    }
  } catch {
    // Missing targets are fine here; each tool reports them its own way.
  }
  return { ok: true, abs: real, cwdReal, display: displayPath(cwdReal, real) };
}

/**
 * The real path of `target` when it lies inside one of `roots` (each
 * compared by its real path too, so a link cannot lead elsewhere); undefined
 * otherwise, and for a missing root.
 */
async function inReadableRoot(fs: FileSystem, target: string, roots: readonly string[]): Promise<string | undefined> {
  let real: string;
  try {
    real = await realpathDeepest(fs, target);
  } catch {
    return undefined;
  }
  for (const root of roots) {
    const rootReal = await fs.realpath(root).catch(() => undefined);
    if (rootReal && inside(rootReal, real)) return real;
  }
  return undefined;
}

/**
 * A path as the model should see it: relative to cwd, "." for cwd itself;
 * absolute when it lies outside cwd (a saved output file), never `../..`.
 */
export function displayPath(cwdReal: string, abs: string): string {
  const rel = path.relative(cwdReal, abs);
  if (rel.startsWith("..") || path.isAbsolute(rel)) return abs;
  return rel === "" ? "." : rel.split(path.sep).join("/");
}

/**
 * The first step of every tool that works on an existing file: resolve it
 * inside cwd, say "file not found" (with a did-you-mean) or refuse a
 * directory with the tool's own words, and give its size.
 */
export async function locateExistingFile(
  fs: FileSystem,
  cwd: string,
  input: string,
  words: { directory: string; forbidNewline?: boolean; write?: ResolveOptions["write"]; access?: Pick<ResolveOptions, "readableRoots" | "hidden" | "hiddenError"> },
): Promise<{ ok: true; abs: string; display: string; size: number } | { ok: false; error: string }> {
  const where = await resolveInCwd(fs, cwd, input, {
    forbidNewline: words.forbidNewline ?? false,
    ...(words.write ? { write: words.write } : {}),
    ...words.access,
  });
  if (!where.ok) return where;
  let st;
  try {
    st = await fs.stat(where.abs);
  } catch {
    return { ok: false, error: `ERROR: file not found: ${echoPath(cwd, input, where.cwdReal)}${await didYouMean(fs, cwd, input)}` };
  }
  if (st.isDirectory()) return { ok: false, error: words.directory };
  return { ok: true, abs: where.abs, display: where.display, size: st.size };
}

/**
 * locateExistingFile, then the whole file's bytes — refused, before anything
 * is read, when the file is past the file tools' size limit.
 */
export async function readExistingFile(
  fs: FileSystem,
  cwd: string,
  input: string,
  words: {
    verb: string;
    directory: string;
    forbidNewline?: boolean;
    write?: ResolveOptions["write"];
    access?: Pick<ResolveOptions, "readableRoots" | "hidden" | "hiddenError">;
    tooLarge: (size: number) => string;
  },
): Promise<{ ok: true; abs: string; display: string; bytes: Uint8Array } | { ok: false; error: string }> {
  const where = await locateExistingFile(fs, cwd, input, words);
  if (!where.ok) return where;
  if (tooLarge(where.size)) return { ok: false, error: words.tooLarge(where.size) };
  try {
    return { ok: true, abs: where.abs, display: where.display, bytes: await readChecked(fs, where.abs) };
  } catch (err) {
    return { ok: false, error: `ERROR: cannot ${words.verb} ${input}: ${(err as Error).message}` };
  }
}

/**
 * The refusal for a write target written as a directory (`out/`): the file
 * would otherwise land as a file named like the folder, or fail deep inside
 * the write. "" when the path names a file.
 */
export function directoryTargetError(input: string): string {
  if (!/[/\\]$/.test(input)) return "";
  const dir = input.replace(/[/\\]+$/, "");
  return `path ${input} ends with /, so it names a directory; give the file's name (e.g. ${dir ? `${dir}/` : ""}file.txt)`;
}
