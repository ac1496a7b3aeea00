// The published contracts of a session's streams, as JSON Schema: the events
// `yuj code --output jsonl` prints (and the trace holds), and the operations
// `yuj code --input jsonl` reads. `yuj schema events|ops` prints them; the
// copies under schema/ are pinned to these by a test.

import { z } from "zod";
import { coreEventSchema } from "./event-schema.js";
import { operationSchema } from "./ops.js";

export const SCHEMA_NAMES = ["events", "ops"] as const;
export type SchemaName = (typeof SCHEMA_NAMES)[number];

export function jsonSchema(name: SchemaName): Record<string, unknown> {
  const schema = name === "events" ? coreEventSchema : operationSchema;
  const { $schema, ...rest } = z.toJSONSchema(schema, { target: "draft-2020-12" });
  return { $schema, title: name === "events" ? "yuj event" : "yuj operation", ...rest };
}

/** The schema as the file and the command print it. */
export function jsonSchemaText(name: SchemaName): string {
  return `${JSON.stringify(jsonSchema(name), null, 2)}\n`;
}
