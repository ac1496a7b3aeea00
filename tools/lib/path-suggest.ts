// What a "file not found" says besides the failure: the existing paths the
// model most likely meant. Models mistype a directory, drop or add a leading
// `./`, change a letter's case or an extension, or remember a file in the
// wrong folder; each of these leaves a real path close by. The search is
// bounded (entries visited, depth), so a huge tree costs little.

import * as path from "node:path";
import type { FileSystem } from "../../core/services.js";
import { resolveInCwd } from "./paths.js";
import { editDistance } from "../../core/text/edit-distance.js";

/** At most this many paths are suggested. */
const MAX_SUGGESTIONS = 3;
/** The project walk for a file of the same name stops after this many entries. */
const MAX_VISITED = 20_000;
const MAX_DEPTH = 12;
/** Folders whose files are never what a model meant by a project path. */
const SKIP_DIRS = new Set([".git", "node_modules", ".yuj"]);

/** The input as the model should see it echoed: relative when it is an absolute path inside cwd. */
export function echoPath(cwd: string, input: string, cwdReal?: string): string {
  if (!path.isAbsolute(input)) return input;
  for (const root of [path.resolve(cwd), cwdReal].filter((r): r is string => !!r)) {
    const rel = path.relative(root, path.resolve(input));
    if (rel === "") return ".";
    if (!rel.startsWith("..") && !path.isAbsolute(rel)) return rel.split(path.sep).join("/");
  }
  return input;
}

/**
 * The ` (did you mean 'p'?)` / ` (did you mean one of: 'a', 'b'?)` suffix for
 * a missing file, or "" when nothing close exists.
 */
export async function didYouMean(fs: FileSystem, cwd: string, input: string, opts: Guess = {}): Promise<string> {
  const found = await nearestPaths(fs, cwd, input, opts);
  if (found.length === 0) return "";
  if (found.length === 1) return ` (did you mean '${found[0]}'?)`;
  return ` (did you mean one of: ${found.map((p) => `'${p}'`).join(", ")}?)`;
}

/**
 * The same guesses as Chord's file tools give them: a `Did you mean:` line
 * under the error, then one `- path` line each; "" when nothing close exists.
 */
export async function didYouMeanList(fs: FileSystem, cwd: string, input: string): Promise<string> {
  const found = await nearestPaths(fs, cwd, input);
  return found.length === 0 ? "" : `\nDid you mean:${found.map((p) => `\n- ${p}`).join("")}`;
}

interface Guess {
  /** A folder may be what was meant too (a search scope), not only a file. */
  folders?: boolean;
}

/** Existing project files (and folders, when asked) near the missing `input`, best first, relative to cwd. */
async function nearestPaths(fs: FileSystem, cwd: string, input: string, opts: Guess = {}): Promise<string[]> {
  const cwdReal = await fs.realpath(path.resolve(cwd)).catch(() => path.resolve(cwd));
  const out: string[] = [];
  const wanted = echoPath(cwd, input, cwdReal);
  // Never the path itself: a file a patch moved away in memory is still on disk.
  const add = (rel: string) => {
    if (out.length < MAX_SUGGESTIONS && !out.includes(rel) && rel !== wanted) out.push(rel);
  };

  // A stray `./`, `.` or `/` in front of a repository path: that file is
  // what the model meant, and the only suggestion (the reference's `.pkg/x` → `pkg/x`).
  const stripped = wanted.replace(/^[./]+/, "");
  if (stripped !== "" && stripped !== wanted && (await isFile(fs, cwd, stripped))) return [stripped];

  const where = await resolveInCwd(fs, cwd, wanted).catch(() => undefined);
  if (!where?.ok) return out;
  const rel = path.relative(cwdReal, where.abs);
  if (rel.startsWith("..") || rel === "") return out;
  const parts = rel.split(path.sep);
  const name = parts[parts.length - 1]!;

  // Siblings of the deepest folder that exists, with a name close to the missing one.
  let depth = parts.length - 1;
  while (depth > 0 && !(await isDir(fs, path.join(cwdReal, ...parts.slice(0, depth))))) depth--;
  const missing = parts[depth]!;
  const base = path.join(cwdReal, ...parts.slice(0, depth));
  const entries = await fs.readdir(base, { withFileTypes: true }).catch(() => []);
  const close = entries
    .map((e) => ({ e, d: nameDistance(missing, e.name) }))
    .filter(({ e, d }) => !SKIP_DIRS.has(e.name) && d <= Math.max(2, Math.floor(missing.length / 4)))
    .sort((a, b) => a.d - b.d || a.e.name.localeCompare(b.e.name));
  for (const { e } of close) {
    const candidate = [...parts.slice(0, depth), e.name, ...parts.slice(depth + 1)].join("/");
    if (await isFile(fs, cwdReal, candidate)) add(candidate);
    else if (depth === parts.length - 1 && (e.isFile() || (opts.folders === true && e.isDirectory()))) add(candidate);
  }

  // The same file name somewhere else in the project.
  if (out.length < MAX_SUGGESTIONS) {
    for (const hit of await sameNamedFiles(fs, cwdReal, name)) add(hit);
  }
  return out;
}

async function isFile(fs: FileSystem, cwd: string, rel: string): Promise<boolean> {
  const check = await resolveInCwd(fs, cwd, rel).catch(() => undefined);
  if (!check?.ok) return false;
  return fs.stat(check.abs).then((st) => st.isFile(), () => false);
}

async function isDir(fs: FileSystem, abs: string): Promise<boolean> {
  return fs.stat(abs).then((st) => st.isDirectory(), () => false);
}

/** Files named `name` (case ignored) under cwd, shallowest first, found within the walk's bounds. */
async function sameNamedFiles(fs: FileSystem, cwdReal: string, name: string): Promise<string[]> {
  const wanted = name.toLowerCase();
  const hits: string[] = [];
  let visited = 0;
  let level: string[] = [""];
  for (let depth = 0; depth < MAX_DEPTH && level.length && visited < MAX_VISITED; depth++) {
    const next: string[] = [];
    for (const rel of level) {
      const entries = await fs.readdir(path.join(cwdReal, rel), { withFileTypes: true }).catch(() => []);
      for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
        if (++visited > MAX_VISITED) break;
        const child = rel ? `${rel}/${e.name}` : e.name;
        if (e.isDirectory()) {
          if (!SKIP_DIRS.has(e.name)) next.push(child);
        } else if (e.name.toLowerCase() === wanted) {
          hits.push(child);
          if (hits.length >= MAX_SUGGESTIONS) return hits;
        }
      }
    }
    level = next;
  }
  return hits;
}

/**
 * How far apart two file names are: the edit distance, with a change of case
 * alone counting as nearly nothing (so `Readme.md` is closest to `README.md`).
 */
function nameDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (a.toLowerCase() === b.toLowerCase()) return 0.5;
  // Names whose lengths differ this much are never suggested: skip the table.
  if (Math.abs(a.length - b.length) > 8) return Infinity;
  return editDistance(a.toLowerCase(), b.toLowerCase());
}
