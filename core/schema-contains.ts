// The `contains` / `minContains` / `maxContains` keywords of a tool's JSON
// Schema. zod has no counterpart, so a rule over a list's items as a whole
// ("at most one todo in_progress") is written into the schema the model is
// sent, and reject mode checks the call against it here, as the model was
// told. Only what such a rule needs is read: const, enum, type, properties
// and required in the `contains` schema.

export interface ContainsProblem {
  path: string;
  rule: "minContains" | "maxContains";
  expected: string;
  actual: "array";
}

type Node = Record<string, unknown>;

const isNode = (v: unknown): v is Node => v !== null && typeof v === "object" && !Array.isArray(v);

/** Every array in `value` that has too few or too many items matching its schema's `contains`. */
export function containsProblems(schema: unknown, value: unknown, path = "$"): ContainsProblem[] {
  if (!isNode(schema)) return [];
  const found: ContainsProblem[] = [];
  if (Array.isArray(value)) {
    if (isNode(schema.contains)) found.push(...countProblem(schema, value, path));
    value.forEach((item, i) => found.push(...containsProblems(schema.items, item, `${path}[${i}]`)));
  } else if (isNode(value) && isNode(schema.properties)) {
    for (const [key, sub] of Object.entries(schema.properties)) {
      if (key in value) found.push(...containsProblems(sub, value[key], `${path}.${key}`));
    }
  }
  return found;
}

function countProblem(schema: Node, items: unknown[], path: string): ContainsProblem[] {
  const contains = schema.contains as Node;
  const count = items.filter((item) => matches(contains, item)).length;
  const min = typeof schema.minContains === "number" ? schema.minContains : 1;
  const max = typeof schema.maxContains === "number" ? schema.maxContains : Infinity;
  const what = describe(contains);
  if (count > max) return [{ path, rule: "maxContains", expected: `at most ${max} ${what}`, actual: "array" }];
  if (count < min) return [{ path, rule: "minContains", expected: `at least ${min} ${what}`, actual: "array" }];
  return [];
}

function matches(schema: Node, value: unknown): boolean {
  if ("const" in schema && schema.const !== value) return false;
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) return false;
  if (typeof schema.type === "string" && !hasType(schema.type, value)) return false;
  if (!isNode(value)) return !isNode(schema.properties) && !Array.isArray(schema.required);
  if (Array.isArray(schema.required) && !schema.required.every((k) => typeof k === "string" && k in value)) return false;
  if (isNode(schema.properties)) {
    for (const [key, sub] of Object.entries(schema.properties)) {
      if (key in value && isNode(sub) && !matches(sub, value[key])) return false;
    }
  }
  return true;
}

function hasType(type: string, v: unknown): boolean {
  if (type === "integer") return Number.isInteger(v);
  if (type === "null") return v === null;
  if (type === "array") return Array.isArray(v);
  if (type === "object") return isNode(v);
  return typeof v === type;
}

/** `item with status "in_progress"` for a schema that fixes one property; a plain `matching item` otherwise. */
function describe(schema: Node): string {
  const fixed = isNode(schema.properties)
    ? Object.entries(schema.properties).flatMap(([k, sub]) => (isNode(sub) && "const" in sub ? [`${k} ${JSON.stringify(sub.const)}`] : []))
    : [];
  return fixed.length ? `item(s) with ${fixed.join(" and ")}` : "matching item(s)";
}
