// Every handler shipped with yuj, keyed by id. Profiles refer to handlers by
// these ids. The list itself is found, not written: tools/registry.generated.ts
// names each handler file's one exported handler, so adding a tool is its
// handler file, its description and a profile entry.

import type { ToolHandler } from "../core/tool-types.js";
import { HANDLERS } from "./registry.generated.js";

export function builtinHandlers(): Map<string, ToolHandler> {
  const byId = new Map<string, ToolHandler>();
  for (const h of HANDLERS) {
    if (byId.has(h.id)) throw new Error(`two tool handlers share the id "${h.id}"; each handler needs its own id`);
    byId.set(h.id, h);
  }
  return byId;
}
