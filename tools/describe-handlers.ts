// What of a handler can be known without loading its code: the build runs
// this over every handler and puts the answer in the bundle, so a run can
// offer the tools, check its profile and judge permissions before any
// handler's module loads (tools/lazy-registry.ts). Plain data only: a Set
// becomes its list, a function only its name; anything else that is not
// JSON makes the build fail rather than be described wrongly.

import { z } from "zod";
import type { ToolHandler } from "../core/tool-types.js";

export interface Described {
  /** The handler's data fields, as JSON (Sets as arrays, named in `sets`). */
  fields: Record<string, unknown>;
  /** Which of `fields` were Sets. */
  sets: string[];
  /** Its function fields, and its view's. */
  fns: string[];
  viewFns: string[];
  params: string[];
  /** The parameters' JSON Schema as text (as the run would build it from the zod schema). */
  jsonSchema: string;
}

const OWN = new Set(["schema", "view", "run"]);

export function describeHandler(h: ToolHandler): Described {
  const fields: Record<string, unknown> = {};
  const sets: string[] = [];
  const fns: string[] = [];
  for (const [key, value] of Object.entries(h)) {
    if (OWN.has(key)) continue;
    if (typeof value === "function") fns.push(key);
    else if (value instanceof Set) {
      sets.push(key);
      fields[key] = [...value];
    } else fields[key] = plain(value, `${h.id}.${key}`);
  }
  const view: Record<string, unknown> = {};
  const viewFns: string[] = [];
  for (const [key, value] of Object.entries(h.view)) {
    if (typeof value === "function") viewFns.push(key);
    else view[key] = plain(value, `${h.id}.view.${key}`);
  }
  fields.view = view;
  return { fields, sets, fns, viewFns, params: Object.keys(h.schema.shape), jsonSchema: JSON.stringify(z.toJSONSchema(h.schema, { io: "input" })) };
}

/** `value` when JSON keeps it exactly; otherwise the build stops, naming it. */
function plain(value: unknown, where: string): unknown {
  if (JSON.stringify(value) === undefined || !sameAfterJson(value)) throw new Error(`tool handler field ${where} is not plain data: it cannot be described without loading the handler`);
  return value;
}

function sameAfterJson(value: unknown): boolean {
  if (value === null || ["string", "number", "boolean"].includes(typeof value)) return true;
  if (Array.isArray(value)) return value.every(sameAfterJson);
  if (typeof value !== "object" || Object.getPrototypeOf(value) !== Object.prototype) return false;
  return Object.values(value as object).every((v) => v !== undefined && sameAfterJson(v));
}
