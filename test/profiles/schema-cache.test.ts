// The tools' JSON Schemas kept between runs: real files in a temporary state
// directory and the real handlers. What comes from the file must be exactly
// what building gives; another build's file, a damaged file and a file that
// cannot be written all fall back to building.

import * as fs from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildSchema, cachedSchemas } from "../../core/profiles/schema-cache.js";
import { builtinHandlers } from "../../tools/registry.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
function cacheFile(): string {
  const dir = fs.mkdtempSync(path.join(tmpdir(), "yuj-schema-cache-"));
  dirs.push(dir);
  return path.join(dir, "state", "yuj", "tool-schemas.json");
}

const registry = builtinHandlers();
const read = registry.get("read")!;
const bash = registry.get("bash")!;
/** A schema no handler has, planted in a file to see whether the file is believed. */
const PLANTED = { type: "object", properties: { planted: { type: "string" } } };

function plant(file: string, build: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify({ build, schemas: { [read.id]: JSON.stringify(PLANTED) } }));
}

describe("tool schemas kept on disk per build", () => {
  it("the first run builds and keeps them; the next run of the same build reads them back unchanged", () => {
    const file = cacheFile();
    const first = cachedSchemas(file, "build-a");
    expect(first.source(read)).toEqual(buildSchema(read));
    expect(first.source(bash)).toEqual(buildSchema(bash));
    first.save();
    const kept = JSON.parse(fs.readFileSync(file, "utf8"));
    expect(kept.build).toBe("build-a");
    expect(Object.keys(kept.schemas).sort()).toEqual([bash.id, read.id].sort());

    // Read back: what the file holds is what is used (a planted entry shows it).
    plant(file, "build-a");
    expect(cachedSchemas(file, "build-a").source(read)).toEqual(PLANTED);
  });

  it("a file of another build is not believed: the schema is built and the file rewritten for this build", () => {
    const file = cacheFile();
    plant(file, "build-old");
    const cache = cachedSchemas(file, "build-new");
    expect(cache.source(read)).toEqual(buildSchema(read));
    cache.save();
    const kept = JSON.parse(fs.readFileSync(file, "utf8"));
    expect(kept.build).toBe("build-new");
    expect(JSON.parse(kept.schemas[read.id])).toEqual(buildSchema(read));
  });

  it("a damaged file or a damaged entry means building again", () => {
    const file = cacheFile();
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, "{ not json");
    expect(cachedSchemas(file, "b").source(read)).toEqual(buildSchema(read));
    fs.writeFileSync(file, JSON.stringify({ build: "b", schemas: { [read.id]: "{ cut", [bash.id]: 42 } }));
    const cache = cachedSchemas(file, "b");
    expect(cache.source(read)).toEqual(buildSchema(read));
    expect(cache.source(bash)).toEqual(buildSchema(bash));
    fs.writeFileSync(file, "null");
    expect(cachedSchemas(file, "b").source(read)).toEqual(buildSchema(read));
  });

  it("a state directory that cannot be written costs nothing but the saving", () => {
    const file = cacheFile();
    // The state directory's place is a regular file: nothing can be created under it, even by root.
    fs.mkdirSync(path.dirname(path.dirname(file)), { recursive: true });
    fs.writeFileSync(path.dirname(file), "a file, not a directory");
    const cache = cachedSchemas(file, "b");
    expect(cache.source(read)).toEqual(buildSchema(read));
    expect(() => cache.save()).not.toThrow();
    expect(fs.statSync(path.dirname(file)).isFile()).toBe(true);
  });

  it("each use gets its own object: a caller changing one changes no later answer", () => {
    const file = cacheFile();
    const first = cachedSchemas(file, "b");
    const a = first.source(read);
    (a.properties as Record<string, unknown>).extra = { type: "number" };
    delete a.$schema;
    expect(first.source(read)).toEqual(buildSchema(read));
    first.save();
    const later = cachedSchemas(file, "b");
    const b = later.source(read);
    b.changed = true;
    expect(later.source(read)).toEqual(buildSchema(read));
  });
});
