// Yuj bash sending work to the dedicated tools, over real files and real
// commands: a file authored with a redirect goes to write, reads inside a
// compound line go to read/grep/glob (with read-side routing on), and a
// find sent to glob comes with a call glob itself accepts.

import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ToolHandler } from "../../core/tool-types.js";
import { bashTool } from "../../tools/yuj/bash.js";
import { globTool } from "../../tools/yuj/glob.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext((c) => {
    c.tools.bash_redirect_read_side = true;
  });
  await t.put({ "src/app.py": "print('app')\n", "src/lib/util.py": "x = 1\n", "README.md": "# r\n" });
});
afterEach(async () => {
  await t.cleanup();
});

const call = <S extends ToolHandler>(tool: S, args: Record<string, unknown>) => tool.run(tool.schema.parse(args), t.ctx);
const exists = (rel: string) => fs.existsSync(path.join(t.cwd, rel));

describe("Yuj bash: writes go to the write tool", () => {
  it.each([
    ["echo value > out.txt", "out.txt"],
    ["echo more >> out.txt", "out.txt"],
    ["cat <<EOF > out.txt\nvalue\nEOF", "out.txt"],
  ])("refuses %j before it runs, naming write", async (cmd, file) => {
    const r = await call(bashTool, { cmd });
    expect(r.ok).toBe(false);
    expect(r.modelText).toMatch(new RegExp(`^ERROR: shell_refused: writing ${file} with .* — use the write tool instead`));
    expect(exists(file)).toBe(false);
  });

  it("still saves a program's output to a log", async () => {
    const r = await call(bashTool, { cmd: "ls src > listing.log" });
    expect(r.ok).toBe(true);
    expect(fs.readFileSync(path.join(t.cwd, "listing.log"), "utf8")).toBe("app.py\nlib\n");
  });
});

describe("Yuj bash: reads inside a compound line", () => {
  it("routes the read after a list operator, and runs none of the line", async () => {
    const r = await call(bashTool, { cmd: "touch ran.txt; LC_ALL=C cat src/app.py" });
    expect(r).toEqual({
      ok: false,
      modelText:
        "ERROR: shell_routed: use the read tool for `LC_ALL=C cat src/app.py` (simple file display); it returns paged, structured results; " +
        'run the rest of the line on its own. Try: read {"path":"src/app.py"}',
    });
    expect(exists("ran.txt")).toBe(false);
  });

  it("routes a display piped into a line filter, keeps a count in the shell", async () => {
    expect((await call(bashTool, { cmd: "cat src/app.py | grep app" })).modelText).toContain("use the read tool for `cat src/app.py`");
    expect(await call(bashTool, { cmd: "cat src/app.py | wc -l" })).toMatchObject({ ok: true, modelText: "1" });
  });
});

describe("Yuj bash: a find routed to glob", () => {
  it("suggests a glob call that glob accepts and that finds the same files", async () => {
    const r = await call(bashTool, { cmd: "find src -name '*.py'" });
    const suggested = /Try: glob (\{.*\})$/.exec(r.modelText)?.[1];
    expect(suggested).toBe('{"pattern":"**/*.py","path":"src"}');
    const listed = await call(globTool, JSON.parse(suggested!) as Record<string, unknown>);
    expect(listed.ok).toBe(true);
    expect(listed.modelText).toContain("src/app.py\nsrc/lib/util.py");
  });

  it("keeps a whole-project find in the shell, since glob answers an unscoped recursive pattern with a hint to narrow it", async () => {
    const refused = await call(globTool, { pattern: "**/*.py" });
    expect(refused.modelText).toContain("unscoped recursive glob");
    const r = await call(bashTool, { cmd: "find . -name '*.py' | sort" });
    expect(r).toMatchObject({ ok: true, modelText: "./src/app.py\n./src/lib/util.py" });
    const plain = await call(bashTool, { cmd: "find . -name '*.py'" });
    expect(plain.ok).toBe(true);
    expect(plain.modelText.split("\n").sort()).toEqual(["./src/app.py", "./src/lib/util.py"]);
  });
});
