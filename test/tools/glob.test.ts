import * as fsp from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Config } from "../../core/config/schema.js";
import { globTool } from "../../tools/yuj/glob.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
  await t.put({
    "README.md": "",
    ".env": "",
    "src/a.ts": "",
    "src/b.ts": "",
    "src/util/c.ts": "",
    "src/util/d.js": "",
    "src/.hidden/e.ts": "",
    "lib/x.ts": "",
    ".git/config": "",
    ".git/hooks/h.ts": "",
  });
});
afterEach(() => t.cleanup());

const glob = (args: { pattern: string; path?: string; page?: number }) => globTool.run(args, t.ctx);
const reconfigure = (adjust: (c: Config) => void) => adjust(t.ctx.config);

// An empty page keeps an empty body line, as the reference writes it; a hint-only refusal does not.
const envelope = (attrs: string, lines: string[]) =>
  `<search_result tool="glob" ${attrs}>\n${lines.length ? `${lines.join("\n")}\n` : attrs.includes("hint=") ? "" : "\n"}</search_result>`;

describe("glob", () => {
  it("matches within one directory with *", async () => {
    const r = await glob({ pattern: "*.ts", path: "src" });
    expect(r).toMatchObject({
      ok: true,
      modelText: envelope('total="2" shown="2" page="1" next_page="0" pattern="*.ts" scope="src"', [
        "src/a.ts",
        "src/b.ts",
      ]),
    });
  });

  it("recurses with ** (zero or more directories), includes dotfiles, skips .git, files only", async () => {
    const r = await glob({ pattern: "**/*.ts", path: "src" });
    expect(r.modelText).toBe(
      envelope('total="4" shown="4" page="1" next_page="0" pattern="**/*.ts" scope="src"', [
        "src/.hidden/e.ts",
        "src/a.ts",
        "src/b.ts",
        "src/util/c.ts",
      ]),
    );
    const all = await glob({ pattern: "*/**", path: "." });
    expect(all.modelText).not.toContain(".git/");
    expect(all.modelText).toContain("src/util/d.js");
    expect((await glob({ pattern: "src" })).modelText).toContain('total="0"');
  });

  it("matches dotfiles with * and prints paths relative to cwd, sorted", async () => {
    const r = await glob({ pattern: "*" });
    expect(r.modelText).toBe(
      envelope('total="2" shown="2" page="1" next_page="0" pattern="*" scope="."', [".env", "README.md"]),
    );
  });

  it("accepts a path pattern and a leading ./", async () => {
    expect((await glob({ pattern: "./src/util/*.ts" })).modelText).toContain("\nsrc/util/c.ts\n");
    expect((await glob({ pattern: "src/*/c.ts" })).modelText).toContain("\nsrc/util/c.ts\n");
    expect((await glob({ pattern: "src/**/c.ts" })).modelText).toContain('total="1"');
    expect((await glob({ pattern: "**.md" })).modelText).toContain("\nREADME.md\n");
  });

  it("expands a brace list and treats malformed brackets without error", async () => {
    expect((await glob({ pattern: "*.{ts,js}", path: "src" })).modelText).toContain('total="2"');
    const r = await glob({ pattern: "[abc", path: "src" });
    expect(r.ok).toBe(true);
    expect(r.modelText).toContain('total="0"');
  });

  it("pages results with next_page", async () => {
    reconfigure((c) => {
      c.tools.glob_max_matches_per_page = 2;
    });
    const p1 = await glob({ pattern: "**/*", path: "src" });
    expect(p1.modelText).toBe(
      envelope('total="5" shown="2" page="1" next_page="2" pattern="**/*" scope="src"', [
        "src/.hidden/e.ts",
        "src/a.ts",
      ]),
    );
    const p3 = await glob({ pattern: "**/*", path: "src", page: 3 });
    expect(p3.modelText).toBe(
      envelope('total="5" shown="1" page="3" next_page="0" pattern="**/*" scope="src"', ["src/util/d.js"]),
    );
    const p0 = await glob({ pattern: "**/*", path: "src", page: 0 });
    expect(p0.modelText).toContain('page="1" next_page="2"');
    const past = await glob({ pattern: "**/*", path: "src", page: 9 });
    expect(past.modelText).toBe(envelope('total="5" shown="0" page="9" next_page="0" pattern="**/*" scope="src"', []));
  });

  it("answers an unscoped recursive glob one page at a time, with a hint to narrow it", async () => {
    const hint = "unscoped recursive glob; provide a path scope (e.g. src/) or narrow the pattern.";
    const all = ["lib/x.ts", "src/.hidden/e.ts", "src/a.ts", "src/b.ts", "src/util/c.ts"];
    for (const scope of [undefined, ".", "./", ""]) {
      const r = await glob(scope === undefined ? { pattern: "**/*.ts" } : { pattern: "**/*.ts", path: scope });
      expect(r.ok).toBe(true);
      expect(r.modelText).toBe(
        envelope(`total="5" shown="5" page="1" next_page="0" pattern="**/*.ts" scope="${scope ?? "."}" hint="${hint}"`, all),
      );
    }
    reconfigure((c) => {
      c.tools.glob_refuse_unscoped_recursive = false;
    });
    expect((await glob({ pattern: "**/*.ts" })).modelText).toBe(
      envelope('total="5" shown="5" page="1" next_page="0" pattern="**/*.ts" scope="."', all),
    );
  });

  it("refuses a too-broad first page but serves page 2+", async () => {
    reconfigure((c) => {
      c.tools.glob_max_listed_paths = 3;
      c.tools.glob_max_matches_per_page = 2;
    });
    const hint = "pattern too broad — narrow the scope or use page=2+ for the existing per-page slice.";
    expect((await glob({ pattern: "**/*", path: "src" })).modelText).toBe(
      envelope(`total="5" shown="0" page="1" next_page="0" pattern="**/*" scope="src" hint="${hint}"`, []),
    );
    expect((await glob({ pattern: "**/*", path: "src", page: 2 })).modelText).toContain('shown="2" page="2"');
    reconfigure((c) => {
      c.tools.glob_max_listed_paths = 0;
    });
    expect((await glob({ pattern: "**/*", path: "src" })).modelText).toContain('shown="2" page="1"');
  });

  it("rejects empty and absolute patterns", async () => {
    expect(await glob({ pattern: "" })).toMatchObject({ ok: false, modelText: "ERROR: glob pattern must be a non-empty string" });
    expect(await glob({ pattern: "/etc/*" })).toMatchObject({
      ok: false,
      modelText: "ERROR: glob pattern must be relative (got '/etc/*'); use the `path` argument for the search scope",
    });
  });

  it("escapes attribute values", async () => {
    await t.put({ "q/it's.txt": "" });
    const r = await glob({ pattern: "it's*&<>\"", path: "q" });
    expect(r.modelText).toContain('pattern="it&apos;s*&amp;&lt;&gt;&quot;"');
  });

  it("prints a plain list without pagination", async () => {
    reconfigure((c) => {
      c.tools.search_pagination_enabled = false;
    });
    expect((await glob({ pattern: "*.ts", path: "src" })).modelText).toBe("src/a.ts\nsrc/b.ts");
    expect((await glob({ pattern: "*.none", path: "src" })).modelText).toBe("No files found.");
  });

  it("keeps the scope inside cwd and counts symlinked files as files", async () => {
    expect((await glob({ pattern: "*", path: "../" })).modelText).toBe("ERROR: path escapes cwd: ../");
    await fsp.symlink("a.ts", path.join(t.cwd, "src", "link.ts"));
    expect((await glob({ pattern: "*.ts", path: "src" })).modelText).toContain("\nsrc/link.ts\n");
  });
});
