import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../core/config/schema.js";
import { prepareCall } from "../../core/dispatch.js";
import { baseToolset } from "../support/loop-harness.js";

// Argument schema rejection (arguments that do not fit the tool's schema get
// a structured envelope back), driven through the real dispatcher on the
// real _base profile.
const rejecting = () => {
  const config = defaultConfig();
  config.tools.schema_validation = "reject";
  return { config, toolset: baseToolset(config) };
};

const reject = (name: string, args: string): string => {
  const { config, toolset } = rejecting();
  const prepared = prepareCall({ id: "c1", name, args }, toolset, config);
  if (prepared.ready) throw new Error("the call was accepted");
  return prepared.text;
};

const envelope = (tool: string, errors: unknown[]) =>
  "ERROR: " +
  JSON.stringify({
    error: { errors, message: "Tool arguments do not match the declared schema.", tool, type: "tool_schema_reject", version: 1 },
  });

describe("schema_validation = reject", () => {
  it("returns the exact envelope: missing, undeclared and wrong-typed fields, keys sorted, no values", () => {
    const secret = "ZEBRA-SECRET-7731";
    const text = reject("read", JSON.stringify({ offset: secret, limit: 1.5, colour: `${secret}-2` }));
    expect(text).toBe(
      envelope("read", [
        { actual: "string", expected: "no such field", keyword: "additionalProperties", path: "$.colour" },
        { actual: "missing", expected: "string", keyword: "required", path: "$.path" },
        { actual: "string", expected: "integer", keyword: "type", path: "$.offset" },
        { actual: "number", expected: "integer", keyword: "type", path: "$.limit" },
      ]),
    );
    expect(text).not.toContain(secret);
    expect(text).not.toContain("1.5");
    // Every key of the envelope, at every level, is in sorted order.
    const sortedKeys = (v: unknown): boolean =>
      Array.isArray(v)
        ? v.every(sortedKeys)
        : v === null || typeof v !== "object"
          ? true
          : Object.keys(v).join() === Object.keys(v).sort().join() && Object.values(v).every(sortedKeys);
    expect(sortedKeys(JSON.parse(text.slice("ERROR: ".length)))).toBe(true);
  });

  it("names the expected shape the model was sent, as a JSON type", () => {
    const { toolset } = rejecting();
    const sent = toolset.tools.get("read")!.spec.parameters as { properties: Record<string, { type: string }> };
    expect(sent.properties.offset!.type).toBe("integer");
    expect(reject("read", '{"path":"a","offset":"NOPE-NOT-HERE"}')).toBe(
      envelope("read", [{ actual: "string", expected: "integer", keyword: "type", path: "$.offset" }]),
    );
  });

  it("rejects a non-object, and parameters the profile does not show", () => {
    expect(reject("read", '["OTTER-VALUE"]')).toBe(
      envelope("read", [{ actual: "array", expected: "object", keyword: "type", path: "$" }]),
    );
    // bash's background is hidden while background work is off.
    expect(reject("bash", '{"cmd":"ls","background":true}')).toBe(
      envelope("bash", [{ actual: "boolean", expected: "no such field", keyword: "additionalProperties", path: "$.background" }]),
    );
    expect(reject("done", '{"message":null}')).toBe(
      envelope("done", [{ actual: "null", expected: "string", keyword: "type", path: "$.message" }]),
    );
  });

  it("accepts a call that matches", () => {
    const { config, toolset } = rejecting();
    const prepared = prepareCall({ id: "c1", name: "read", args: '{"path":"a.txt","offset":2}' }, toolset, config);
    expect(prepared.ready && prepared.args).toEqual({ path: "a.txt", offset: 2 });
  });
});
