// Yuj `load_tools` (deferred loading): adds hidden tools, by exact name, to
// the following requests. The session's loader decides what may be loaded
// (core/profiles/deferred.ts); each accepted load is recorded as an event.

import { z } from "zod";
import { CONVERSES, fail, ok, type ToolHandler } from "../../core/tool-types.js";

export const loadToolsSchema = z.object({
  names: z.array(z.string()),
});

export const loadToolsTool: ToolHandler<typeof loadToolsSchema> = {
  id: "load_tools",
  schema: loadToolsSchema,
  effects: CONVERSES,
  role: "load",
  view: {
    card: "foldable",
    summary: (args) => (Array.isArray(args.names) ? args.names.filter((n) => typeof n === "string").join(", ") : ""),
  },
  async run(args, ctx) {
    if (!ctx.toolLoader) return fail("ERROR: deferred tool loading is off in this session ([tools].lazy_loading_enabled)");
    const result = ctx.toolLoader.load(args.names);
    if (!result.ok) return fail(result.text);
    ctx.emit({ type: "tools_loaded", callId: ctx.callId, names: result.added, active: result.active });
    // "Activated tools: …" in the reference's words, then the whole active set.
    const added = result.added.length
      ? `Activated tools: ${result.added.join(", ")} (available from your next response on)`
      : "Activated tools: none (every name given is already active)";
    return ok(`${added}\nActive tools: ${result.active.join(", ")}`);
  },
};
