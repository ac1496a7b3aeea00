// Path rules meet the file, not the name: a real project with real symlinks
// and hard links, every file tool of both surfaces through the real
// dispatcher and permission gate. Each way of reaching a denied file is
// refused and the file is left as it was; grep and glob over the tree leave
// it (and its other names) out. A control without the rules shows each way
// does reach the file.

import { existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../core/config/schema.js";
import { prepareCall, runPrepared } from "../../core/dispatch.js";
import { createEmitter } from "../../core/events.js";
import { createPermissionGate } from "../../core/permissions/gate.js";
import type { Rule } from "../../core/permissions/types.js";
import { activateTools, type ActiveToolset } from "../../core/profiles/activate.js";
import { checkProfile, loadProfile } from "../../core/profiles/load.js";
import { nodeServices } from "../../core/services.js";
import { builtinHandlers } from "../../tools/registry.js";
import { repoRoot } from "../support/loop-harness.js";
import { createSessionMemory } from "../../core/session-memory.js";

const SECRET = "TOPSECRET-1\n";
const KEY = "TOPSECRET-2\n";

/** A project whose secret files are reachable under other names. */
function project() {
  const cwd = realpathSync(mkdtempSync(join(tmpdir(), "yuj-real-paths-")));
  mkdirSync(join(cwd, "secrets"));
  mkdirSync(join(cwd, "src"));
  writeFileSync(join(cwd, "secret.txt"), SECRET);
  writeFileSync(join(cwd, "secrets", "key.pem"), KEY);
  writeFileSync(join(cwd, "src", "open.txt"), "TOPSECRET-not: an open file\n");
  symlinkSync("secret.txt", join(cwd, "link.txt"));
  symlinkSync("../secret.txt", join(cwd, "src", "deep-link.txt"));
  symlinkSync("secrets", join(cwd, "s2"));
  linkSync(join(cwd, "secret.txt"), join(cwd, "hard.txt"));
  linkSync(join(cwd, "secrets", "key.pem"), join(cwd, "src", "copy.pem"));
  return cwd;
}

/** The names the two denied files go by in `cwd`. */
const aliases = (cwd: string) => [
  "secret.txt",
  "./src/../secret.txt",
  "/secret.txt",
  `${cwd}/secret.txt`,
  "link.txt",
  "src/deep-link.txt",
  "hard.txt",
  "secrets/key.pem",
  "s2/key.pem",
  `/s2/key.pem`,
  "src/copy.pem",
];

const RULES: Rule[] = [
  { tool: "*", pattern: "secret.txt", action: "deny" },
  { tool: "*", pattern: "secrets/*", action: "deny" },
];

type Surface = "yuj" | "chord" | "chord-patch";
const profiles = join(repoRoot, "profiles");
const registry = builtinHandlers();

function toolset(surface: Surface): ActiveToolset {
  const profile = loadProfile(profiles, surface === "yuj" ? "_base" : "chord");
  checkProfile(profile, registry, "minimal");
  const model = surface === "chord-patch" ? { provider: "openai", id: "gpt-5" } : { provider: "anthropic", id: "claude-sonnet-4-5" };
  return activateTools(profile, registry, defaultConfig(), { topLevel: true, model });
}

async function run(surface: Surface, cwd: string, rules: Rule[] | undefined, name: string, args: Record<string, unknown>) {
  const tools = toolset(surface);
  const config = defaultConfig();
  const { emit } = createEmitter("paths", () => {});
  const chord = surface !== "yuj";
  const all = rules === undefined ? (chord ? [{ tool: "*", action: "allow" as const }] : []) : chord ? [{ tool: "*", action: "allow" as const }, ...rules] : rules;
  const gate = createPermissionGate({
    cwd,
    rules: all,
    sessionRules: [],
    policy: { surface: chord ? "chord" : "yuj", yolo: true, measurement: false, tools: tools.catalog },
    approver: { ask: async () => ({ decision: "reject" }) },
    emit,
  });
  const prepared = prepareCall({ id: "c1", name, args: JSON.stringify(args) }, tools, config);
  return runPrepared(prepared, { toolset: tools, config, services: nodeServices(), emit, cwd, sessionDir: mkdtempSync(join(tmpdir(), "yuj-s-")), memory: createSessionMemory(), signal: new AbortController().signal, gate });
}

const unchanged = (cwd: string) => {
  expect(readFileSync(join(cwd, "secret.txt"), "utf8")).toBe(SECRET);
  expect(readFileSync(join(cwd, "secrets", "key.pem"), "utf8")).toBe(KEY);
};
const contentOf = (p: string) => (p.includes("key") || p.includes("pem") ? KEY : SECRET).trim();

describe.each<[Surface]>([["yuj"], ["chord"], ["chord-patch"]])("%s surface: every name of a denied file meets the rule", (surface) => {
  const readTool = "read";

  it("control: without the rules, each name reads the secret file", async () => {
    const cwd = project();
    for (const p of aliases(cwd)) {
      // Chord takes an absolute path where it is: `/secret.txt` is not the project's file there.
      if (surface !== "yuj" && p.startsWith("/") && !p.startsWith(cwd)) continue;
      const out = await run(surface, cwd, undefined, readTool, { path: p });
      expect(out.modelText, p).toContain(contentOf(p));
    }
  });

  it("read refuses every name", async () => {
    const cwd = project();
    for (const p of aliases(cwd)) {
      const out = await run(surface, cwd, RULES, readTool, { path: p });
      expect(out.ok, p).toBe(false);
      expect(out.modelText, p).toMatch(/permission denied/);
      expect(out.modelText, p).not.toContain("TOPSECRET");
    }
  });

  it("writing, editing, patching and deleting through every name change nothing", async () => {
    const cwd = project();
    for (const p of aliases(cwd)) {
      const calls: Array<[string, Record<string, unknown>]> =
        surface === "chord-patch"
          ? [
              ["apply_patch", { patch: `*** Begin Patch\n*** Update File: ${p}\n@@\n-TOPSECRET-${contentOf(p).slice(-1)}\n+gone\n*** End Patch` }],
              ["apply_patch", { patch: `*** Begin Patch\n*** Delete File: ${p}\n*** End Patch` }],
            ]
          : [
              ["write", { path: p, content: "overwritten\n" }],
              ["edit", surface === "yuj" ? { path: p, old_str: "TOPSECRET", new_str: "gone" } : { path: p, old_string: "TOPSECRET", new_string: "gone" }],
              ...(surface === "chord" ? [["delete", { paths: [p], reason: "test" }] as [string, Record<string, unknown>], ["delete", { paths: p, reason: "test" }] as [string, Record<string, unknown>]] : []),
            ];
      for (const [name, args] of calls) {
        const out = await run(surface, cwd, RULES, name, args);
        expect(out.modelText, `${name} ${p}`).toMatch(/permission denied/);
        unchanged(cwd);
      }
    }
  });

  it("a new file written through a linked directory meets the rule on its real place", async () => {
    const cwd = project();
    const out =
      surface === "chord-patch"
        ? await run(surface, cwd, RULES, "apply_patch", { patch: "*** Begin Patch\n*** Add File: s2/new.pem\n+x\n*** End Patch" })
        : await run(surface, cwd, RULES, "write", { path: "s2/new.pem", content: "x" });
    expect(out.modelText).toMatch(/permission denied/);
    expect(existsSync(join(cwd, "secrets", "new.pem"))).toBe(false);
  });

  it("grep and glob over the tree leave the denied files and their other names out", async () => {
    const cwd = project();
    const grepArgs = { pattern: "TOPSECRET" };
    const open = await run(surface, cwd, undefined, "grep", grepArgs);
    expect(open.modelText).toContain("TOPSECRET-1"); // control: the plain grep finds them
    expect(open.modelText).toContain("hard.txt");
    const fenced = await run(surface, cwd, RULES, "grep", grepArgs);
    expect(fenced.ok).toBe(true);
    expect(fenced.modelText).toContain("src/open.txt");
    expect(fenced.modelText).not.toMatch(/TOPSECRET-[12]/);
    for (const name of ["secret.txt", "hard.txt", "copy.pem", "key.pem"]) expect(fenced.modelText).not.toContain(name);

    // Yuj's glob refuses an unscoped `**`: its levels one by one.
    const globs = surface === "yuj" ? ["*", "src/*", "secrets/*"].map((pattern) => ({ pattern })) : [{ patterns: ["**/*"] }];
    const glob = async (rules: Rule[] | undefined) => (await Promise.all(globs.map((a) => run(surface, cwd, rules, "glob", a)))).map((o) => o.modelText).join("\n");
    const listed = await glob(undefined);
    for (const name of ["link.txt", "hard.txt", "copy.pem", "secrets/key.pem"]) expect(listed).toContain(name);
    const hidden = await glob(RULES);
    expect(hidden).toContain("src/open.txt");
    for (const name of ["secret.txt", "link.txt", "deep-link.txt", "hard.txt", "key.pem", "copy.pem"]) expect(hidden).not.toContain(name);
  });
});

describe("an absolute rule pattern inside the project", () => {
  it("meets the file by its relative name", async () => {
    const cwd = project();
    const out = await run("yuj", cwd, [{ tool: "read", pattern: `${cwd}/secret.txt`, action: "deny" }], "read", { path: "link.txt" });
    expect(out.modelText).toMatch(/permission denied/);
  });
});
