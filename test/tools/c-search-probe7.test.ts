import { afterEach, beforeEach, it } from "vitest";
import { chordCall } from "../support/chord-call.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";
let t: TestToolContext;
beforeEach(async () => { t = await makeToolContext(); });
afterEach(() => t.cleanup());
const show = (n: string, r: { ok: boolean; text: string }) => { const x = r.text; console.log(`=== ${n} ok=${r.ok} len=${x.length}\n${JSON.stringify(x.length > 1500 ? x.slice(0, 400) + " ... " + x.slice(x.length/2 - 300, x.length/2 + 300) + " ... " + x.slice(-500) : x)}\n`); };
it("shell trunc", async () => {
  show("3000 lines", await chordCall(t, "shell", { command: "for i in $(seq 0 2999); do printf 'line-%04d\\n' $i; done" }));
  show("long line", await chordCall(t, "shell", { command: "head -c 2500 /dev/zero | tr '\\0' a" }));
  show("padded", await chordCall(t, "shell", { command: "python3 -c \"import sys\nfor i in range(100): print(('line-%04d:' % i).ljust(600,'x'))\"" }));
  show("empty", await chordCall(t, "shell", { command: "true" }));
});
