// The registry a run uses. From the bundle: every handler as the build
// described it, its code loaded on first use (tools/lazy-registry.ts). From
// the sources (no build has described them): every handler, loaded now.

import { createRequire } from "node:module";
import type { Described } from "./describe-handlers.js";
import { lazyRegistry, type LazyRegistry } from "./lazy-registry.js";
import { LOADERS } from "./loaders.generated.js";

// Set by the bundler (scripts/build.mjs): what describeHandler says of each handler, in the loaders' order.
declare const YUJ_TOOL_HANDLERS: readonly Described[] | undefined;

// Named through a variable so the bundler leaves it out: only a run from the sources loads it.
const EAGER = "./registry.js";

export function runRegistry(): LazyRegistry {
  if (typeof YUJ_TOOL_HANDLERS !== "undefined") return lazyRegistry(YUJ_TOOL_HANDLERS, LOADERS);
  const eager = createRequire(import.meta.url)(EAGER) as typeof import("./registry.js");
  return { registry: eager.builtinHandlers(), loadAll: async () => {} };
}
