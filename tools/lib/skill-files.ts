// On the Yuj surface a skill's directory is readable by `read` although it
// lies outside the project: the system prompt lists each SKILL.md by its
// absolute path. Reading a SKILL.md puts that skill in use (its
// allowed-tools then narrow the tools), once the read succeeded. Symlinks are resolved first, so a
// link inside a skill's directory cannot lead anywhere else.

import * as path from "node:path";
import type { Skill } from "../../core/skills/discover.js";
import type { ToolContext } from "../../core/tool-types.js";
import { yujPaths } from "./file-access.js";
import { hiddenRefusal } from "./paths.js";
import { homeDir } from "../../core/paths.js";

export type Located = { ok: true; abs: string; display: string; size: number; skill?: Skill } | { ok: false; error: string };

/** The file when `input` is inside a skill's directory; undefined when it is not (the ordinary rules apply). */
export async function locateInSkillDir(ctx: ToolContext, input: string, directoryError: string): Promise<Located | undefined> {
  const skills = ctx.skills;
  if (!skills || !path.isAbsolute(input)) return undefined;
  let real: string;
  try {
    real = await ctx.services.fs.realpath(input);
  } catch {
    return undefined;
  }
  const inside = skills.readRoots().some((root) => real === root || real.startsWith(root + path.sep));
  if (!inside) return undefined;
  // What [sandbox].unreadable_paths hides stays hidden inside a skill's folder too.
  const access = yujPaths(ctx, "read");
  if (access.hiddenError) return { ok: false, error: `ERROR: ${access.hiddenError}` };
  const hidden = hiddenRefusal(access.hidden, input, real);
  if (hidden) return { ok: false, error: hidden };
  const st = await ctx.services.fs.stat(real);
  if (st.isDirectory()) return { ok: false, error: directoryError };
  const skill = skills.skills.find((s) => s.file === real);
  return { ok: true, abs: real, display: input, size: st.size, ...(skill ? { skill } : {}) };
}

/**
 * `~/…` expanded against the home folder, for the one place outside the
 * project `read` opens (an enabled skill's folder, often written from home:
 * `~/.agents/skills/x/SKILL.md`); any other input as it is.
 */
export function homeExpanded(ctx: ToolContext, input: string): string {
  return ctx.skills && input.startsWith("~/") ? path.join(homeDir(ctx.services.env), input.slice(2)) : input;
}

/** Its instructions were read: the skill is in use, and the view marks it loaded. */
export function markSkillLoaded(ctx: ToolContext, skill: Skill): void {
  ctx.skills?.use(skill);
  ctx.emit({ type: "skill_loaded", name: skill.name, callId: ctx.callId });
}

/**
 * The refusal for a change to a file in a skill's directory outside the
 * project: read may open it, but the file tools never write there.
 */
export async function skillPathReadOnly(ctx: ToolContext, input: string): Promise<string | undefined> {
  const skills = ctx.skills;
  if (!skills || !path.isAbsolute(input)) return undefined;
  // The nearest existing folder decides, so a new file under a skill is refused too.
  let at = path.resolve(input);
  let rest = "";
  for (;;) {
    try {
      at = path.join(await ctx.services.fs.realpath(at), rest);
      break;
    } catch {
      if (path.dirname(at) === at) return undefined;
      rest = path.join(path.basename(at), rest);
      at = path.dirname(at);
    }
  }
  const within = (root: string) => at === root || at.startsWith(root + path.sep);
  const cwd = await ctx.services.fs.realpath(ctx.cwd).catch(() => ctx.cwd);
  if (within(cwd) || !skills.readRoots().some(within)) return undefined;
  return `ERROR: skill path is read-only: ${input}`;
}
