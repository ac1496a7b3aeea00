// Layered configuration: built-in defaults < user file < project file <
// each --config file in order < command-line overrides. Tables merge key by
// key; arrays and scalars replace. Each layer is validated on its own first,
// so an error names the file that holds the bad key, then the merged result
// is validated once more for keys that only some layer can supply.

import * as fs from "node:fs";
import * as path from "node:path";
import { randomBytes } from "node:crypto";
import { parse, stringify, TomlError } from "smol-toml";
import type { z } from "zod";
import { configSchema, type Config } from "./schema.js";
import { homeDir, projectConfigPath, userConfigPath, type Env } from "../paths.js";

type Table = Record<string, unknown>;
type KeyPath = readonly PropertyKey[];
type Issue = z.core.$ZodIssue;

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
}

export type ConfigSource = { path: string; found: boolean };

export interface ConfigIssue {
  file: string; // or "command-line options"
  key?: string; // dotted, e.g. `permissions.rules[2].action`
  message: string; // what is wrong and what to do, without the file prefix
  line?: number; // TOML syntax errors only
  column?: number;
}

export class ConfigError extends Error {
  override name = "ConfigError";
  readonly issues: ConfigIssue[];
  constructor(issues: ConfigIssue[]) {
    super(issues.map((i) => `config error in ${i.file}: ${i.message}`).join("\n"));
    this.issues = issues;
  }
}

const OVERRIDES = "command-line options";
const DEFAULTS = "built-in defaults";

export function loadConfig(options: LoadConfigOptions): { config: Config; sources: ConfigSource[] } {
  const env = options.env ?? process.env;
  const home = options.home ?? homeDir(env);
  const layers: Array<{ file: string; data: Table }> = [];
  const sources: ConfigSource[] = [];
  const addLayer = (file: string, data: Table) => {
    // Checked without its null/undefined entries: those mean "reset"/"not given".
    const issues = validate(merge(Object.create(null), data), () => file, true).issues;
    if (issues.length > 0) throw new ConfigError(issues);
    layers.push({ file, data });
  };
  const addFile = (file: string, required: boolean) => {
    const data = readToml(file, required);
    sources.push({ path: file, found: data !== undefined });
    if (data) addLayer(file, data);
  };

  addFile(userConfigPath(env, home), false);
  addFile(projectConfigPath(options.cwd), false);
  for (const file of options.configFiles ?? []) addFile(path.resolve(options.cwd, file), true);
  if (options.overrides) addLayer(OVERRIDES, options.overrides as Table);

  const merged = layers.reduce<Table>((acc, layer) => merge(acc, layer.data), Object.create(null));
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
  const result = validate(merged, owner, false);
  if (!result.config) throw new ConfigError(result.issues);
  return { config: result.config, sources };
}

/**
 * For `yuj setup`: merges `patch` into the user config file and writes it
 * atomically (temp file + rename), keeping every other key. Comments in the
 * file are not kept: the TOML library does not round-trip them.
 */
export function writeUserConfig(file: string, patch: ConfigPatch): Table {
  // A symlinked config (dotfile managers) is updated where it points, not replaced.
  const target = attempt(() => fs.realpathSync(file)) ?? file;
  const next = merge(readToml(target, false) ?? {}, patch as Table);
  // Refuse to write a file the next start would reject.
  const issues = validate(next, () => file, true).issues;
  if (issues.length > 0) throw new ConfigError(issues);

  const dir = path.dirname(target);
  fs.mkdirSync(dir, { recursive: true });
  const mode = attempt(() => fs.statSync(target).mode & 0o777) ?? 0o600;
  const tmp = path.join(dir, `.${path.basename(target)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  try {
    // flush: fsync before the rename, so a crash cannot leave an empty file.
    fs.writeFileSync(tmp, stringify(next) + "\n", { mode, flag: "wx", flush: true });
    fs.chmodSync(tmp, mode); // the create mode is masked by umask
    fs.renameSync(tmp, target);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  return next;
}

const attempt = <T>(fn: () => T): T | undefined => {
  try {
    return fn();
  } catch {
    return undefined;
  }
};

/** Parses a TOML file; a missing optional file gives undefined. */
function readToml(file: string, required: boolean): Table | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
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
    return parse(text) as Table;
  } catch (err) {
    if (!(err instanceof TomlError)) throw err;
    const reason = (err.message.split("\n")[0] ?? "").replace(/^Invalid TOML document: /, "");
    const message = `TOML syntax error at line ${err.line}, column ${err.column}: ${reason}; fix the TOML there\n${err.codeblock}`;
    throw new ConfigError([{ file, line: err.line, column: err.column, message: message.trimEnd() }]);
  }
}

const isTable = (v: unknown): v is Table =>
  typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Date);

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

function valueAt(data: unknown, p: KeyPath): unknown {
  let cur = data;
  for (const seg of p) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[seg];
  }
  return cur;
}

function validate(data: Table, fileOf: (p: KeyPath) => string, partial: boolean): { config?: Config; issues: ConfigIssue[] } {
  const result = configSchema.safeParse(data);
  if (result.success) return { config: result.data, issues: [] };
  const issues: ConfigIssue[] = [];
  for (const issue of result.error.issues) {
    // A layer may leave out a key that another layer supplies (table entries
    // merge), except inside an array, whose entries are replaced whole.
    const missing = issue.code !== "unrecognized_keys" && valueAt(data, issue.path) === undefined;
    if (partial && missing && !issue.path.some((s) => typeof s === "number")) continue;
    issues.push(...explain(issue, data, fileOf(issue.path)));
  }
  return { issues };
}

function explain(issue: Issue, data: Table, file: string): ConfigIssue[] {
  if (issue.code === "unrecognized_keys") {
    return issue.keys.map((k) => {
      const key = keyPath([...issue.path, k]);
      return { file, key, message: `unknown key ${key} ${suggest(issue.path, k)}` };
    });
  }
  const key = keyPath(issue.path);
  const got = valueAt(data, issue.path);
  let expected = describe(schemaAt(issue.path));
  if (issue.code === "invalid_format" && issue.format === "regex") {
    // The schema's own message names the format ("an environment variable name").
    expected = issue.message.startsWith("Invalid") ? `a string matching ${issue.pattern}` : issue.message;
  }
  if (!expected) return [{ file, key, message: `${key}: ${issue.message}` }];
  const message = got === undefined
    ? `${key}: required key is missing; set it to ${expected}`
    : `${key}: expected ${expected}, got ${show(got)}`;
  return [{ file, key, message }];
}

/** `tools.bash_timeout`, `permissions.rules[2].action`, `mcp."my.server"`. */
function keyPath(p: KeyPath): string {
  const plain = (seg: string) => (/^[A-Za-z0-9_-]+$/.test(seg) ? seg : JSON.stringify(seg));
  const text = p.map((seg, i) => (typeof seg === "number" ? `[${seg}]` : (i ? "." : "") + plain(String(seg))));
  return text.join("") || "(top level)";
}

function show(v: unknown): string {
  if (typeof v === "string") return `string ${JSON.stringify(v.length > 60 ? v.slice(0, 57) + "..." : v)}`;
  if (typeof v === "number" || typeof v === "bigint" || typeof v === "boolean") return `${typeof v} ${v}`;
  if (v instanceof Date) return "a date";
  if (Array.isArray(v)) return "an array";
  return v === null ? "null" : "a table";
}

// Reading zod's schema definitions (public `def`) to describe what a key
// takes and to find the known keys next to an unknown one.
interface Schema {
  def: {
    type: string;
    innerType?: Schema;
    shape?: Record<string, Schema>;
    element?: Schema;
    valueType?: Schema;
    entries?: Record<string, string | number>;
    format?: string;
    checks?: Array<{ _zod: { def: { check: string; value?: unknown; inclusive?: boolean; format?: string } } }>;
  };
}
const WRAPPERS = new Set(["default", "prefault", "optional", "nullable", "readonly"]);
const unwrap = (s: Schema | undefined): Schema | undefined => {
  while (s && WRAPPERS.has(s.def.type)) s = s.def.innerType;
  return s;
};
const root = configSchema as unknown as Schema;

function schemaAt(p: KeyPath): Schema | undefined {
  let cur = unwrap(root);
  for (const seg of p) {
    const def = cur?.def;
    if (def?.type === "object") cur = unwrap(def.shape?.[String(seg)]);
    else if (def?.type === "array") cur = unwrap(def.element);
    else if (def?.type === "record") cur = unwrap(def.valueType);
    else return undefined;
  }
  return cur;
}

function describe(s: Schema | undefined): string | undefined {
  if (!s) return undefined;
  const checks = (s.def.checks ?? []).map((c) => c._zod.def);
  const has = (name: string) => checks.find((c) => c.check === name);
  switch (s.def.type) {
    case "boolean":
      return "true or false";
    case "enum":
      return `one of ${Object.values(s.def.entries ?? {}).map((v) => JSON.stringify(v)).join(", ")}`;
    case "string":
      if (s.def.format === "url") return "a URL (e.g. https://host/path)";
      return has("min_length") ? "a non-empty string" : "a string";
    case "number": {
      const int = checks.some((c) => c.check === "number_format" && /int/.test(c.format ?? ""));
      const lo = has("greater_than");
      const hi = has("less_than");
      if (int && lo?.value === 0 && !hi) return lo.inclusive ? "a non-negative integer" : "a positive integer";
      const kind = int ? "an integer" : "a number";
      if (lo?.inclusive && hi?.inclusive) return `${kind} from ${lo.value} to ${hi.value}`;
      const bounds = [lo && `${lo.inclusive ? "at least" : "above"} ${lo.value}`, hi && `${hi.inclusive ? "at most" : "below"} ${hi.value}`];
      return [kind, ...bounds.filter(Boolean)].join(" ");
    }
    case "array": {
      const el = unwrap(s.def.element)?.def.type;
      const of = el === "string" ? "strings" : el === "object" ? "tables" : "values";
      return `${has("min_length") ? "a non-empty" : "an"} array of ${of}`;
    }
    case "object":
    case "record":
      return "a table";
    default:
      return undefined;
  }
}

function suggest(objectPath: KeyPath, key: string): string {
  const obj = schemaAt(objectPath);
  const siblings = obj?.def.type === "object" ? Object.keys(obj.def.shape ?? {}) : [];
  const near = closest(key, siblings);
  if (near) return `(did you mean ${keyPath([...objectPath, near])}?)`;
  // The right name in the wrong table, e.g. `bash_timeout` at the top level.
  const elsewhere = fixedKeyPaths(unwrap(root), []).filter((p) => norm(String(p[p.length - 1])) === norm(key));
  if (elsewhere.length === 1) return `(did you mean ${keyPath(elsewhere[0]!)}? move it there)`;
  if (siblings.length > 0 && siblings.length <= 12) return `(remove it; the keys allowed here are ${siblings.join(", ")})`;
  return "(remove it or fix its spelling)";
}

// Key paths reachable through tables with fixed keys (not arrays or records).
function fixedKeyPaths(s: Schema | undefined, at: PropertyKey[]): PropertyKey[][] {
  if (s?.def.type !== "object") return [];
  return Object.entries(s.def.shape ?? {}).flatMap(([k, v]) => [[...at, k], ...fixedKeyPaths(unwrap(v), [...at, k])]);
}

const norm = (k: string) => k.toLowerCase().replace(/-/g, "_");

function closest(key: string, candidates: string[]): string | undefined {
  const target = norm(key);
  const limit = Math.max(1, Math.min(3, Math.floor(target.length / 4)));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const c of candidates) {
    const d = editDistance(target, norm(c));
    if (d < bestDistance) [best, bestDistance] = [c, d];
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length]!;
}
