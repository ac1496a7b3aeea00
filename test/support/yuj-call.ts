// One Yuj tool call the way a model makes it, on the default surface: the
// dispatcher's checks (argument aliases, schema validation, the toolset),
// then the handler. A refused call answers with the dispatcher's text.

import { prepareCall } from "../../core/dispatch.js";
import { baseToolset } from "./loop-harness.js";
import type { TestToolContext } from "./tool-context.js";

/** `raw`: `args` is the arguments' text exactly as the model sent it (malformed, an array, bare), not an object to encode. */
export async function yujCall(t: TestToolContext, name: string, args: unknown, opts: { raw?: boolean } = {}): Promise<{ ok: boolean; text: string }> {
  const text = opts.raw ? String(args) : JSON.stringify(args);
  const prepared = prepareCall({ id: "c1", name, args: text }, baseToolset(t.ctx.config), t.ctx.config);
  if (!prepared.ready) return { ok: false, text: prepared.text };
  const r = await prepared.tool.handler.run(prepared.args as never, t.ctx);
  return { ok: r.ok, text: r.modelText };
}

/** The refusal `schema_validation = "reject"` gives, with its items as the page's envelope lists them. */
export const schemaRejectText = (tool: string, errors: unknown[]): string =>
  "ERROR: " + JSON.stringify({ error: { errors, message: "Tool arguments do not match the declared schema.", tool, type: "tool_schema_reject", version: 1 } });
