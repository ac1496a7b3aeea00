// Validating a configuration layer and wording each problem for a person:
// the file and key that hold it, what the key takes (read from the schema
// itself, so the words follow the schema), and the nearest known key for a
// misspelt one.

import type { z } from "zod";
import type { ConfigIssue } from "./errors.js";
import { notSupportedMessage } from "./not-supported.js";
import { configSchema, type Config } from "./schema.js";
import { editDistance } from "../text/edit-distance.js";

type Table = Record<string, unknown>;
type KeyPath = readonly PropertyKey[];
type Issue = z.core.$ZodIssue;

export const isTable = (v: unknown): v is Table =>
  typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Date);

export function valueAt(data: unknown, p: KeyPath): unknown {
  let cur = data;
  for (const seg of p) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[seg];
  }
  return cur;
}

export function validate(data: Table, fileOf: (p: KeyPath) => string, partial: boolean): { config?: Config; issues: ConfigIssue[] } {
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
      return { file, key, message: notSupportedMessage(key) ?? `unknown key ${key} ${suggest(issue.path, k)}` };
    });
  }
  const key = keyPath(issue.path);
  // A rule across keys says everything itself.
  if (issue.code === "custom" && issue.params?.acrossKeys === true) return [{ file, key, message: issue.message }];
  if (issue.code === "invalid_key") {
    // A table whose keys are names ([shell_env].set): the key itself is wrong, not its value.
    const wanted = issue.issues[0]?.message ?? "a valid key";
    return [{ file, key, message: `${key}: the key ${JSON.stringify(String(issue.path.at(-1)))} must be ${wanted}` }];
  }
  // A rule across a table's keys (one of two, not both), or a value's rule that words its own problem, says what is wrong.
  if (issue.code === "custom" && (isTable(valueAt(data, issue.path)) || issue.params?.ownWords === true)) return [{ file, key, message: `${key}: ${issue.message}` }];
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
    /** A preprocessed value's schema: what it is checked against after the preprocessing. */
    out?: Schema;
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
  while (s && (WRAPPERS.has(s.def.type) || s.def.type === "pipe")) s = s.def.type === "pipe" ? s.def.out : s.def.innerType;
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
