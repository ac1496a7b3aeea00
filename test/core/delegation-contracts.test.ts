// The result contract's subset and checks, and what counts as overlapping
// write scopes.

import { describe, expect, it } from "vitest";
import { schemaProblems, violations } from "../../core/orchestration/result-schema.js";
import { scopesOverlap } from "../../core/orchestration/scope.js";

const scope = (s: { files?: string[]; path_prefix?: string[]; modules?: string[] }) => ({ files: [], path_prefix: [], modules: [], ...s });

describe("result_schema", () => {
  it("accepts the subset and refuses everything else by its path", () => {
    expect(schemaProblems({ type: "object", description: "d", required: ["a"], properties: { a: { type: "array", items: { type: "string", enum: ["x"] } } } })).toEqual([]);
    expect(schemaProblems({ type: "array" })).toEqual(['result_schema.type: the top level must be "object"']);
    expect(schemaProblems({ type: "object", additionalProperties: false })).toEqual([expect.stringContaining("result_schema.additionalProperties: not supported")]);
    expect(schemaProblems({ type: "object", properties: { n: { type: "null" } } })).toEqual([expect.stringContaining("result_schema.properties.n.type: must be one of")]);
    expect(schemaProblems({ type: "object", properties: { l: { type: "array", items: { type: "string", pattern: "x" } } } })).toEqual([
      expect.stringContaining("result_schema.properties.l.items.pattern: not supported"),
    ]);
  });

  it("names every violation's path; undeclared fields pass", () => {
    const schema = { type: "object", required: ["n", "tags"], properties: { n: { type: "integer" }, tags: { type: "array", items: { type: "string", enum: ["a", "b"] } } } };
    expect(violations(schema, { n: 1, tags: ["a"], other: { anything: true } })).toEqual([]);
    expect(violations(schema, { n: 1.5, tags: ["a", "c", 3] })).toEqual([
      "result.n: expected integer, got number",
      'result.tags[1]: must be one of "a", "b"',
      "result.tags[2]: expected string, got integer",
    ]);
    expect(violations(schema, {})).toEqual(["result.n: required but missing", "result.tags: required but missing"]);
  });
});

describe("write scopes", () => {
  it("overlap on a shared file, a file under a prefix, nested prefixes or a shared module; not on siblings", () => {
    expect(scopesOverlap(scope({ files: ["src/a.ts"] }), scope({ files: ["./src/a.ts"] }))).toBe(true);
    expect(scopesOverlap(scope({ files: ["src/a.ts"] }), scope({ path_prefix: ["src/"] }))).toBe(true);
    expect(scopesOverlap(scope({ path_prefix: ["src/lib"] }), scope({ path_prefix: ["src"] }))).toBe(true);
    expect(scopesOverlap(scope({ modules: ["auth"] }), scope({ modules: ["auth"] }))).toBe(true);
    expect(scopesOverlap(scope({ path_prefix: ["src"] }), scope({ path_prefix: ["srcx"] }))).toBe(false);
    expect(scopesOverlap(scope({ files: ["a.ts"] }), scope({ files: ["b.ts"] }))).toBe(false);
  });
});
