// Which paths a file tool may open, per surface, as options for resolveInCwd.
// Both surfaces: the session's saved output is readable, and what
// [sandbox].unreadable_paths hides from commands is hidden from the file
// tools too (a secret the shell cannot cat must not come back through read).
// The Chord surface also takes `~` and paths outside the project, as Chord's
// local-path handling does: its permission rules ask about those.

import type { ToolContext } from "../../core/tool-types.js";
import { homeDir } from "../../core/paths.js";
import { resolveUnreadable } from "../../core/sandbox/unreadable.js";
import * as path from "node:path";
import { hiddenRefusal, type ResolveOptions } from "./paths.js";
import { savedOutputRoots } from "./saved-output.js";

type Ctx = Pick<ToolContext, "cwd" | "config" | "sessionDir" | "services">;

type Hidden = { hidden: NonNullable<ResolveOptions["hidden"]> } | { error: string };

/** The hidden paths as real paths, or why they cannot be known (a missing entry: a typo must not leave a secret readable). */
function hiddenOrError(ctx: Ctx): Hidden {
  const entries = ctx.config.sandbox.unreadable_paths;
  if (!entries.length) return { hidden: [] };
  return resolveUnreadable(entries, { projectDir: ctx.cwd, home: homeDir(ctx.services.env) });
}

function hiddenPaths(ctx: Ctx): NonNullable<ResolveOptions["hidden"]> {
  const h = hiddenOrError(ctx);
  return "hidden" in h ? h.hidden : [];
}

type Access = Pick<ResolveOptions, "readableRoots" | "hidden" | "hiddenError">;

/** What the Yuj file tools may open: the project, and for reading the session's saved output. */
export function yujPaths(ctx: Ctx, use: "read" | "write"): Access {
  const h = hiddenOrError(ctx);
  return {
    ...(use === "read" ? { readableRoots: savedOutputRoots(ctx.sessionDir) } : {}),
    ...("error" in h ? { hiddenError: h.error } : h.hidden.length ? { hidden: h.hidden } : {}),
  };
}

/** What the Chord file tools may open: also `~` and any local path, which the permission rules then judge. */
export function chordPaths(ctx: Ctx, use: "read" | "write"): Access & Pick<ResolveOptions, "outside"> {
  return { ...yujPaths(ctx, use), outside: { home: homeDir(ctx.services.env) } };
}

/**
 * For a search tool: whether a result (a path as shown, relative to the
 * project or absolute) must be left out, because a permission rule refuses
 * it or [sandbox].unreadable_paths hides it. Undefined when nothing is left out.
 */
export function searchHidden(ctx: Ctx & Pick<ToolContext, "hiddenByRules">, cwdReal: string): ((shown: string) => boolean) | undefined {
  const hidden = hiddenPaths(ctx);
  const byRules = ctx.hiddenByRules;
  if (!hidden.length) return byRules;
  return (shown) => {
    if (byRules?.(shown)) return true;
    const abs = path.resolve(cwdReal, shown);
    return hiddenRefusal(hidden, shown, abs) !== undefined;
  };
}
