// The permission engine's view of a surface's tools, from their handlers:
// what each call is matched on, and the facts that let a rule for one tool
// speak to another (the edit family, a patch's added and deleted files, the
// files searches leave out), YOLO's exceptions and what an ask means.

import type { ProfileTool } from "../profiles/tool-entry.js";
import { HandlerNotLoaded, type ToolHandler, type ToolRegistry } from "../tool-types.js";
import { ANY, touchedTarget } from "./match-target.js";
import type { ToolCatalog, ToolRuleFacts } from "./types.js";

/** The rule facts of one handler under an exposed name. */
export function ruleFacts(handler: ToolHandler, name: string): ToolRuleFacts {
  const p = handler.permissions ?? {};
  const finish = handler.role === "finish";
  const facts: ToolRuleFacts = {
    matchValue: (args, cwd, sessionDir) => {
      const call = { cwd, name, ...(sessionDir !== undefined ? { sessionDir } : {}) };
      try {
        return handler.matchValue?.(args, call) ?? touchedTarget(handler.touches?.(args, call));
      } catch (err) {
        // Only arguments the tool's schema refused can break it, and such a call never runs;
        // a handler whose code is not loaded yet is yuj's mistake, never taken for "any".
        if (err instanceof HandlerNotLoaded) throw err;
        return ANY;
      }
    },
    aliases: p.aliases ?? [],
    // Ending the task and steering other agents are never waved through.
    guarded: finish || handler.effects.has("orchestrate"),
    ...(p.family ? { family: p.family } : {}),
    ...(p.askByDefault ? { defaultAsk: p.askByDefault } : {}),
  };
  if (p.askAllows) facts.ask = "allow";
  else if (finish || p.askMakesAvailable) facts.ask = "available";
  return facts;
}

/** Every tool a profile declares (on or off), with its handler's facts. */
export function toolCatalog(tools: readonly Pick<ProfileTool, "name" | "handler">[], registry: ToolRegistry): ToolCatalog {
  const catalog = new Map<string, ToolRuleFacts>();
  for (const t of tools) {
    const handler = registry.get(t.handler);
    if (handler) catalog.set(t.name, ruleFacts(handler, t.name));
  }
  return catalog;
}
