// Turning a model's raw argument text into a handler's typed arguments, or into
// an error the model can act on. Never echoes argument values back: the error
// names the path, the rule and the type, which is what the model needs.

import { z } from "zod";
import { MAX_ARGS_DEPTH, jsonNesting } from "./json-depth.js";

export type Validated =
  | { ok: true; args: Record<string, unknown> }
  | { ok: false; text: string };

export interface ValidationOptions {
  /** "reject": a structured tool_schema_reject envelope the model can act on, undeclared fields refused. */
  mode: "off" | "reject";
  /** Parameter names the model was shown (after profile conditions). */
  exposed: string[];
}

export function validateArgs(
  tool: string,
  rawArgs: string,
  schema: z.ZodObject,
  opts: ValidationOptions,
): Validated {
  let value: unknown;
  const trimmed = rawArgs.trim();
  if (trimmed === "") {
    value = {}; // some models send nothing for a call without parameters
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
      return {
        ok: false,
        text:
          `ERROR: bad arguments for ${tool}: arguments are not valid JSON (${(err as Error).message}). ` +
          "Send the arguments as one JSON object.",
      };
    }
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    const problem = { path: "$", rule: "type", expected: "object", actual: jsonType(value) };
    return opts.mode === "reject"
      ? { ok: false, text: rejectEnvelope(tool, [problem]) }
      : { ok: false, text: `ERROR: bad arguments for ${tool}: expected a JSON object, got ${problem.actual}` };
  }
  const obj = value as Record<string, unknown>;

  const problems: SchemaProblem[] = [];
  if (opts.mode === "reject") {
    for (const key of Object.keys(obj)) {
      if (!opts.exposed.includes(key)) {
        problems.push({ path: `$.${key}`, rule: "additionalProperties", expected: "no such field", actual: jsonType(obj[key]) });
      }
    }
  }
  const parsed = schema.safeParse(obj);
  if (!parsed.success) {
    const declared = declaredTypes(schema);
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
  // Reject mode and a strict schema can both name one undeclared field.
  const seen = new Set<string>();
  problems.splice(0, problems.length, ...problems.filter((p) => !seen.has(`${p.path}|${p.rule}`) && seen.add(`${p.path}|${p.rule}`)));
  if (problems.length === 0) return { ok: true, args: parsed.data as Record<string, unknown> };
  if (opts.mode === "reject") return { ok: false, text: rejectEnvelope(tool, problems) };
  const lines = problems.map((p) => `${p.path.replace(/^\$\.?/, "") || "(arguments)"}: ${plain(p)}`);
  return { ok: false, text: `ERROR: bad arguments for ${tool}: ${lines.join("; ")}` };
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
      return { path, rule: actual === "missing" ? "required" : "type", expected, actual };
    }
    case "too_small":
      return { path, rule: "minimum", expected: `>= ${String(issue.minimum)}`, actual };
    case "too_big":
      return { path, rule: "maximum", expected: `<= ${String(issue.maximum)}`, actual };
    case "invalid_value":
      return { path, rule: "enum", expected: issue.values.map((v) => JSON.stringify(v)).join(" | "), actual };
    case "unrecognized_keys":
      return { path, rule: "additionalProperties", expected: "no such field", actual };
    default:
      return { path, rule: issue.code, expected: issue.message, actual };
  }
}

function plain(p: SchemaProblem): string {
  if (p.rule === "required") return `required (${p.expected})`;
  if (p.rule === "type") return `expected ${p.expected}, got ${p.actual}`;
  if (p.rule === "additionalProperties") return "not a parameter of this tool";
  return `expected ${p.expected}, got ${p.actual}`;
}

function rejectEnvelope(tool: string, errors: SchemaProblem[]): string {
  // Keys sorted, so the same problem always reads the same (and a model sees a stable shape).
  const sorted = errors.map((e) => ({ actual_type: e.actual, expected: e.expected, path: e.path, rule: e.rule }));
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

/**
 * Looks a path up in the JSON Schema the model is sent for this handler and
 * returns its `type`. Built only when a call failed, so valid calls pay nothing.
 */
function declaredTypes(schema: z.ZodObject): (path: PropertyKey[]) => string | undefined {
  let json: unknown;
  return (path) => {
    try {
      json ??= z.toJSONSchema(schema, { io: "input" });
    } catch {
      return undefined;
    }
    let node: unknown = json;
    for (const key of path) {
      if (node === null || typeof node !== "object") return undefined;
      const n = node as { properties?: Record<string, unknown>; items?: unknown };
      node = typeof key === "number" ? n.items : n.properties?.[String(key)];
    }
    const type = (node as { type?: unknown } | undefined)?.type;
    if (typeof type === "string") return type;
    return Array.isArray(type) && type.every((t) => typeof t === "string") ? type.join(" | ") : undefined;
  };
}

function valueAt(root: unknown, path: PropertyKey[]): unknown {
  let cur: unknown = root;
  for (const key of path) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}

function jsonType(v: unknown): string {
  if (v === undefined) return "missing";
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}
