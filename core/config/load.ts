// Layered configuration: built-in defaults < user file < project file
// (without its loosening settings unless the user trusts it: see
// project-trust.ts) < each --config file in order < command-line overrides.
// Tables merge key by
// key; arrays and scalars replace. Each layer is validated on its own first,
// so an error names the file that holds the bad key, then the merged result
// is validated once more for keys that only some layer can supply.

import * as fs from "node:fs";
import * as path from "node:path";
import { parse, stringify, TomlError } from "smol-toml";
import { ConfigError } from "./errors.js";
import { aliasNote, blameAlias, renameAliases, type MovedKey } from "./aliases.js";
import { isTable, validate, valueAt } from "./explain-issues.js";
import { MCP_JSON, readMcpJson, type McpJsonRead } from "./mcp-json.js";
import { judgeProjectLayer, type ProjectTrust } from "./project-trust.js";
import { defaultConfig, type Config } from "./schema.js";
import { projectKey, readTrustStore, sha256, trustStorePath } from "./trust-store.js";
import { realOr, writeConfigText } from "./write-atomic.js";
import { homeDir, projectConfigPath, userConfigPath, type Env } from "../paths.js";

type Table = Record<string, unknown>;
type KeyPath = readonly PropertyKey[];

/** A partial config: what a layer, a CLI flag set or a setup patch holds.
 * `undefined` means "not given"; `null` removes the key set by lower layers
 * (in writeUserConfig: from the file), so the built-in default applies. */
export type ConfigPatch<T = Config> = T extends readonly unknown[]
  ? T
  : T extends object
    ? { [K in keyof T]?: ConfigPatch<T[K]> | null | undefined }
    : T;

export interface LoadConfigOptions {
  cwd: string;
  env?: Env;
  home?: string;
  /** --config files, in the order given; relative paths are from `cwd`. */
  configFiles?: string[];
  /** From command-line flags, already in config shape. */
  overrides?: ConfigPatch;
  /**
   * The project whose trust decides about the project file, when not `cwd`:
   * a replay's copy of a project is judged by the project it was taken from
   * (the file's hash must still match what the user trusted there).
   */
  trustAs?: string;
}

type ConfigSource = { path: string; found: boolean };

export interface LoadedConfig {
  config: Config;
  sources: ConfigSource[];
  /** How the project's config file was judged (project-trust.ts); absent when there is none. */
  project?: ProjectTrust;
  /** Keys read under another name (aliases.ts), one line each, for the user. */
  notes: string[];
}

const OVERRIDES = "command-line options";
const DEFAULTS = "built-in defaults";

export function loadConfig(options: LoadConfigOptions): LoadedConfig {
  const env = options.env ?? process.env;
  const home = options.home ?? homeDir(env);
  const layers: Array<{ file: string; data: Table }> = [];
  const sources: ConfigSource[] = [];
  const notes: string[] = [];
  const movedIn = new Map<string, MovedKey[]>();
  const readFile = (file: string, required: boolean) => {
    const read = readToml(file, required);
    if (read) {
      const moved = renameAliases(read.data, file);
      movedIn.set(file, moved);
      notes.push(...moved.map((m) => aliasNote(file, m)));
    }
    return read;
  };
  const addLayer = (file: string, data: Table) => {
    // Checked without its null/undefined entries: those mean "reset"/"not given".
    const issues = validate(merge(Object.create(null), data), () => file, true).issues;
    if (issues.length > 0) throw blameAlias(new ConfigError(issues), movedIn.get(file) ?? []);
    layers.push({ file, data });
  };
  const addFile = (file: string, required: boolean) => {
    const read = readFile(file, required);
    sources.push({ path: file, found: read !== undefined });
    if (read) addLayer(file, read.data);
    return read;
  };

  addFile(userConfigPath(env, home), false);
  const projectFile = projectConfigPath(options.cwd);
  const tomlRead = readFile(projectFile, false);
  sources.push({ path: projectFile, found: tomlRead !== undefined });
  const mcpJson = readMcpJson(options.cwd, env);
  if (mcpJson) {
    sources.push({ path: mcpJson.file, found: true });
    const issues = validate(mcpJson.data, () => mcpJson.file, true).issues;
    if (issues.length > 0) throw new ConfigError(issues);
  }
  // .mcp.json and .yuj/config.toml are one project layer (the TOML wins
  // where both name a server), trusted together: the hash covers both.
  const projectRead = joinProjectFiles(tomlRead, mcpJson);
  const projectLayerFile = tomlRead || !mcpJson ? projectFile : mcpJson.file;
  if (projectRead) addLayer(projectLayerFile, projectRead.data);
  let project: ProjectTrust | undefined;
  let effective: { index: number; data: Table } | undefined;
  if (projectRead) {
    // The project's loosening settings are judged against the layers below
    // it (defaults and the user's file), and dropped unless trusted.
    const below = [defaultConfig() as unknown as Table, ...layers.slice(0, -1).map((l) => l.data)].reduce(merge, Object.create(null));
    const layer = { file: projectLayerFile, project: projectKey(options.trustAs ?? options.cwd), ...projectRead };
    const judged = judgeProjectLayer(layer, below, () => readTrustStore(trustStorePath(env, home)));
    effective = { index: layers.length - 1, data: judged.data };
    project = judged.trust;
  }
  for (const file of options.configFiles ?? []) addFile(path.resolve(options.cwd, file), true);
  if (options.overrides) addLayer(OVERRIDES, options.overrides as Table);

  const mergeAll = (list: typeof layers) => list.reduce<Table>((acc, layer) => merge(acc, layer.data), Object.create(null));
  // Blame the layer that set the deepest part of the bad key's path.
  const owner = (p: KeyPath) => {
    let best = DEFAULTS;
    let depth = 0;
    for (const layer of layers) {
      let n = 0;
      while (n < p.length && valueAt(layer.data, p.slice(0, n + 1)) !== undefined) n++;
      if (n > 0 && n >= depth) [best, depth] = [layer.file, n];
    }
    return best;
  };
  // The files as written must be valid whatever is trusted; then the project
  // layer is swapped for what takes effect of it.
  let result = validate(mergeAll(layers), owner, false);
  if (result.config && effective) {
    layers[effective.index] = { file: projectLayerFile, data: effective.data };
    result = validate(mergeAll(layers), owner, false);
  }
  if (!result.config) throw new ConfigError(result.issues);
  return { config: result.config, sources, notes, ...(project ? { project } : {}) };
}

/**
 * For `yuj setup`: merges `patch` into the user config file and writes it
 * atomically (temp file + rename), keeping every other key. Comments in the
 * file are not kept: the TOML library does not round-trip them.
 */
export function writeUserConfig(file: string, patch: ConfigPatch): Table {
  return writeConfigFile(file, () => patch as Table).data;
}

export interface WrittenConfig {
  /** The file as it was read, once, before the change (absent: it did not exist). */
  before?: { data: Table; sha256: string };
  data: Table;
  /** Of the bytes written. */
  sha256: string;
}

/**
 * Reads a config file once, merges into it the patch `change` makes from its
 * content, refuses a result the next start would reject, and writes it
 * atomically where a symlink points.
 */
export function writeConfigFile(file: string, change: (current: Table) => Table): WrittenConfig {
  const target = realOr(file);
  const before = readToml(target, false);
  // Rewritten under yuj's names: the file the next start reads is valid either way.
  if (before) renameAliases(before.data, file);
  const next = merge(before?.data ?? {}, change(before?.data ?? {}));
  const issues = validate(next, () => file, true).issues;
  if (issues.length > 0) throw new ConfigError(issues);
  const text = stringify(next) + "\n";
  writeConfigText(target, text);
  return { ...(before ? { before } : {}), data: next, sha256: sha256(text) };
}

/** The project's two files as one layer; the hash is of the TOML alone when there is no .mcp.json. */
function joinProjectFiles(
  toml: { data: Table; sha256: string } | undefined,
  mcpJson: McpJsonRead | undefined,
): { data: Table; sha256: string } | undefined {
  if (!mcpJson) return toml;
  const data = merge(mcpJson.data, toml?.data ?? Object.create(null));
  const both = Buffer.concat([Buffer.from(`${toml?.sha256 ?? "no .yuj/config.toml"}\n${MCP_JSON}\n`), mcpJson.bytes]);
  return { data, sha256: sha256(both) };
}

/**
 * Parses a TOML file, read once (its hash is of the very bytes parsed); a
 * missing optional file gives undefined.
 */
function readToml(file: string, required: boolean): { data: Table; sha256: string } | undefined {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const missing = code === "ENOENT" || code === "ENOTDIR";
    if (missing && !required) return undefined;
    const message = missing
      ? "file not found (given with --config); check the path"
      : `cannot read the file (${(err as Error).message}); check that it is a readable file`;
    throw new ConfigError([{ file, message }]);
  }
  try {
    return { data: parse(bytes.toString("utf8")) as Table, sha256: sha256(bytes) };
  } catch (err) {
    if (!(err instanceof TomlError)) throw err;
    const reason = (err.message.split("\n")[0] ?? "").replace(/^Invalid TOML document: /, "");
    const message = `TOML syntax error at line ${err.line}, column ${err.column}: ${reason}; fix the TOML there\n${err.codeblock}`;
    throw new ConfigError([{ file, line: err.line, column: err.column, message: message.trimEnd() }]);
  }
}

// Null-prototype tables: a `__proto__` key in a file stays an ordinary
// (unknown, hence rejected) key instead of changing the object's prototype.
function merge(base: Table, top: Table): Table {
  const out: Table = Object.create(null);
  for (const [k, v] of Object.entries(base)) out[k] = v;
  for (const [k, v] of Object.entries(top)) {
    if (v === undefined) continue;
    if (v === null) delete out[k];
    else if (isTable(v)) out[k] = merge(isTable(out[k]) ? out[k] : Object.create(null), v);
    else out[k] = v;
  }
  return out;
}
