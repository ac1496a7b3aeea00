// Skill discovery over real directories: every place a skill is looked for,
// the first of a name winning, the front matter's forms, and the skills that
// ship with yuj.

import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { discoverSkills, skillBody } from "../core/skills/discover.js";
import { repoRoot } from "./support/loop-harness.js";

function skill(dir: string, name: string, front: string, body = "Do the thing.\n"): void {
  mkdirSync(join(dir, name), { recursive: true });
  writeFileSync(join(dir, name, "SKILL.md"), `---\n${front}\n---\n\n${body}`);
}

describe("skill discovery", () => {
  it("finds skills in the project, the user's folder, [skills].paths and the package; the first of a name wins", () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), "yuj-skills-")));
    const project = join(root, "proj");
    const home = join(root, "home");
    skill(join(project, ".yuj/skills"), "deploy", "name: deploy\ndescription: Project deploy steps");
    skill(join(project, ".agents/skills"), "deploy", "name: deploy\ndescription: shadowed by .yuj");
    skill(join(project, ".agents/skills"), "triage", 'name: triage\ndescription: "Triage a bug report"\nallowed-tools: [read, grep]');
    skill(join(home, ".config/yuj/skills"), "notes", "name: notes\ndescription: >\n  Keep release notes\n  in order\nallowed-tools:\n  - Read\n  - Bash(git log:*)");
    skill(join(root, "extra"), "extra-one", "name: extra-one\ndescription: From a configured path");
    skill(join(project, ".yuj/skills"), "broken", "description: no name here");
    const found = discoverSkills({ projectDir: project, userConfigDir: join(home, ".config/yuj"), paths: ["../extra"], home, packageDir: join(repoRoot, "skills") });
    const byName = Object.fromEntries(found.skills.map((s) => [s.name, s]));
    expect(Object.keys(byName).sort()).toEqual(["agents-md", "deploy", "extra-one", "notes", "review-diff", "triage"]);
    expect(byName.deploy!.description).toBe("Project deploy steps");
    expect(byName.triage!.allowedTools).toEqual(["read", "grep"]);
    expect(byName.notes!.description).toBe("Keep release notes in order");
    expect(byName.notes!.allowedTools).toEqual(["Read", "Bash(git log:*)"]);
    expect(byName.notes!.origin).toBe("user");
    expect(byName["agents-md"]!.origin).toBe("package");
    expect(byName.deploy!.dir).toBe(join(project, ".yuj/skills/deploy"));
    expect(skillBody(byName.deploy!)).toBe("Do the thing.");
    expect(found.problems).toEqual([`${join(project, ".yuj/skills/broken/SKILL.md")}: its front matter needs name: in lower case letters, digits and hyphens`]);
  });

  it("the shipped skills are valid and say what they are for", () => {
    const found = discoverSkills({ projectDir: mkdtempSync(join(tmpdir(), "yuj-none-")), userConfigDir: "/nonexistent", paths: [], home: "/nonexistent", packageDir: join(repoRoot, "skills") });
    expect(found.problems).toEqual([]);
    expect(found.skills.map((s) => s.name)).toEqual(["agents-md", "review-diff"]);
    for (const s of found.skills) expect(skillBody(s).length).toBeGreaterThan(500);
  });
});
