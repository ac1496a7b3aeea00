// A run from the bundle holds each handler as the build described it and
// loads its code on first use. The described handler must answer everything
// a run asks before that exactly as the handler itself, and refuse loudly
// (never answer "nothing") what needs the code until it is loaded.

import { describe, expect, it } from "vitest";
import { z } from "zod";
import { guardCallOf } from "../../core/tool-facts.js";
import { HandlerNotLoaded, type ToolHandler } from "../../core/tool-types.js";
import { describeHandler } from "../../tools/describe-handlers.js";
import { lazyRegistry } from "../../tools/lazy-registry.js";
import { LOADERS } from "../../tools/loaders.generated.js";
import { HANDLERS } from "../../tools/registry.generated.js";

// As the build does it: described from the handlers, over the generated loaders.
const described = HANDLERS.map(describeHandler);
const fresh = () => lazyRegistry(described, LOADERS).registry;

/** The data a run reads before any call: everything but the code. */
function dataOf(h: ToolHandler) {
  const view = Object.fromEntries(Object.entries(h.view).map(([k, v]) => [k, typeof v === "function" ? "fn" : v]));
  const keys = Object.keys(h).filter((k) => !["schema", "view", "load", "declared"].includes(k));
  const top = Object.fromEntries(keys.map((k) => [k, (v: unknown) => (typeof v === "function" ? "fn" : v instanceof Set ? [...v] : v)] as const).map(([k, f]) => [k, f(h[k as keyof ToolHandler])]));
  return { ...top, view };
}

describe("the lazily loaded handler registry", () => {
  it("describes every shipped handler as it is, its schema's parameters and JSON Schema included", () => {
    const registry = fresh();
    expect(registry.size).toBe(HANDLERS.length);
    for (const real of HANDLERS) {
      const lazy = registry.get(real.id)!;
      expect(dataOf(lazy)).toEqual(dataOf(real));
      expect(lazy.declared!.params).toEqual(Object.keys(real.schema.shape));
      expect(lazy.declared!.jsonSchema()).toEqual(z.toJSONSchema(real.schema, { io: "input" }));
    }
  });

  it("refuses what needs the code until it is loaded, and is the handler once it is", async () => {
    const bash = fresh().get("bash")!;
    const facts = { cwd: "/w", name: "bash" };
    expect(() => bash.schema).toThrow(HandlerNotLoaded);
    expect(() => bash.view.summary!({ cmd: "ls" }, facts)).toThrow("tool handler bash was used before its code loaded");
    // The core's "a description that throws says nothing" must not hide it.
    expect(() => guardCallOf(bash, "c1", { cmd: "ls" }, facts)).toThrow(HandlerNotLoaded);
    await bash.load!();
    const real = HANDLERS.find((h) => h.id === "bash")!;
    expect(bash.schema).toBe(real.schema);
    expect(bash.view.summary!({ cmd: "ls -la" }, facts)).toBe(real.view.summary!({ cmd: "ls -la" }, facts));
    expect(guardCallOf(bash, "c1", { cmd: "ls" }, facts)).toMatchObject({ tool: "bash", effects: real.callEffects!({ cmd: "ls" }, facts) });
  });

  it("loads each handler once, and every one on loadAll", async () => {
    const { registry, loadAll } = lazyRegistry(described, LOADERS);
    const read = registry.get("read")!;
    expect(read.load!()).toBe(read.load!());
    await loadAll();
    for (const h of registry.values()) expect(() => h.schema).not.toThrow();
  });

  it("refuses a build whose loaders do not match what it described", async () => {
    expect(() => lazyRegistry(described.slice(1), LOADERS)).toThrow("rebuild");
    const swapped = lazyRegistry(described, [LOADERS[1]!, LOADERS[0]!, ...LOADERS.slice(2)]).registry;
    await expect(swapped.get(HANDLERS[0]!.id)!.load!()).rejects.toThrow(`its module holds ${HANDLERS[1]!.id}`);
  });
});
