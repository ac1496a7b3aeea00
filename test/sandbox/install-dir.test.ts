// yuj installed under /tmp (a CI clone, an unpacked tarball): the sandbox's
// fresh /tmp would hide the language servers and test runners yuj starts
// from its own node_modules. Its installation stays readable inside, and
// read-only. Real bwrap.

import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { configSchema } from "../../core/config/schema.js";
import { createSandbox } from "../../core/sandbox/index.js";
import { cleanupAll, noBwrap } from "./support.js";

afterEach(cleanupAll);

const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function dirIn(parent: string, prefix: string): string {
  const d = fs.mkdtempSync(path.join(parent, prefix));
  made.push(d);
  return d;
}

describe.skipIf(noBwrap)("yuj's own installation inside the sandbox", () => {
  it("runs a program from an installation under /tmp, and cannot change it", () => {
    const install = dirIn("/tmp", "yuj-install-");
    const tool = path.join(install, "node_modules", ".bin", "server");
    fs.mkdirSync(path.dirname(tool), { recursive: true });
    fs.writeFileSync(tool, "#!/bin/sh\necho server ran\n", { mode: 0o755 });
    const project = dirIn(os.homedir(), "yuj-project-");
    const config = configSchema.parse({ sandbox: { mode: "on" } });
    const run = (installDir: string | undefined, argv: string[]) => {
      const sandbox = createSandbox(config, process.env, { projectDir: project, ...(installDir ? { installDir } : {}) });
      const wrapped = sandbox.wrapArgv(argv, project, process.env);
      if ("error" in wrapped) throw new Error(wrapped.error);
      return spawnSync(wrapped.file, wrapped.args, { env: wrapped.env as NodeJS.ProcessEnv, encoding: "utf8" });
    };
    // Without it, the fresh /tmp hides the program: what the language servers met.
    expect(run(undefined, [tool]).status).not.toBe(0);
    const ran = run(install, [tool]);
    expect(ran.stdout).toBe("server ran\n");
    const write = run(install, ["sh", "-c", `echo x > ${path.join(install, "planted")}`]);
    expect(write.status).not.toBe(0);
    expect(fs.existsSync(path.join(install, "planted"))).toBe(false);
  });
});
