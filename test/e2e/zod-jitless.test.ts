// zod compiles a parser (a function built from a string) for an object
// schema on its first parse unless told not to; yuj tells it not to, and
// every schema must hear it: the config's and the profile's are created as
// their modules load, before most of yuj runs. A preload counts every
// function built from a string during a whole headless run of the built
// yuj (config, profile, tool arguments, a command, the answer).

import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { yujBin } from "../support/cli.js";
import { scriptedProject } from "../support/durable-session.js";

const COUNTER = `
let n = 0;
const Real = Function;
globalThis.Function = new Proxy(Real, {
  construct: (t, args, nt) => (n++, Reflect.construct(t, args, nt)),
  apply: (t, self, args) => (n++, Reflect.apply(t, self, args)),
});
process.on("exit", () => process.stderr.write("functions built from strings: " + n + "\\n"));
`;

it("a headless run builds no function from a string (zod's parsers are not compiled)", async () => {
  const preload = join(mkdtempSync(join(tmpdir(), "yuj-fn-count-")), "count.mjs");
  writeFileSync(preload, COUNTER);
  const p = scriptedProject([
    { tool_calls: [{ name: "bash", arguments: { cmd: "echo hi" } }] },
    { tool_calls: [{ name: "done", arguments: { message: "finished" } }] },
  ]);
  const stderr = await new Promise<string>((resolve, reject) =>
    execFile(process.execPath, ["--import", preload, yujBin, "code", "say hi", ...p.flags], { cwd: p.cwd, env: p.env }, (err, _out, err2) =>
      err ? reject(new Error(`${err.message}\n${err2}`)) : resolve(err2),
    ),
  );
  expect(stderr).toContain("functions built from strings: 0\n");
}, 60_000);
