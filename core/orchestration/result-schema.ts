// A delegated task's result contract: a small JSON Schema subset the owner
// states at delegation and the worker's delivered result is checked against.
// Only type, required, properties, items, enum and description are known;
// anything else is refused when the task is delegated, so a contract never
// silently means less than it says. Fields the contract does not name pass.

const KEYS = new Set(["type", "required", "properties", "items", "enum", "description"]);
const TYPES = new Set(["object", "array", "string", "integer", "number", "boolean"]);

/** Violations listed in a failed task's rejection, at most. */
export const MAX_LISTED_VIOLATIONS = 20;

export type ResultSchema = Record<string, unknown>;

/** The problems of a contract itself (empty when it may be used); `where` is its JSON path. */
export function schemaProblems(schema: unknown, where = "result_schema", top = true): string[] {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return [`${where}: must be an object`];
  const s = schema as Record<string, unknown>;
  const problems: string[] = [];
  for (const key of Object.keys(s)) {
    if (!KEYS.has(key)) problems.push(`${where}.${key}: not supported (the keys are ${[...KEYS].join(", ")})`);
  }
  if (top && s.type !== "object") problems.push(`${where}.type: the top level must be "object"`);
  if (s.type !== undefined && (typeof s.type !== "string" || !TYPES.has(s.type))) {
    problems.push(`${where}.type: must be one of ${[...TYPES].join(", ")}`);
  }
  if (s.description !== undefined && typeof s.description !== "string") problems.push(`${where}.description: must be a string`);
  if (s.required !== undefined && !(Array.isArray(s.required) && s.required.every((r) => typeof r === "string"))) {
    problems.push(`${where}.required: must be a list of property names`);
  }
  if (s.enum !== undefined && !(Array.isArray(s.enum) && s.enum.length > 0)) problems.push(`${where}.enum: must be a non-empty list`);
  if (s.properties !== undefined) {
    if (typeof s.properties !== "object" || s.properties === null || Array.isArray(s.properties)) {
      problems.push(`${where}.properties: must be an object of property schemas`);
    } else {
      for (const [name, sub] of Object.entries(s.properties)) problems.push(...schemaProblems(sub, `${where}.properties.${name}`, false));
    }
  }
  if (s.items !== undefined) problems.push(...schemaProblems(s.items, `${where}.items`, false));
  return problems;
}

/** Where a value breaks the contract, each as `path: what is wrong`; empty when it holds. */
export function violations(schema: ResultSchema, value: unknown, path = "result"): string[] {
  const found: string[] = [];
  const type = schema.type as string | undefined;
  if (type !== undefined && !hasType(value, type)) {
    return [`${path}: expected ${type}, got ${describe(value)}`];
  }
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => sameJson(e, value))) {
    found.push(`${path}: must be one of ${schema.enum.map((e) => JSON.stringify(e)).join(", ")}`);
  }
  if (isObject(value)) {
    for (const name of (schema.required as string[] | undefined) ?? []) {
      if (!(name in value)) found.push(`${path}.${name}: required but missing`);
    }
    const props = (schema.properties as Record<string, ResultSchema> | undefined) ?? {};
    for (const [name, sub] of Object.entries(props)) {
      if (name in value) found.push(...violations(sub, value[name], `${path}.${name}`));
    }
  }
  if (Array.isArray(value) && isObject(schema.items)) {
    value.forEach((item, i) => found.push(...violations(schema.items as ResultSchema, item, `${path}[${i}]`)));
  }
  return found;
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case "object":
      return isObject(value);
    case "array":
      return Array.isArray(value);
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    default:
      return typeof value === type;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number" && Number.isInteger(value)) return "integer";
  return typeof value;
}
