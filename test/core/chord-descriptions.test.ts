// What Chord's own tests pin in its read and search tools' descriptions, checked on
// the real chord profile as the model receives it: grep and glob say what
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
    ["grep", () => spec("grep").description, ["not valid regex, it is safely searched as literal text", "Use paths for one or more files/directories", "includes for optional path globs", "Best for discovering candidate files"]],
    ["grep paths", () => param("grep", "paths"), ["One or more files/directories", "Relative paths resolve from the session working directory", "Defaults to the session working directory"]],
    ["grep includes", () => param("grep", "includes"), ["path glob filters", "**/*.go", "internal/**/*.ts"]],
    ["glob", () => spec("glob").description, ["Find files by path using glob syntax.", "Best for discovering candidate files by path or extension."]],
    ["glob path", () => param("glob", "path"), ["Single base directory", "Relative paths resolve from the session working directory", "~", "Defaults to the session working directory", "Returned matches are relative to this base directory"]],
    ["glob patterns", () => param("glob", "patterns"), ["relative to path", "Returned matches are also relative to path", "src/**/*.ts", "**", "not regex and not a file-contents search"]],
    ["read", () => spec("read").description, ["READ_RESULT lines=a-b total=N", "lines=none", "encoding=", "no line numbers", "LF", "truncated=budget", "not truncation", "1-based offset"]],
    ["read path", () => param("read", "path"), ["Existing file", "Do not guess paths", "verify uncertain paths"]],
  ])("%s says what it must", (_name, text, wanted) => {
    for (const w of wanted) expect(text()).toContain(w);
  });

  it("glob leaves the regex boundary to its patterns parameter", () => {
    expect(spec("glob").description).not.toContain("regular expressions");
  });
});
