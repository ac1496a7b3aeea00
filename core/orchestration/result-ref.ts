// A worker's `complete(result_ref)` names a result save_artifact stored. It
// is read back only when every part of the reference agrees with the stored
// bytes, as the reference's result-reference check requires: the path is
// the one its id names under artifacts/results, the id is the one its
// result_type and sha256 make, and the bytes have that sha256 and size. A
// reference that was edited or made up never passes for a stored result.

import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { isAbsolute, join, normalize } from "node:path";

export interface ResultRef {
  id: string;
  result_type: string;
  rel_path: string;
  sha256: string;
  size_bytes: number;
}

const RESULTS = join("artifacts", "results");
const sha256Hex = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");

/** A stored result's id: it covers the type too, so one payload saved as two types gives two results. */
export const resultRefId = (resultType: string, digest: string): string => `sha256-${sha256Hex(`${resultType}\0${digest}`)}`;

/** The stored result's value, or why the reference cannot be trusted. */
export function readResultRef(dir: string, ref: ResultRef): { value: unknown } | { error: string } {
  const rel = normalize(ref.rel_path);
  if (isAbsolute(rel) || rel.startsWith("..") || !rel.startsWith(RESULTS)) {
    return { error: `rel_path ${ref.rel_path} is not under artifacts/results` };
  }
  const id = resultRefId(ref.result_type.trim(), ref.sha256);
  if (ref.id !== id) return { error: `id does not match result_type and sha256 (expected ${id}, got ${ref.id})` };
  if (rel !== join(RESULTS, `${id}.json`)) return { error: `rel_path does not match id: expected artifacts/results/${id}.json, got ${ref.rel_path}` };
  let bytes: Buffer;
  try {
    bytes = readFileSync(join(dir, rel));
  } catch (err) {
    return { error: `${ref.rel_path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}` };
  }
  const digest = sha256Hex(bytes);
  if (digest !== ref.sha256) return { error: `${ref.rel_path} has sha256 ${digest}, not the ${ref.sha256} the reference names` };
  if (bytes.length !== ref.size_bytes) return { error: `size mismatch: ${ref.rel_path} holds ${bytes.length} bytes, the reference says ${ref.size_bytes}` };
  try {
    return { value: JSON.parse(bytes.toString("utf8")) };
  } catch {
    return { error: `${ref.rel_path} is not JSON` };
  }
}
