// Deferred loading on the loop: the tools not loaded yet are left out of each
// request, and a call to one of them is refused before anything else looks at
// it, with the error that names the loading tool.

import type { Guard } from "../../core/guards/types.js";
import { notActiveText, type DeferredTools } from "../../core/profiles/deferred.js";

export function deferredToolsGuard(deferred: DeferredTools): Guard {
  return {
    name: "deferred_tools",
    topLevelOnly: true,
    before: (call) => (deferred.visible().has(call.tool) ? undefined : notActiveText(call.tool, deferred.loadTool)),
    hiddenTools(ctx) {
      const shown = deferred.visible();
      return new Set([...ctx.activeTools].filter((name) => !shown.has(name)));
    },
  };
}
