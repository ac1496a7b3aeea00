import { describe, expect, it } from "vitest";
import { MAX_ARGS_DEPTH, jsonNesting, parseArgsJson, stringifyAnyDepth } from "../../core/json-depth.js";

describe("jsonNesting", () => {
  it("counts object and array levels, not brackets inside strings", () => {
    expect(jsonNesting('"x"')).toBe(0);
    expect(jsonNesting('{"a":[1,{"b":[]}]}')).toBe(4);
    expect(jsonNesting('{"a":"[[[[{{{{","b":"\\\\\\"[[["}')).toBe(1);
  });

  it("stops counting just past the limit, however deep the text goes", () => {
    expect(jsonNesting("[".repeat(1e6))).toBe(MAX_ARGS_DEPTH + 1);
    expect(jsonNesting("[".repeat(10), 3)).toBe(4);
  });
});

describe("parseArgsJson", () => {
  it("parses arguments up to the limit and refuses deeper ones", () => {
    const at = "[".repeat(MAX_ARGS_DEPTH) + "]".repeat(MAX_ARGS_DEPTH);
    expect(parseArgsJson(`${at}`)).toBeDefined();
    expect(parseArgsJson(`[${at}]`)).toBeUndefined();
    expect(parseArgsJson("{nope")).toBeUndefined();
    expect(parseArgsJson('{"a":1}')).toEqual({ value: { a: 1 } });
  });
});

describe("stringifyAnyDepth", () => {
  it("writes what JSON.stringify writes", () => {
    for (const v of [{}, [], { a: [1, "x\n\"", null, true, { b: {} }], c: undefined }, [undefined, 2], "s", 3, null]) {
      expect(stringifyAnyDepth(v)).toBe(JSON.stringify(v));
    }
  });

  it("writes a value 100,000 levels deep that JSON.stringify cannot", () => {
    const text = "[".repeat(50_000) + '{"k":' + "[".repeat(50_000) + "1" + "]".repeat(50_000) + "}" + "]".repeat(50_000);
    const value: unknown = JSON.parse(text);
    expect(() => JSON.stringify(value)).toThrow(RangeError);
    expect(stringifyAnyDepth(value)).toBe(text);
  });
});
