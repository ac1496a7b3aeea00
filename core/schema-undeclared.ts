// Fields a call sends inside its arguments' nested objects (a todo item, a
// question) that the tool's JSON Schema does not declare. Reject mode refuses
// an undeclared field wherever it is, as the page says; the top level is
// checked against the parameters the model was shown (arg-validation.ts), so
// this walk only reports what lies deeper. Only direct `properties` and
// `items` are followed: a union's branches are the zod check's to judge.

type Node = Record<string, unknown>;

const isNode = (v: unknown): v is Node => v !== null && typeof v === "object" && !Array.isArray(v);

interface UndeclaredField {
  path: string;
  value: unknown;
  /** The fields the object at that place does declare. */
  accepted: string[];
}

/** Every nested field of `value` its schema does not declare, as `$.todos[0].id`. */
export function undeclaredNested(schema: unknown, value: unknown, path = "$", top = true): UndeclaredField[] {
  if (!isNode(schema)) return [];
  const found: UndeclaredField[] = [];
  if (Array.isArray(value)) {
    value.forEach((item, i) => found.push(...undeclaredNested(schema.items, item, `${path}[${i}]`, false)));
  } else if (isNode(value) && isNode(schema.properties)) {
    const props = schema.properties;
    // additionalProperties true or a schema: the object takes other keys by design.
    const closed = schema.additionalProperties === undefined || schema.additionalProperties === false;
    for (const [key, sub] of Object.entries(value)) {
      if (key in props) found.push(...undeclaredNested(props[key], sub, `${path}.${key}`, false));
      else if (!top && closed) found.push({ path: `${path}.${key}`, value: sub, accepted: Object.keys(props) });
    }
  }
  return found;
}
