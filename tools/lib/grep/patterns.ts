// Chord grep's plural `patterns`: each element is its own regex, searched
// together as one alternation of groups, so an inline flag (`(?i)`) or an
// anchor stays with its element. An element ripgrep cannot parse is searched
// as literal text on its own, leaving its neighbours' regex meaning intact;
// an empty element is dropped (as an alternation arm it would match every
// line).

import type { ToolContext } from "../../../core/tool-types.js";

export interface CombinedPattern {
  /** One regex for ripgrep; undefined when no element is left. */
  regex?: string;
  /** The elements searched as literal text. */
  literal: string[];
}

/** The pattern with every regex metacharacter escaped (ripgrep's syntax). */
function escapeRegex(text: string): string {
  return text.replace(/[\\.+*?()|[\]{}^$]/g, "\\$&");
}

/** Whether ripgrep parses `pattern` as a regex (searched against nothing). */
function rgAccepts(ctx: ToolContext, rg: string, pattern: string): Promise<boolean> {
  return new Promise((resolve) => {
    const child = ctx.services.spawn(rg, ["--no-config", "-e", pattern, "--", "/dev/null"], {
      cwd: ctx.cwd,
      stdio: ["ignore", "ignore", "ignore"],
      env: ctx.services.env,
    });
    child.on("error", () => resolve(true));
    // 0 or 1: searched (matched or not); 2: the pattern did not parse.
    child.on("close", (code) => resolve(code !== 2));
  });
}

export async function combinePatterns(ctx: ToolContext, rg: string, patterns: readonly string[]): Promise<CombinedPattern> {
  const parts: string[] = [];
  const literal: string[] = [];
  for (const p of patterns) {
    if (p === "") continue;
    if (await rgAccepts(ctx, rg, p)) parts.push(`(?:${p})`);
    else {
      literal.push(p);
      parts.push(`(?:${escapeRegex(p)})`);
    }
  }
  return { ...(parts.length ? { regex: parts.join("|") } : {}), literal };
}
