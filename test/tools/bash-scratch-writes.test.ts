// Yuj bash's write-side rules name write or edit, which write only inside
// the project; a shell write whose target lies outside it (a scratch file
// under the temp folder, a sibling folder) is not theirs to take, so it runs,
// as the reference treats such a write as no project write. A target inside
// the project is refused as before, also next to an outside one.

import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";
import { yujCall } from "../support/yuj-call.js";

let t: TestToolContext;
let scratch: string;
beforeEach(async () => {
  t = await makeToolContext();
  await t.put({ "src.py": "print('src')\n" });
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), "yuj-scratch-"));
  fs.writeFileSync(path.join(scratch, "f.py"), "a = 1\n");
});
afterEach(async () => {
  await t.cleanup();
  fs.rmSync(scratch, { recursive: true, force: true });
});

const bash = (cmd: string) => yujCall(t, "bash", { cmd });
const WRITE_WHY = "shell quoting can mangle file contents; write stores them exactly";
const EDIT_WHY = "a pattern edit can silently change the wrong lines or none; edit reports when the text is not found";

describe("shell writes outside the project run", () => {
  it("cat, echo, tee and sed -i on scratch files outside the project", async () => {
    const f = (name: string) => path.join(scratch, name);
    expect(await bash(`cat > ${f("x.py")} <<'EOF'\nx = 1\nEOF\necho ok`)).toEqual({ ok: true, text: "ok" });
    expect(fs.readFileSync(f("x.py"), "utf8")).toBe("x = 1\n");
    expect(await bash(`echo value > ${f("s.txt")} && cat ${f("s.txt")}`)).toEqual({ ok: true, text: "value" });
    expect(await bash(`printf 'y = 2\\n' | tee ${f("t.py")} > /dev/null; echo ok`)).toEqual({ ok: true, text: "ok" });
    expect(fs.readFileSync(f("t.py"), "utf8")).toBe("y = 2\n");
    expect(await bash(`sed -i 's/a = 1/a = 2/' ${f("f.py")} && echo ok`)).toEqual({ ok: true, text: "ok" });
    expect(fs.readFileSync(f("f.py"), "utf8")).toBe("a = 2\n");
  });

  it("a target inside the project is still refused, also beside an outside one", async () => {
    expect(await bash(`echo value > ${path.join(scratch, "s.txt")}; echo value > out.txt`)).toEqual({
      ok: false,
      text: `ERROR: shell_refused: writing out.txt with a shell redirect — use the write tool instead (${WRITE_WHY}).`,
    });
    expect(await bash(`sed -i 's/a/b/' ${path.join(scratch, "f.py")} src.py`)).toEqual({
      ok: false,
      text: `ERROR: shell_refused: in-place edit with sed -i — use the edit tool instead (${EDIT_WHY}).`,
    });
    expect(await bash(`cat > ${path.join(t.cwd, "new.py")} <<'EOF'\nz\nEOF`)).toEqual({
      ok: false,
      text: `ERROR: shell_refused: writing ${path.join(t.cwd, "new.py")} with cat — use the write tool instead (${WRITE_WHY}).`,
    });
    expect(fs.existsSync(path.join(scratch, "s.txt"))).toBe(false);
    expect(fs.existsSync(path.join(t.cwd, "out.txt"))).toBe(false);
    expect(fs.readFileSync(path.join(t.cwd, "src.py"), "utf8")).toBe("print('src')\n");
    expect(fs.readFileSync(path.join(scratch, "f.py"), "utf8")).toBe("a = 1\n");
  });

  it("a relative path that climbs out of the project is outside too", async () => {
    const sibling = path.relative(t.cwd, path.join(scratch, "up.txt"));
    expect(await bash(`echo up > ${sibling} && cat ${sibling}`)).toEqual({ ok: true, text: "up" });
  });
});
