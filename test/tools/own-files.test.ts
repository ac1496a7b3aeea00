// No file tool of either surface writes or deletes yuj's own files: the
// project's `.yuj/` (its config), the user's config directory (config.toml,
// trusted.toml) and the state directory (sessions, locks). The project here
// is the user's home, as when yuj is started in $HOME, so every one of them
// lies inside it; each is attacked by plain path, through a symlink, through
// `..`, and in another case. Afterwards every byte is as it was.

import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ownDirs } from "../../core/paths.js";
import { nodeServices } from "../../core/services.js";
import type { ToolHandler } from "../../core/tool-types.js";
import { builtinHandlers } from "../../tools/registry.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

const handlers = builtinHandlers();
const tool = (id: string): ToolHandler => handlers.get(id)!;

const SESSION = ".local/state/yuj/sessions/20260101-000000-aaaaaa";
const FILES: Record<string, string> = {
  ".config/yuj/config.toml": "# mine\n",
  ".config/yuj/trusted.toml": "# mine\n",
  [`${SESSION}/state.json`]: "# mine\n",
  [`${SESSION}/lock.pid`]: "# mine\n",
  ".yuj/config.toml": "# mine\n",
  "src/a.txt": "# mine\n",
};

/** Every path a call names, for each of yuj's own files: direct, through a link, through `..`, another case. */
const TARGETS = [
  ".config/yuj/config.toml",
  ".config/yuj/trusted.toml",
  `${SESSION}/state.json`,
  `${SESSION}/lock.pid`,
  ".local/state/yuj/new-file.txt",
  ".yuj/config.toml",
  ".yuj/other.toml",
  ".YUJ/config.toml",
  "cfglink/config.toml",
  "statelink/sessions/20260101-000000-aaaaaa/state.json",
  "src/../.config/yuj/config.toml",
];

const patchUpdate = (p: string) => `*** Begin Patch\n*** Update File: ${p}\n@@\n-# mine\n+# yours\n*** End Patch`;
const udiff = (p: string) => `--- a/${p}\n+++ b/${p}\n@@ -1 +1 @@\n-# mine\n+# yours\n`;

/** Each write and delete a file tool can do, aimed at `p`. */
function attacks(p: string): Array<[string, Record<string, unknown>]> {
  return [
    ["write", { path: p, content: "# yours\n" }],
    ["edit", { path: p, old_str: "# mine", new_str: "# yours" }],
    ["apply_patch", { patch: patchUpdate(p) }],
    ["apply_patch", { patch: `*** Begin Patch\n*** Delete File: ${p}\n*** End Patch` }],
    ["apply_patch", { patch: `*** Begin Patch\n*** Add File: ${p}\n+# yours\n*** End Patch` }],
    ["udiff", { patch: udiff(p) }],
    ["notebook_edit", { path: p, old_source: "", new_source: "x", cell_index: 0 }],
    ["structural_edit", { path: p, language: "python", query: "(comment) @match", replacement: "# yours", expected_sha256: "0".repeat(64) }],
    ["chord_write", { path: p, content: "# yours\n" }],
    ["chord_edit", { path: p, old_string: "# mine", new_string: "# yours" }],
    ["chord_delete", { paths: [p], reason: "test" }],
    ["chord_apply_patch", { patch: patchUpdate(p) }],
    ["chord_apply_patch", { patch: `*** Begin Patch\n*** Delete File: ${p}\n*** End Patch` }],
    ["chord_apply_patch", { patch: `*** Begin Patch\n*** Update File: src/a.txt\n*** Move to: ${p}\n@@\n-# mine\n+# yours\n*** End Patch` }],
  ];
}

/** sha256 of every file under `dir`, by relative path; links are listed as links. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      const rel = path.relative(dir, p);
      if (e.isSymbolicLink()) out[rel] = `link:${fs.readlinkSync(p)}`;
      else if (e.isDirectory()) walk(p);
      else out[rel] = createHash("sha256").update(fs.readFileSync(p)).digest("hex");
    }
  };
  walk(dir);
  return out;
}

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
  await t.put(FILES);
  fs.symlinkSync(".config/yuj", path.join(t.cwd, "cfglink"));
  fs.symlinkSync(".local/state/yuj", path.join(t.cwd, "statelink"));
  // yuj started in $HOME: its own directories lie inside the project.
  t.ctx.services = nodeServices(undefined, ownDirs({ HOME: t.cwd }));
});
afterEach(() => t.cleanup());

const run = (id: string, args: Record<string, unknown>) => tool(id).run(tool(id).schema.parse(args), { ...t.ctx, callId: `c${Math.random()}` });

describe("file tools and yuj's own files", () => {
  it("every write and delete of either surface is refused, naming why, and nothing changes", async () => {
    const before = snapshot(t.cwd);
    for (const target of TARGETS) {
      for (const [id, args] of attacks(target)) {
        const r = await run(id, args);
        const where = `${id} ${JSON.stringify(args)}`;
        expect(r.ok, `${where} -> ${r.modelText}`).toBe(false);
        expect(r.modelText, where).toMatch(/the project's yuj config: file tools do not write or delete it|file tools never write or delete yuj's own files/);
      }
    }
    expect(snapshot(t.cwd)).toEqual(before);
  });

  it("names the directory and what it holds, and leaves the rest of the project writable and .yuj readable", async () => {
    const r = await run("write", { path: ".config/yuj/trusted.toml", content: "" });
    expect(r.modelText).toBe(
      `ERROR: .config/yuj/trusted.toml is in ${path.join(t.cwd, ".config/yuj")}, which holds yuj's user config and the list of trusted projects: ` +
        "file tools never write or delete yuj's own files",
    );
    const y = await run("chord_write", { path: ".yuj/config.toml", content: "" });
    expect(y.modelText).toMatch(/^\.yuj\/config\.toml is in \.yuj\/, the project's yuj config/);
    expect((await run("write", { path: "src/b.txt", content: "fine\n" })).ok).toBe(true);
    expect(fs.readFileSync(path.join(t.cwd, "src/b.txt"), "utf8")).toBe("fine\n");
    expect((await run("read", { path: ".yuj/config.toml" })).modelText).toContain("# mine");
  });

  it("follows the XDG directories wherever they point, inside the project or not", async () => {
    const elsewhere = fs.mkdtempSync(path.join(t.cwd, "..", "yuj-xdg-"));
    try {
      fs.mkdirSync(path.join(t.cwd, "xdg/state/yuj"), { recursive: true });
      fs.writeFileSync(path.join(t.cwd, "xdg/state/yuj/x.json"), "# mine\n");
      t.ctx.services = nodeServices(undefined, ownDirs({ HOME: elsewhere, XDG_STATE_HOME: path.join(t.cwd, "xdg/state") }));
      expect((await run("write", { path: "xdg/state/yuj/x.json", content: "" })).modelText).toMatch(/which holds yuj's sessions and their locks/);
      // With HOME elsewhere, the home-like folders in the project are ordinary files.
      expect((await run("write", { path: ".config/yuj/config.toml", content: "# yours\n" })).ok).toBe(true);
    } finally {
      fs.rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});
