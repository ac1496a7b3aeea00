// Where Chord's session artifacts live and how they are written: everything
// under <session>/artifacts/, named files at its top, immutable results under
// artifacts/results/. Writes are atomic (a temp file renamed or linked into
// place), so a reader never sees half an artifact, and a path can never leave
// the artifacts directory, through `..` or through a symbolic link.

import { createHash } from "node:crypto";
import * as path from "node:path";
import { atomicWrite, writeTemp } from "../../../core/atomic-write.js";
import type { FileSystem } from "../../../core/services.js";

export const ARTIFACTS_DIR = "artifacts";
export const RESULTS_DIR = "artifacts/results";

export const sha256Hex = (data: string | Uint8Array): string => createHash("sha256").update(data).digest("hex");

export class ArtifactError extends Error {}

/**
 * A model-given filename made safe, as Chord makes it: only the last path
 * component is kept (so `../../x.md` is `x.md`, never a way out), and
 * characters outside [A-Za-z0-9._-] become `_`.
 */
export function safeFilename(raw: string): string {
  const trimmed = raw.trim();
  const parts = trimmed.split(/[\\/]+/).filter((p) => p !== "");
  const last = parts[parts.length - 1] ?? "";
  const base = (last === "." || last === ".." ? "" : last).replace(/[^A-Za-z0-9._-]/g, "_").replace(/^[._-]+|[._-]+$/g, "");
  if (base === "") throw new ArtifactError("filename is required");
  return base;
}

/** The artifacts root, made if missing; refused when it is a symbolic link. */
export async function artifactsRoot(fs: FileSystem, sessionDir: string): Promise<string> {
  const root = path.join(sessionDir, ARTIFACTS_DIR);
  await fs.mkdir(root, { recursive: true });
  if ((await fs.lstat(root)).isSymbolicLink()) throw new ArtifactError("the artifacts directory must not be a symbolic link");
  return root;
}

/**
 * A session-relative artifact path (`artifacts/...`) to an absolute one that
 * stays inside the artifacts directory after symbolic links are followed.
 */
export async function resolveArtifactPath(fs: FileSystem, sessionDir: string, rel: string): Promise<string> {
  const given = rel.trim();
  if (given === "") throw new ArtifactError("artifact path is required (path or rel_path)");
  if (path.isAbsolute(given)) throw new ArtifactError("artifact path must be session-relative, e.g. artifacts/report.md");
  const norm = path.posix.normalize(given.replace(/\\/g, "/"));
  if (norm === ".." || norm.startsWith("../")) throw new ArtifactError("artifact path escapes the session directory");
  if (norm.split("/")[0] !== ARTIFACTS_DIR || norm === ARTIFACTS_DIR) throw new ArtifactError("artifact path must be under artifacts/");
  const root = await artifactsRoot(fs, sessionDir);
  const abs = path.join(sessionDir, norm);
  let real: string;
  try {
    real = await fs.realpath(abs);
  } catch {
    throw new ArtifactError(`artifact not found: ${norm}`);
  }
  const realRoot = await fs.realpath(root);
  if (!real.startsWith(realRoot + path.sep)) throw new ArtifactError("artifact path escapes the artifacts directory through a symbolic link");
  return real;
}

/** Writes `data` at `target` atomically, failing with EEXIST when it exists (a hard link never replaces). */
export async function createExclusive(fs: FileSystem, target: string, data: string): Promise<void> {
  const tmp = await writeTemp(fs, target, data, { mode: 0o600 });
  try {
    await fs.link(tmp, target);
  } finally {
    await fs.unlink(tmp).catch(() => undefined);
  }
}

/** Replaces `target` atomically (a rename over it). */
export async function replaceAtomic(fs: FileSystem, target: string, data: string): Promise<void> {
  await atomicWrite(fs, target, data, { mode: 0o600 });
}

/** JSON with object keys sorted at every level and no spaces: equal results give equal bytes. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const obj = value as Record<string, unknown>;
    const keys = Object.keys(obj).filter((k) => obj[k] !== undefined).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
