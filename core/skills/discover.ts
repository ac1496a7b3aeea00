// Agent Skills: `<dir>/<name>/SKILL.md`, whose front matter gives `name`
// and `description` (and optionally `allowed-tools`). Searched in this order,
// the first skill of a name winning: the project's .yuj/skills/ and
// .agents/skills/, the user's ~/.config/yuj/skills/, each [skills].paths
// entry, then the skills shipped in yuj's own skills/ folder. Only names and
// descriptions go into a request; the body is read when the skill is used.

import * as fs from "node:fs";
import * as path from "node:path";
import { splitFrontMatter } from "./front-matter.js";

export interface Skill {
  name: string;
  description: string;
  /** Absolute directory of the skill (its SKILL.md and any files beside it). */
  dir: string;
  file: string;
  /** Tool names the skill may use while it is in use; undefined: no narrowing. */
  allowedTools?: string[];
  /** Where it was found: project, user, config, package. */
  origin: string;
}

export interface SkillRoots {
  projectDir: string;
  /** The user's yuj config directory (~/.config/yuj). */
  userConfigDir: string;
  /** [skills].paths: absolute, `~/`, or relative to the project. */
  paths: readonly string[];
  home: string;
  /** yuj's own skills/ folder. */
  packageDir: string;
}

export interface Discovered {
  skills: Skill[];
  /** Skills that could not be read, each with why (reported, never fatal). */
  problems: string[];
}

const NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;

export function discoverSkills(roots: SkillRoots): Discovered {
  const dirs: Array<[string, string]> = [
    [path.join(roots.projectDir, ".yuj", "skills"), "project"],
    [path.join(roots.projectDir, ".agents", "skills"), "project"],
    [path.join(roots.userConfigDir, "skills"), "user"],
    ...roots.paths.map((p): [string, string] => [expandPath(p, roots), "config"]),
    [roots.packageDir, "package"],
  ];
  const byName = new Map<string, Skill>();
  const problems: string[] = [];
  for (const [dir, origin] of dirs) {
    for (const entry of listDirs(dir)) {
      const file = path.join(dir, entry, "SKILL.md");
      if (!fs.existsSync(file)) continue;
      const read = readSkill(file, origin);
      if ("error" in read) problems.push(`${file}: ${read.error}`);
      else if (!byName.has(read.name)) byName.set(read.name, read);
    }
  }
  return { skills: [...byName.values()].sort((a, b) => a.name.localeCompare(b.name)), problems };
}

function readSkill(file: string, origin: string): Skill | { error: string } {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (err) {
    return { error: `cannot be read (${(err as Error).message})` };
  }
  const fm = splitFrontMatter(text);
  if ("error" in fm) return { error: `${fm.error}; start it with ---, name: and description:, then ---` };
  const name = fm.fields.name;
  const description = fm.fields.description;
  if (typeof name !== "string" || !NAME.test(name)) return { error: "its front matter needs name: in lower case letters, digits and hyphens" };
  if (typeof description !== "string" || description.trim() === "") return { error: "its front matter needs a description:" };
  const tools = fm.fields["allowed-tools"];
  const allowed = typeof tools === "string" ? tools.split(/[\s,]+/).filter(Boolean) : tools;
  const dir = path.dirname(fs.realpathSync(file));
  return { name, description: description.trim(), dir, file: path.join(dir, "SKILL.md"), origin, ...(allowed?.length ? { allowedTools: allowed } : {}) };
}

/** The SKILL.md body (front matter left out). */
export function skillBody(skill: Skill): string {
  const fm = splitFrontMatter(fs.readFileSync(skill.file, "utf8"));
  return "error" in fm ? "" : fm.body.trim();
}

function listDirs(dir: string): string[] {
  try {
    return fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory() || d.isSymbolicLink())
      .map((d) => d.name)
      .sort();
  } catch {
    return [];
  }
}

function expandPath(p: string, roots: SkillRoots): string {
  if (p === "~" || p.startsWith("~/")) return path.join(roots.home, p.slice(1));
  return path.resolve(roots.projectDir, p);
}
