// Every event the schema declares is one the code emits. An event nothing
// emits is published surface (schema/events.schema.json, the reducer, the
// cards) that no run can produce: it stays out until its feature emits it.

import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { eventBodySchema } from "../../core/event-schema.js";
import { repoRoot } from "../support/loop-harness.js";

const SOURCE_DIRS = ["app", "core", "tools"];
// Where an event type is declared or consumed, not emitted.
const NOT_EMITTERS = new Set(["core/event-schema.ts", "core/events.ts", "core/reducer.ts"]);

function sources(dir: string): string[] {
  return readdirSync(join(repoRoot, dir)).flatMap((name) => {
    const rel = `${dir}/${name}`;
    if (statSync(join(repoRoot, rel)).isDirectory()) return sources(rel);
    return /\.tsx?$/.test(name) && !NOT_EMITTERS.has(rel) ? [rel] : [];
  });
}

describe("events", () => {
  it("every event type in the schema is emitted somewhere", () => {
    const text = SOURCE_DIRS.flatMap(sources).map((f) => readFileSync(join(repoRoot, f), "utf8")).join("\n");
    const types = eventBodySchema.options.map((o) => o.shape.type.value);
    expect(types.length).toBeGreaterThan(20);
    // An emit builds the body as an object literal: `{ type: "job_started", … }`.
    const unemitted = types.filter((t) => !new RegExp(`\\btype:\\s*"${t}"`).test(text));
    expect(unemitted).toEqual([]);
  });
});
