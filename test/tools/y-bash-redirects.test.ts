// Yuj bash's redirect rules against the cases the reference pins, through the
// real dispatcher, on real files: each family goes to its tool (write, edit,
// read, grep, glob) with the refusal naming it; counts, file listings and
// stdin pipe stages stay shell; a rule is inert when its tool is inactive;
// the read side only with bash_redirect_read_side; leaving the repository
// with cd is refused, scratch use of /tmp is not.

import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";
import { yujCall } from "../support/yuj-call.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext((c) => {
    c.tools.bash_redirect_read_side = true;
  });
  await t.put({ "src/app.py": "needle = 1\nother = 2\n", "src.py": "print('src')\n" });
});
afterEach(async () => {
  await t.cleanup();
});

const bash = (cmd: string, tools?: string[]) => {
  if (tools) t.ctx.activeTools = new Set(tools);
  return yujCall(t, "bash", { cmd });
};
const text = (rel: string) => fs.readFileSync(path.join(t.cwd, rel), "utf8");

const EDIT_WHY = "a pattern edit can silently change the wrong lines or none; edit reports when the text is not found";

describe("the reference's families, each to its tool", () => {
  it.each([
    ["echo value > out.txt", "write", "writing out.txt with a shell redirect"],
    ["cat <<EOF > out.txt\nvalue\nEOF", "write", "writing out.txt with cat"],
    ["sed -i 's/a/b/' src.py", "edit", "in-place edit with sed -i"],
  ])("%j is refused before it runs, naming %s", async (cmd, tool, what) => {
    const r = await bash(cmd);
    const why = tool === "edit" ? EDIT_WHY : "shell quoting can mangle file contents; write stores them exactly";
    expect(r).toEqual({ ok: false, text: `ERROR: shell_refused: ${what} — use the ${tool} tool instead (${why}).` });
    expect(fs.existsSync(path.join(t.cwd, "out.txt"))).toBe(false);
    expect(text("src.py")).toBe("print('src')\n");
  });

  it.each([
    ["cat src.py", "read", 'read {"path":"src.py"}'],
    ["rg needle src", "grep", 'grep {"pattern":"needle","path":"src"}'],
    ["find src -name '*.py'", "glob", 'glob {"pattern":"**/*.py","path":"src"}'],
  ])("%j is routed to %s with the call to make", async (cmd, tool, call) => {
    const reason = { read: "simple file display", grep: "text search over files", glob: "path discovery" }[tool];
    expect(await bash(cmd)).toEqual({
      ok: false,
      text: `ERROR: shell_routed: use the ${tool} tool for this (${reason}); it returns paged, structured results. Try: ${call}`,
    });
  });
});

describe("in-place editors beyond sed", () => {
  it.each(["awk -i inplace '{print toupper($0)}' src.py", "gawk -i inplace '{print}' src.py", "awk --include=inplace '{print}' src.py"])(
    "%j goes to edit and leaves the file as it was",
    async (cmd) => {
      const verb = cmd.split(" ")[0];
      expect(await bash(cmd)).toEqual({ ok: false, text: `ERROR: shell_refused: in-place edit with ${verb} -i inplace — use the edit tool instead (${EDIT_WHY}).` });
      expect(text("src.py")).toBe("print('src')\n");
    },
  );

  it("an awk that only prints stays shell", async () => {
    expect(await bash("awk '{print $1}' src/app.py")).toEqual({ ok: true, text: "needle\nother" });
  });

  it("with edit inactive the in-place editor runs (the rule is inert)", async () => {
    const r = await bash("sed -i 's/src/SRC/' src.py", ["bash", "read"]);
    expect(r).toEqual({ ok: true, text: "(command produced no output)" });
    expect(text("src.py")).toBe("print('SRC')\n");
  });
});

describe("the other search and discovery programs the reference names", () => {
  it.each([
    ["ack needle src", 'grep {"pattern":"needle","path":"src"}'],
    ["ack -i -w Needle src/app.py", 'grep {"pattern":"(?i)\\\\b(?:Needle)\\\\b","path":"src/app.py"}'],
    ["ack -Q 'a.b' src", 'grep {"pattern":"a\\\\.b","path":"src"}'],
  ])("%j goes to grep", async (cmd, call) => {
    const r = await bash(cmd);
    expect(r.ok).toBe(false);
    expect(r.text).toBe(`ERROR: shell_routed: use the grep tool for this (text search over files); it returns paged, structured results. Try: ${call}`);
  });

  it.each([
    ["fd -e py . src", 'glob {"pattern":"**/*.py","path":"src"}'],
    ["fd -g '*.py' src", 'glob {"pattern":"**/*.py","path":"src"}'],
    ["fdfind App src", 'glob {"pattern":"**/*App*","path":"src"}'],
    ["fd -d 1 -e py . src", 'glob {"pattern":"*.py","path":"src"}'],
  ])("%j goes to glob with the call to make", async (cmd, call) => {
    expect((await bash(cmd)).text).toBe(`ERROR: shell_routed: use the glob tool for this (path discovery); it returns paged, structured results. Try: ${call}`);
  });

  it("an fd whose pattern no one glob states is routed by name only, with its scope", async () => {
    // fd's lowercase pattern is case-insensitive and a regex: glob is named, no call is guessed.
    expect((await bash("fd app src")).text).toBe("ERROR: shell_routed: use the glob tool for this (path discovery); it returns paged, structured results.");
  });

  it.each(["ack -c needle src", "ack -l needle src", "fd", "fd -x rm"])("%j stays shell (a count, a listing, an unscoped walk, an action)", async (cmd) => {
    expect((await bash(cmd)).text).not.toContain("shell_routed");
  });
});

describe("counts and stdin pipe stages stay shell", () => {
  it.each([
    ["grep -c needle src/app.py", "1"],
    ["cat src/app.py | wc -l", "2"],
    ["cat src/app.py | grep -c needle", "1"],
    ["printf 'needle' | grep needle", "needle"],
    ["rg -l needle src/app.py", "src/app.py"],
    ["grep -q needle src/app.py && echo found", "found"],
  ])("%j runs and prints %j", async (cmd, out) => {
    expect(await bash(cmd)).toEqual({ ok: true, text: out });
  });

  it("a display piped into a line filter is still a read", async () => {
    expect((await bash("cat src/app.py | grep needle")).text).toBe(
      "ERROR: shell_routed: use the read tool for `cat src/app.py` (simple file display); it returns paged, structured results; " +
        'run the rest of the line on its own. Try: read {"path":"src/app.py"}',
    );
  });

  it("a quoted operator does not split the search: the whole command goes to grep", async () => {
    expect((await bash("grep 'left|right && center' src/app.py")).text).toMatch(/^ERROR: shell_routed: use the grep tool for this \(/);
  });
});

describe("rules are inert when their tool is not active", () => {
  it("a find runs when glob is off, a cat when read is off, a redirect when write is off", async () => {
    expect(await bash("find src -name '*.py'", ["bash", "read", "grep"])).toEqual({ ok: true, text: "src/app.py" });
    expect(await bash("cat src.py", ["bash"])).toEqual({ ok: true, text: "print('src')" });
    expect(await bash("echo value > out.txt", ["bash", "read"])).toEqual({ ok: true, text: "(command produced no output)" });
    expect(text("out.txt")).toBe("value\n");
  });

  it("the read side is off unless bash_redirect_read_side is set; the write side is not", async () => {
    t.ctx.config.tools.bash_redirect_read_side = false;
    expect(await bash("cat src.py")).toEqual({ ok: true, text: "print('src')" });
    expect((await bash("sed -i 's/a/b/' src.py")).text).toMatch(/^ERROR: shell_refused: in-place edit with sed -i — use the edit tool instead/);
  });
});

describe("leaving the repository", () => {
  it.each(["cd / && python3 -c 'print(1)'", "cd /home/example/work && ls"])("%j is refused with the way back", async (cmd) => {
    const target = cmd.split(" ")[1];
    expect(await bash(cmd)).toEqual({
      ok: false,
      text: `ERROR: shell_refused: cd ${target} leaves the repository — drop the cd and use repository-relative paths instead (commands already run in the repository root).`,
    });
  });

  it("scratch work under /tmp and ordinary commands run", async () => {
    const dir = `y-bash-${process.pid}-${Date.now()}`;
    expect(await bash(`cd /tmp && mkdir ${dir} && rmdir ${dir} && echo ok`)).toEqual({ ok: true, text: "ok" });
    expect(await bash("python3 -c 'print(1+1)'")).toEqual({ ok: true, text: "2" });
    expect(await bash("python3 << EOF\nx = 1 + 1\nprint(x)\nEOF")).toEqual({ ok: true, text: "2" });
  });

  it("a pipeline's failure is the command's failure (pipefail)", async () => {
    expect(await bash("false | true")).toEqual({ ok: false, text: "[exit code: 1]" });
  });
});
