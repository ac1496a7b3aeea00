// The facts Chord's own tests look for in its read and search tools' descriptions
// (in yuj's words), checked on the real chord profile as the model receives it:
// grep and glob say what
// they are for, that an invalid regex is searched as text, where relative
// paths resolve, that glob patterns are not regex and that its matches are
// relative to path.

import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../core/config/schema.js";
import { activateTools } from "../../core/profiles/activate.js";
import { checkProfile, loadProfile } from "../../core/profiles/load.js";
import { builtinHandlers } from "../../tools/registry.js";
import { repoRoot } from "../support/loop-harness.js";

const registry = builtinHandlers();
const chord = loadProfile(join(repoRoot, "profiles"), "chord");
checkProfile(chord, registry, "minimal");
const specs = activateTools(chord, registry, defaultConfig(), { topLevel: true }).specs;
const spec = (name: string) => specs.find((s) => s.name === name)!;
const param = (tool: string, name: string) =>
  ((spec(tool).parameters.properties as Record<string, { description?: string }>)[name]?.description ?? "");

describe("Chord search tool descriptions", () => {
  it.each<[string, () => string, string[]]>([
    ["grep", () => spec("grep").description, ["regular expression", "literal text", "paths", "includes", "glob"]],
    ["grep paths", () => param("grep", "paths"), ["One or more", "Relative paths resolve from the session working directory", "~", "Defaults to the session working directory"]],
    ["grep includes", () => param("grep", "includes"), ["globs", "optional", "**/*.go", "internal/**/*.ts"]],
    ["glob", () => spec("glob").description, ["glob patterns", "by name or extension", "grep"]],
    ["glob path", () => param("glob", "path"), ["one directory", "inside the project", "working directory (the default)", "~", "listed relative to it"]],
    ["glob patterns", () => param("glob", "patterns"), ["relative to path", "src/**/*.ts", "**", "not regular expressions", "not file contents", "listed relative to path"]],
    ["read", () => spec("read").description, ["READ_RESULT lines=a-b total=N", "lines=none", "encoding=", "no line numbers", "LF", "truncated=budget", "not truncation", "1-based offset"]],
    ["read path", () => param("read", "path"), ["An existing file", "Do not guess paths", "verify uncertain paths", "glob or grep"]],
  ])("%s says what it must", (_name, text, wanted) => {
    for (const w of wanted) expect(text()).toContain(w);
  });

  it("glob leaves the regex boundary to its patterns parameter", () => {
    expect(spec("glob").description).not.toContain("regular expressions");
  });
});
