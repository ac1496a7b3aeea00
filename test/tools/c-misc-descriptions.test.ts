// What the Chord surface tells a model about its two discovery tools, as
// Chord's description tests pin it: grep for content when the location is not
// known (an invalid regex searched as literal text, paths and includes), glob
// for paths (glob syntax, not regex, matches relative to the base directory).
// Read from the activated profile: what a request carries.

import { describe, expect, it } from "vitest";
import { chordToolset } from "../support/loop-harness.js";

function spec(tool: string): { description: string; params: Record<string, string> } {
  const s = chordToolset().tools.get(tool)!.spec;
  const props = (s.parameters.properties ?? {}) as Record<string, { description?: string }>;
  return { description: s.description, params: Object.fromEntries(Object.entries(props).map(([k, v]) => [k, v.description ?? ""])) };
}

describe("chord discovery tools: descriptions", () => {
  it("grep: literal fallback, paths, includes, and the discovery role", () => {
    const { description, params } = spec("grep");
    for (const phrase of [
      "If pattern is not valid regex, it is safely searched as literal text",
      "Use paths for one or more files/directories",
      "includes for optional path globs",
      "Best for discovering candidate files, symbols, or text matches when the exact location is not known yet.",
    ])
      expect(description).toContain(phrase.replace(/\.$/, ""));
    for (const phrase of ["One or more files/directories to search", "Relative paths resolve from the session working directory", "Defaults to the session working directory"])
      expect(params.paths).toContain(phrase);
    for (const phrase of ["path glob filters", "**/*.go", "internal/**/*.ts"]) expect(params.includes).toContain(phrase);
  });

  it("glob: path syntax and the discovery role, with the regex boundary left to patterns", () => {
    const { description, params } = spec("glob");
    expect(description).toContain("Find files by path using glob syntax");
    expect(description).toContain("Best for discovering candidate files by path or extension");
    expect(description).not.toContain("regular expressions");
    for (const phrase of [
      "Single base directory to search from",
      "Relative paths resolve from the session working directory",
      "Supports ~",
      "Defaults to the session working directory",
      "Returned matches are relative to this base directory",
    ])
      expect(params.path).toContain(phrase);
    for (const phrase of ["Path globs relative to path", "Returned matches are also relative to path", "src/**/*.ts", "Supports **", "This is glob syntax, not regex and not a file-contents search."])
      expect(params.patterns).toContain(phrase);
  });
});
