// Turning a model's raw argument text into a handler's typed arguments, or into
// an error the model can act on. Never echoes argument values back: the error
// names the path, the rule and the type, which is what the model needs.

import { z } from "zod";
import { MAX_ARGS_DEPTH, jsonNesting } from "./json-depth.js";
import { containsProblems } from "./schema-contains.js";
import { undeclaredNested } from "./schema-undeclared.js";
import type { ArgForms } from "./tool-types.js";
import { foldArgs } from "./arg-fold.js";
import { acceptedParams, dropUndeclared, ignoredNote, meantParam, readAliases, unknownParams } from "./arg-aliases.js";

export type Validated =
  /** `notes`: what was read differently from how it was written (an old parameter name), for the result. */
  | { ok: true; args: Record<string, unknown>; notes: string[] }
  | { ok: false; text: string };

export interface ValidationOptions {
  /** "reject": a structured tool_schema_reject envelope the model can act on, undeclared fields refused. */
  mode: "off" | "reject";
  /** Parameter names the model was shown (after profile conditions). */
  exposed: string[];
  /** "refuse": a parameter the schema does not declare is refused whatever the mode. */
  undeclared?: "refuse" | "setting";
  /** The tool's older argument shapes (ToolHandler.argForms); not read under reject. */
  forms?: ArgForms;
}

export function validateArgs(
  tool: string,
  rawArgs: string,
  schema: z.ZodObject,
  opts: ValidationOptions,
): Validated {
  let value: unknown;
  const trimmed = rawArgs.trim();
  if (trimmed === "" || (trimmed === "null" && opts.mode !== "reject")) {
    value = {}; // some models send nothing (or null) for a call without parameters
  } else if (jsonNesting(trimmed) > MAX_ARGS_DEPTH) {
    return {
      ok: false,
      text:
        `ERROR: bad arguments for ${tool}: objects and arrays nest more than ${MAX_ARGS_DEPTH} levels deep; ` +
        `the call was not run. Send the arguments as one JSON object nested at most ${MAX_ARGS_DEPTH} levels.`,
    };
  } else {
    try {
      value = JSON.parse(trimmed);
    } catch (err) {
      // A tool whose one parameter is free text (a patch) may be sent that text bare.
      const text = opts.mode === "reject" ? undefined : opts.forms?.text;
      if (text && !trimmed.startsWith("{")) return validateArgs(tool, JSON.stringify({ [text]: rawArgs }), schema, opts);
      return {
        ok: false,
        text:
          `ERROR: bad arguments for ${tool}: arguments are not valid JSON (${(err as Error).message}). ` +
          "Send the arguments as one JSON object.",
      };
    }
  }
  if (opts.mode !== "reject" && typeof value === "string") value = unwrapEncodedObject(value);
  const textParam = opts.mode === "reject" ? undefined : opts.forms?.text;
  if (typeof value === "string" && textParam) value = { [textParam]: value };
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    const problem = { path: "$", rule: "type", expected: "object", actual: jsonType(value) };
    return opts.mode === "reject"
      ? { ok: false, text: rejectEnvelope(tool, [problem]) }
      : { ok: false, text: `ERROR: bad arguments for ${tool}: expected a JSON object, got ${problem.actual}` };
  }
  const declared = declaredTypes(schema);
  // Reject mode checks the call exactly as sent; otherwise the old names
  // models still use are read as today's, and the result says so.
  const { args: read, notes } =
    opts.mode === "reject" ? { args: value as Record<string, unknown>, notes: [] } : readAliases(tool, value as Record<string, unknown>, opts.exposed, { declared, enumOf: declaredEnum(schema), forgiving: opts.undeclared !== "refuse" && !isStrict(schema) });

  let obj = read;
  let dropped: Array<[string, unknown]> = [];
  if (opts.mode !== "reject") {
    dropNullOptionals(obj, schema);
    const folded = opts.forms?.fold && foldArgs(obj, opts.forms.fold);
    if (folded) {
      obj = folded.args;
      notes.push(folded.note);
    }
    for (const key of opts.forms?.ignored ?? []) {
      if (!(key in obj) || opts.exposed.includes(key)) continue;
      delete obj[key];
      notes.push(`Note: ${tool} takes no "${key}" parameter; it was ignored.`);
    }
    // Run anyway, as this mode promises, but never silently: a filter the
    // model believes applied (grep's `case_insensitive`) would otherwise mislead it.
    // Only where the schema would strip the key anyway: a loose schema (an
    // MCP tool's) takes it, a strict one (ask_user) refuses it by name.
    if (opts.undeclared !== "refuse" && schema.def.catchall === undefined) {
      // A declared parameter the profile hides (bash's `background` while off) is the handler's to refuse in its words.
      dropped = dropUndeclared(obj, [...opts.exposed, ...Object.keys(schema.shape)]);
      notes.push(...dropped.map(([key]) => ignoredNote(tool, key, opts.exposed)));
    }
  }

  const problems: SchemaProblem[] = [];
  if (opts.mode === "reject" || opts.undeclared === "refuse") {
    for (const key of Object.keys(obj)) {
      if (!opts.exposed.includes(key)) {
        problems.push({ path: `$.${key}`, rule: "additionalProperties", expected: "no such field", actual: jsonType(obj[key]) });
      }
    }
  }
  const parsed = schema.safeParse(obj);
  if (!parsed.success) {
    for (const issue of parsed.error.issues.flatMap(fittingBranch)) {
      if (issue.code === "unrecognized_keys") {
        // A strict schema (ask_user) names each undeclared field, like reject mode.
        const base = "$" + issue.path.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)).join("");
        for (const key of issue.keys) {
          problems.push({ path: `${base}.${key}`, rule: "additionalProperties", expected: "no such field", actual: jsonType(valueAt(obj, [...issue.path, key])) });
        }
        continue;
      }
      problems.push(describeIssue(issue, obj, declared));
    }
  }
  // Rules over a list's items as a whole live only in the JSON Schema sent.
  if (opts.mode === "reject") {
    problems.push(...containsProblems(jsonSchemaOf(schema), obj));
    // An undeclared field inside an item (a todo's `id`) is refused as one at the top is.
    for (const f of undeclaredNested(jsonSchemaOf(schema), obj)) problems.push({ path: f.path, rule: "additionalProperties", expected: "no such field", actual: jsonType(f.value) });
  }
  // Reject mode and a strict schema can both name one undeclared field.
  const seen = new Set<string>();
  problems.splice(0, problems.length, ...problems.filter((p) => !seen.has(`${p.path}|${p.rule}`) && seen.add(`${p.path}|${p.rule}`)));
  if (problems.length === 0) return { ok: true, args: parsed.data as Record<string, unknown>, notes };
  // A call that cannot run names what it sent that the tool does not take
  // (`command` for `cmd`): often the very reason a required field is missing.
  for (const [key, value] of dropped) problems.push({ path: `$.${key}`, rule: "additionalProperties", expected: "no such field", actual: jsonType(value) });
  if (opts.mode === "reject") return { ok: false, text: rejectEnvelope(tool, problems) };
  // The same inside an item: a todo's `content` where `description` is missing.
  for (const f of undeclaredNested(jsonSchemaOf(schema), obj)) {
    if (!seen.has(`${f.path}|additionalProperties`)) problems.push({ path: f.path, rule: "additionalProperties", expected: "no such field", actual: jsonType(f.value), accepted: f.accepted });
  }
  // Several unknown names at the top share one list of what is accepted.
  const unknown = problems.filter((p) => p.rule === "additionalProperties" && /^\$\.[^.[]+$/.test(p.path));
  const lines = (unknown.length > 1 ? problems.filter((p) => !unknown.includes(p)) : problems).map((p) => plain(p, opts.exposed));
  if (unknown.length > 1) lines.push(unknownParams(unknown.map((p) => p.path.slice(2)), opts.exposed));
  return { ok: false, text: `ERROR: bad arguments for ${tool}: ${lines.join("; ")}` };
}

/**
 * `"context_lines": null` is how many models write "not given": an optional
 * parameter sent as null is read as absent. A required one stays null and is
 * named as missing its value; one whose schema takes any JSON value keeps its
 * null, for the tool to judge.
 */
function dropNullOptionals(obj: Record<string, unknown>, schema: z.ZodObject): void {
  for (const [key, value] of Object.entries(obj)) {
    const field = schema.shape[key];
    if (value === null && field?.safeParse(undefined).success === true && field.safeParse(null).success !== true) delete obj[key];
  }
}

/**
 * A value that matches no branch of a union (`questions`: an array or one
 * object) is described by the branch of its own shape — the array's bad
 * item — not by "Invalid input": the branches that want another type at the
 * union's own path are left out.
 */
function fittingBranch(issue: z.core.$ZodIssue): z.core.$ZodIssue[] {
  if (issue.code !== "invalid_union" || !issue.errors.length) return [issue];
  const ownShape = issue.errors.filter((branch) => !branch.some((i) => i.code === "invalid_type" && i.path.length === 0));
  const best = [...(ownShape.length ? ownShape : issue.errors)].sort((a, b) => a.length - b.length)[0]!;
  if (!best.length) return [issue];
  return best.flatMap((i) => fittingBranch({ ...i, path: [...issue.path, ...i.path] } as z.core.$ZodIssue));
}

interface SchemaProblem {
  path: string;
  rule: string;
  expected: string;
  actual: string;
  /** The value given, as JSON (for a value outside the accepted ones), or what is wrong with it. */
  given?: string;
  /** For a field inside an item the schema does not declare: the item's own fields. */
  accepted?: string[];
}

function describeIssue(
  issue: z.core.$ZodIssue,
  root: Record<string, unknown>,
  declared: (path: PropertyKey[]) => string | undefined,
): SchemaProblem {
  const path = "$" + issue.path.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)).join("");
  const actual = jsonType(valueAt(root, issue.path));
  switch (issue.code) {
    case "invalid_type": {
      // The type as the model was shown it ("integer"), not zod's name for the check ("number", "int").
      const expected = declared(issue.path) ?? (issue.expected === "int" ? "integer" : issue.expected);
      // A literal too large for a double (1e999) parses as Infinity: it is a
      // number, so "expected number, got number" would explain nothing.
      const value = valueAt(root, issue.path);
      if (typeof value === "number" && !Number.isFinite(value)) return { path, rule: "type", expected: `a finite ${expected}`, actual, given: "too large to represent" };
      return { path, rule: actual === "missing" ? "required" : "type", expected, actual };
    }
    case "invalid_union": {
      // Several accepted shapes (a string or an array of them). A value of one
      // of them that breaks that shape's own rule (an empty list) is named by it.
      const matched = actual === "missing" ? undefined : issue.errors.find((b) => b.length && !b.some((i) => i.code === "invalid_type" && i.path.length === 0));
      if (matched) return describeIssue({ ...matched[0]!, path: [...issue.path, ...matched[0]!.path] } as z.core.$ZodIssue, root, declared);
      const expected = declared(issue.path) ?? "one of the declared types";
      return { path, rule: actual === "missing" ? "required" : "type", expected, actual };
    }
    case "too_small":
      return { path, rule: sizeRule("min", issue.origin), expected: `>= ${String(issue.minimum)}`, actual };
    case "too_big":
      return { path, rule: sizeRule("max", issue.origin), expected: `<= ${String(issue.maximum)}`, actual };
    case "invalid_value":
      return { path, rule: "enum", expected: issue.values.map((v) => JSON.stringify(v)).join(" | "), actual, given: shownValue(valueAt(root, issue.path)) };
    case "unrecognized_keys":
      return { path, rule: "additionalProperties", expected: "no such field", actual };
    default:
      return { path, rule: issue.code, expected: issue.message, actual };
  }
}

/**
 * Arguments some providers encode twice: a JSON string holding the object.
 * One level is read through; any other string stays a string.
 */
function unwrapEncodedObject(text: string): unknown {
  if (!text.trimStart().startsWith("{")) return text;
  try {
    const inner: unknown = JSON.parse(text);
    return inner !== null && typeof inner === "object" && !Array.isArray(inner) ? inner : text;
  } catch {
    return text;
  }
}

/** The JSON Schema keyword of a size bound: minLength for a string, minItems for an array, minimum for a number. */
function sizeRule(side: "min" | "max", origin: string): string {
  if (origin === "string") return `${side}Length`;
  if (origin === "array" || origin === "set") return `${side}Items`;
  if (origin === "object") return `${side}Properties`;
  return side === "min" ? "minimum" : "maximum";
}

/** One problem in words for a model: what is wrong and what the tool takes instead. */
function plain(p: SchemaProblem, exposed: readonly string[]): string {
  const name = p.path.replace(/^\$\.?/, "") || "(arguments)";
  const bound = p.expected.replace(/^[<>]= /, "");
  switch (p.rule) {
    case "required":
      return `${name} is required (${p.expected})`;
    case "additionalProperties": {
      const key = name.split(".").at(-1)!;
      if (p.accepted) return `${name.slice(0, -key.length - 1)} has no field "${key}"${meantParam(key, p.accepted)}; its fields: ${p.accepted.join(", ")}`;
      return `unknown parameter "${key}"${meantParam(key, exposed)}; ${acceptedParams(exposed)}`;
    }
    case "minLength":
      return `${name} must be at least ${bound} character${bound === "1" ? "" : "s"} long`;
    case "maxLength":
      return `${name} must be at most ${bound} characters long`;
    case "minItems":
      return `${name} must list at least ${bound} item${bound === "1" ? "" : "s"}`;
    case "maxItems":
      return `${name} must list at most ${bound} items`;
    case "minimum":
      return `${name} must be at least ${bound}`;
    case "maximum":
      return `${name} must be at most ${bound}`;
    case "enum":
      // The accepted values, and the one given (its type alone would not say what was wrong).
      return `${name}: expected one of ${p.expected.split(" | ").join(", ")}, got ${p.actual}${p.given === undefined ? "" : ` ${p.given}`}`;
    default:
      return `${name}: expected ${p.expected}, got ${p.actual}${p.given === undefined ? "" : ` ${p.given}`}`;
  }
}

export function rejectEnvelope(tool: string, errors: SchemaProblem[]): string {
  // Keys sorted, so the same problem always reads the same (and a model sees a stable shape).
  // `keyword` is the JSON Schema keyword that failed, under the name the
  // reference's envelope gives it; `actual` the JSON type sent, never its value.
  const sorted = errors.map((e) => ({ actual: e.actual, expected: e.expected, keyword: e.rule, path: e.path }));
  const body = {
    error: {
      errors: sorted,
      message: "Tool arguments do not match the declared schema.",
      tool,
      type: "tool_schema_reject",
      version: 1,
    },
  };
  return `ERROR: ${JSON.stringify(body)}`;
}

const jsonSchemas = new WeakMap<z.ZodObject, unknown>();

/** The JSON Schema the model is sent for this zod schema, built once per schema; undefined when it has none. */
function jsonSchemaOf(schema: z.ZodObject): unknown {
  if (!jsonSchemas.has(schema)) {
    let json: unknown;
    try {
      json = z.toJSONSchema(schema, { io: "input" });
    } catch {
      json = undefined;
    }
    jsonSchemas.set(schema, json);
  }
  return jsonSchemas.get(schema);
}

/**
 * Looks a path up in the JSON Schema the model is sent for this handler and
 * returns its `type`. Built when a call failed (or, in reject mode, once per
 * tool), so valid calls in the default mode pay nothing.
 */
function declaredTypes(schema: z.ZodObject): (path: PropertyKey[]) => string | undefined {
  return (path) => {
    let node: unknown = jsonSchemaOf(schema);
    for (const key of path) {
      if (node === null || typeof node !== "object") return undefined;
      const n = node as { properties?: Record<string, unknown>; items?: unknown };
      node = typeof key === "number" ? n.items : n.properties?.[String(key)];
    }
    return typeName(node);
  };
}

/** A schema that refuses every undeclared key (ask_user: "No other field is accepted"): nothing is read as another form for it. */
function isStrict(schema: z.ZodObject): boolean {
  return schema.def.catchall?._zod.def.type === "never";
}

/** The values a top-level parameter's JSON Schema lists under `enum`; undefined when it lists none. */
function declaredEnum(schema: z.ZodObject): (key: string) => readonly unknown[] | undefined {
  return (key) => {
    const node = (jsonSchemaOf(schema) as { properties?: Record<string, { enum?: unknown }> } | undefined)?.properties?.[key];
    return Array.isArray(node?.enum) ? node.enum : undefined;
  };
}

/** A JSON Schema node's type as a model reads it: `string`, `string | array`; undefined when it has none. */
function typeName(node: unknown): string | undefined {
  const n = node as { type?: unknown; anyOf?: unknown[] } | undefined;
  if (typeof n?.type === "string") return n.type;
  if (Array.isArray(n?.type) && n.type.every((t) => typeof t === "string")) return n.type.join(" | ");
  if (Array.isArray(n?.anyOf)) {
    const parts = n.anyOf.map(typeName);
    return parts.every((t): t is string => t !== undefined) ? [...new Set(parts)].join(" | ") : undefined;
  }
  return undefined;
}

function valueAt(root: unknown, path: PropertyKey[]): unknown {
  let cur: unknown = root;
  for (const key of path) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}

/** A value as JSON, cut past 80 characters. */
function shownValue(v: unknown): string | undefined {
  const json = v === undefined ? undefined : JSON.stringify(v);
  return json !== undefined && json.length > 80 ? `${json.slice(0, 80)}...` : json;
}

function jsonType(v: unknown): string {
  if (v === undefined) return "missing";
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}
