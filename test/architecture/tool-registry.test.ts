// The handler list is found from the tool files: a new handler file is in
// yuj the moment it exists, and a file that breaks the one-handler rule stops
// the build with its name.

import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
// @ts-expect-error the generator is a plain build script without types
import { findHandlers, loadersSource, registrySource } from "../../scripts/tool-registry.mjs";
import { builtinHandlers } from "../../tools/registry.js";
import { repoRoot } from "../support/loop-harness.js";

const roots: string[] = [];
afterEach(() => roots.splice(0).forEach((r) => rmSync(r, { recursive: true, force: true })));

/** A tools/ folder with the given handler files. */
function toolsTree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "yuj-registry-"));
  roots.push(root);
  for (const dir of ["yuj", "chord", "shared"]) mkdirSync(join(root, dir));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(root, name), text);
  return `${root}/`;
}

describe("the tool registry", () => {
  it("holds one handler for every handler file of the three folders", () => {
    const files = ["yuj", "chord", "shared"].flatMap((d) => readdirSync(join(repoRoot, "tools", d)).filter((f) => f.endsWith(".ts")));
    expect(builtinHandlers().size).toBe(files.length);
  });

  it("names each file's one exported handler, and a new file joins without editing a list", () => {
    const root = toolsTree({
      "yuj/alpha.ts": "export const alphaTool = {};\nexport const helper = 1;\n",
      "shared/beta.ts": "export const betaTool = {};\n",
    });
    expect(findHandlers(root)).toEqual([
      ["./yuj/alpha.js", "alphaTool"],
      ["./shared/beta.js", "betaTool"],
    ]);
    expect(registrySource(findHandlers(root))).toContain('import { betaTool } from "./shared/beta.js";');
    // Each handler also through an import() of its own, in the same order: a run loads only those it calls.
    expect(loadersSource(findHandlers(root)).split("\n").filter((l: string) => l.includes("import("))).toEqual([
      '  () => import("./yuj/alpha.js").then((m) => m.alphaTool),',
      '  () => import("./shared/beta.js").then((m) => m.betaTool),',
    ]);
  });

  it("refuses a handler file with no handler or two, naming the file", () => {
    expect(() => findHandlers(toolsTree({ "chord/two.ts": "export const aTool = {};\nexport const bTool = {};\n" }))).toThrow(
      "tools/chord/two.ts: a handler file exports exactly one `export const <name>Tool`; found 2",
    );
    expect(() => findHandlers(toolsTree({ "yuj/none.ts": "export const x = 1;\n" }))).toThrow("tools/yuj/none.ts");
  });

  it("no two shipped handlers share an id", async () => {
    const { HANDLERS } = await import("../../tools/registry.generated.js");
    expect(new Set(HANDLERS.map((h: { id: string }) => h.id)).size).toBe(HANDLERS.length);
  });
});
