// The projects whose config the user trusts: `<config dir>/trusted.toml`
// (`~/.config/yuj/trusted.toml`), one table per project, keyed by the
// project directory's real path and holding the sha256 of the config file
// as it was when trusted. Written only by `yuj trust` and the TUI's start-up
// question (and refreshed when yuj itself adds a rule to a trusted file);
// any other change to the project file makes its hash differ, so it is
// untrusted again.

import * as fs from "node:fs";
import * as path from "node:path";
import { createHash } from "node:crypto";
import { parse, stringify, TomlError } from "smol-toml";
import { z } from "zod";
import { configDir, homeDir, type Env } from "../paths.js";
import { ConfigError } from "./errors.js";
import { writeConfigText } from "./write-atomic.js";

const TRUST_FILE = "trusted.toml";

const record = z.strictObject({
  /** The config file that was trusted. */
  file: z.string().min(1),
  sha256: z.string().regex(/^[0-9a-f]{64}$/, "a sha256 in lowercase hex"),
  trusted_at: z.string().min(1),
});
const storeSchema = z.strictObject({ projects: z.record(z.string(), record).default({}) });

export type TrustRecord = z.infer<typeof record>;
export type TrustStore = Record<string, TrustRecord>;

const HEADER =
  "# Project configs you trust (yuj trust). Each table is a project directory;\n" +
  "# sha256 is the config file's hash when you trusted it: once the file changes,\n" +
  "# yuj ignores its loosening settings until you trust it again.\n\n";

export function trustStorePath(env: Env = process.env, home: string = homeDir(env)): string {
  return path.join(configDir(env, home), TRUST_FILE);
}

export const sha256 = (bytes: Uint8Array | string): string => createHash("sha256").update(bytes).digest("hex");

/** The trust key of a project: its directory's real path. */
export function projectKey(dir: string): string {
  try {
    return fs.realpathSync(dir);
  } catch {
    return path.resolve(dir);
  }
}

export function readTrustStore(file: string): TrustStore {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw new ConfigError([{ file, message: `cannot read the trust store (${(err as Error).message}); check that it is a readable file` }]);
  }
  let data: unknown;
  try {
    data = parse(text);
  } catch (err) {
    if (!(err instanceof TomlError)) throw err;
    throw new ConfigError([{ file, message: `TOML syntax error at line ${err.line}: fix it, or delete the file (yuj then asks again about each project)` }]);
  }
  const checked = storeSchema.safeParse(data);
  if (!checked.success) {
    const issue = checked.error.issues[0]!;
    const where = issue.path.map(String).join(".") || "(top level)";
    throw new ConfigError([{ file, key: where, message: `${where}: ${issue.message}; fix it, or delete the file (yuj then asks again about each project)` }]);
  }
  return checked.data.projects;
}

/** Records that `project`'s config file, with this hash, is trusted; other projects are kept. */
export function recordTrust(store: string, project: string, entry: { file: string; sha256: string }, now = new Date()): TrustRecord {
  const projects = readTrustStore(store);
  const saved: TrustRecord = { file: entry.file, sha256: entry.sha256, trusted_at: now.toISOString() };
  projects[project] = saved;
  writeStore(store, projects);
  return saved;
}

/** Forgets a project; the record it had, or undefined when there was none. */
export function revokeTrust(store: string, project: string): TrustRecord | undefined {
  const projects = readTrustStore(store);
  const had = projects[project];
  if (!had) return undefined;
  delete projects[project];
  writeStore(store, projects);
  return had;
}

function writeStore(store: string, projects: TrustStore): void {
  writeConfigText(store, HEADER + stringify({ projects }) + "\n");
}
