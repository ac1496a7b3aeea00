// With bash_redirect_read_side, a plain file display elsewhere on a line
// that holds a command substitution is still routed to read: the
// substitution makes only its own command unknown. A display whose own
// words hold one stays in the shell.

import { afterEach, beforeEach, expect, it } from "vitest";
import { guardedSession, type GuardedSession } from "../guards/session.js";

let s: GuardedSession;
beforeEach(async () => {
  s = await guardedSession((c) => {
    c.tools.bash_redirect_read_side = true;
  });
  await s.put({ "src/app.py": "needle\n", "file.py": "a|b\n" });
});
afterEach(() => s.cleanup());

it("a cat after an echo of a substitution is routed, naming only its fragment", async () => {
  const r = await s.call("bash", { cmd: "echo $(printf 'a;b|c'); cat file.py" });
  expect(r.ok).toBe(false);
  expect(r.modelText).toBe(
    'ERROR: shell_routed: use the read tool for `cat file.py` (simple file display); it returns paged, structured results; run the rest of the line on its own. Try: read {"path":"file.py"}',
  );
});

it("a display whose own words hold a substitution runs in the shell", async () => {
  const r = await s.call("bash", { cmd: "cat $(echo file.py)" });
  expect(r).toMatchObject({ ok: true, modelText: "a|b" });
});

it("a subshell still keeps the whole line in the shell", async () => {
  const r = await s.call("bash", { cmd: "(printf x | wc -l); cat file.py" });
  expect(r).toMatchObject({ ok: true, modelText: "0\na|b" });
});
