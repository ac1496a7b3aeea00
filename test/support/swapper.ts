// A hostile process for the race tests: a real child that, in a tight loop,
// swaps a path of the project for a symbolic link to somewhere outside and
// back, while the test calls file tools on that path. And an outside folder
// whose files the tests then check were neither changed nor shown.

import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as fsp from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";

// Runs in the child: `rel` (a folder or the file itself) is moved aside to
// `rel.real` and a link to `target` (outside) takes its place, then back. Each state holds for a short spin so both are met
// often; every step tolerates what the tool did meanwhile (a file deleted,
// a folder re-created) and the loop goes on.
const SWAPPER = `
const fs = require("fs");
const [proj, rel, target] = process.argv.slice(1);
const p = proj + "/" + rel, aside = p + ".real";
const spin = (n) => { const end = process.hrtime.bigint() + BigInt(Math.floor(n)); while (process.hrtime.bigint() < end) {} };
const t = (f) => { try { f(); } catch {} };
process.stdout.write("ready\\n");
for (;;) {
  t(() => fs.renameSync(p, aside));
  t(() => fs.symlinkSync(target, p));
  spin(40000 + Math.random() * 200000);
  t(() => { if (fs.lstatSync(p).isSymbolicLink()) fs.unlinkSync(p); });
  t(() => { if (!fs.existsSync(p)) fs.renameSync(aside, p); });
  spin(40000 + Math.random() * 200000);
}
`;

export interface Swapper {
  /** Stops it and puts the project back; false when it had died on its own (the race never ran). */
  stop(): Promise<boolean>;
}

/** Starts swapping `<project>/<rel>` (a folder or a file) for a link to `target`, outside. */
export async function startSwapper(project: string, rel: string, target: string): Promise<Swapper> {
  const child: ChildProcess = spawn(process.execPath, ["-e", SWAPPER, project, rel, target], { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise<void>((resolve, reject) => {
    child.once("error", reject);
    child.stdout!.once("data", () => resolve());
  });
  return {
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return false;
      const gone = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      child.kill("SIGKILL");
      await gone;
      // Leave the project as it began: the real folder or file back in place.
      const p = path.join(project, rel);
      const st = await fsp.lstat(p).catch(() => undefined);
      if (st?.isSymbolicLink()) await fsp.unlink(p);
      if (fs.existsSync(p + ".real") && !fs.existsSync(p)) await fsp.rename(p + ".real", p);
      return true;
    },
  };
}

/** A folder outside every project, holding `files`. */
export async function makeOutside(files: Record<string, string>): Promise<string> {
  const root = await fsp.mkdtemp(path.join(os.tmpdir(), "yuj-races-outside-"));
  for (const [rel, text] of Object.entries(files)) {
    await fsp.mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await fsp.writeFile(path.join(root, rel), text);
  }
  return root;
}

/** Everything under `root` as it is now (names, bytes, mtimes, modes). */
export async function snapshot(root: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const walk = async (dir: string): Promise<void> => {
    for (const name of (await fsp.readdir(dir)).sort()) {
      const abs = path.join(dir, name);
      const st = await fsp.lstat(abs);
      const rel = path.relative(root, abs);
      if (st.isDirectory()) {
        out.set(rel + "/", `dir mtime=${st.mtimeMs} mode=${st.mode}`);
        await walk(abs);
      } else {
        const bytes = st.isFile() ? await fsp.readFile(abs, "utf8") : `link→${await fsp.readlink(abs)}`;
        out.set(rel, `${bytes} mtime=${st.mtimeMs} mode=${st.mode}`);
      }
    }
  };
  await walk(root);
  return out;
}
