// The tools' JSON Schemas kept on disk between runs. Converting a handler's
// zod schema to JSON Schema is a few milliseconds a tool at every start, and
// its answer depends only on the code: so it is kept under the build's id, a
// hash the build makes of the sources the schemas come from (and of the
// locked dependencies). A run of another build, a damaged file or one of
// another shape means the schemas are built again; a file that cannot be
// written only means the next run builds them too. The profile's own words
// and conditions are applied after, on a fresh copy, so the file holds
// nothing a profile or a config can change.

import * as fs from "node:fs";
import { z } from "zod";
import { atomicWriteSync } from "../atomic-write.js";
import type { ToolHandler } from "../tool-types.js";

/** A handler's parameters as JSON Schema, a fresh object the caller may change. */
export type SchemaSource = (handler: ToolHandler) => Record<string, unknown>;

export const buildSchema: SchemaSource = (handler) =>
  handler.declared?.jsonSchema() ?? (z.toJSONSchema(handler.schema, { io: "input" }) as Record<string, unknown>);

interface Stored {
  build: string;
  /** JSON text by handler id: parsed per use, so no caller shares an object. */
  schemas: Record<string, string>;
}

function load(file: string, build: string): Record<string, string> {
  try {
    const parsed = JSON.parse(fs.readFileSync(file, "utf8")) as Partial<Stored> | null;
    if (parsed?.build !== build || typeof parsed.schemas !== "object" || parsed.schemas === null) return {};
    return Object.fromEntries(Object.entries(parsed.schemas).filter(([, v]) => typeof v === "string"));
  } catch {
    return {}; // none yet, unreadable or damaged: built again
  }
}

/**
 * A schema source backed by `file` for the build `build`; `save` writes what
 * was built since (nothing when every schema came from the file).
 */
export function cachedSchemas(file: string, build: string): { source: SchemaSource; save(): void } {
  let stored: Record<string, string> | undefined;
  let built = false;
  return {
    source(handler) {
      stored ??= load(file, build);
      const kept = stored[handler.id];
      if (kept !== undefined) {
        try {
          return JSON.parse(kept) as Record<string, unknown>;
        } catch {
          // A damaged entry: built again below.
        }
      }
      const schema = buildSchema(handler);
      stored[handler.id] = JSON.stringify(schema);
      built = true;
      return schema;
    },
    save() {
      if (!built || !stored) return;
      built = false;
      try {
        atomicWriteSync(file, JSON.stringify({ build, schemas: stored } satisfies Stored) + "\n", { createParents: true, durable: false });
      } catch {
        // Not kept: the next run builds them again.
      }
    },
  };
}
