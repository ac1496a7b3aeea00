// The artifacts a worker's `complete` lists are checked against the files,
// as the reference checks artifact references: each names a file inside the
// session's artifacts folder (rel_path, else path), that file exists and is
// a regular file, and a size or sha256 the entry gives matches it. The owner
// is told about files that are there, as they are; a wrong entry is the
// worker's to correct, so complete is refused (the task goes on).

import type { FileSystem } from "../../../core/services.js";
import { ArtifactError, resolveArtifactPath, sha256Hex } from "./artifact-store.js";

export interface ListedArtifact {
  rel_path?: string;
  path?: string;
  size_bytes?: number;
  sha256?: string;
}

/** Why the n-th listed artifact does not match its file (1-based, in the reference's words), or undefined. */
export async function artifactRefsProblem(fs: FileSystem, sessionDir: string, artifacts: readonly ListedArtifact[]): Promise<string | undefined> {
  for (const [i, a] of artifacts.entries()) {
    const n = i + 1;
    let abs: string;
    try {
      abs = await resolveArtifactPath(fs, sessionDir, a.rel_path || a.path || "");
    } catch (err) {
      if (err instanceof ArtifactError) return `artifact ${n}: ${err.message}`;
      throw err;
    }
    const st = await fs.stat(abs);
    if (!st.isFile()) return `artifact ${n} is not a regular file`;
    if (a.size_bytes !== undefined && a.size_bytes !== 0 && a.size_bytes !== st.size) return `artifact ${n} size mismatch: expected ${a.size_bytes}, got ${st.size}`;
    if (a.sha256 !== undefined && a.sha256 !== "") {
      const digest = sha256Hex(await fs.readFile(abs));
      if (digest !== a.sha256) return `artifact ${n} digest mismatch: expected ${a.sha256}, got ${digest}`;
    }
  }
  return undefined;
}
