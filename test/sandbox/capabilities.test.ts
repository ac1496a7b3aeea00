// Run as root (CI, containers), a sandboxed command must hold no capability:
// with them it could remount the host writable or unmount what hides a
// path. Each attack below is tried for real in real bwrap, in the foreground,
// in the background and in the PTY terminal, and the host is checked after.

import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { defaultConfig } from "../../core/config/schema.js";
import { createEmitter } from "../../core/events.js";
import { createTerminalManager } from "../../core/jobs/terminal.js";
import { createSandbox } from "../../core/sandbox/index.js";
import { cleanupAll, gitRepo, GIT_IDENTITY, hostGit, makeHarness, marker, noBwrap, runInBackground, tempDir, until } from "./support.js";

const leftovers: string[] = [];
afterEach(async () => {
  // Written only if an attack worked: never leave it on the host.
  for (const f of leftovers.splice(0)) fs.rmSync(f, { force: true });
  await cleanupAll();
});

const PTRACE_NR: Record<string, number> = { x64: 101, arm64: 117 };

/** Every attack, one `name=exit-code` line each (0 would mean it worked). */
function attacks(opts: { etcFile: string; hidden: string; hostPid: number }): string {
  return [
    "grep -E '^Cap(Inh|Prm|Eff)' /proc/self/status | tr -d '\\t' | tr : =",
    `mount -o remount,bind,rw / 2>/dev/null; touch ${opts.etcFile} 2>/dev/null; echo "remount=$?"`,
    `umount ${opts.hidden} 2>/dev/null; cat ${opts.hidden}/token 2>/dev/null; echo "umount=$?"`,
    `umount /run 2>/dev/null; echo "umount-run=$?"`,
    'mknod /tmp/null c 1 3 2>/dev/null; echo "mknod=$?"',
    'chroot / /bin/true 2>/dev/null; echo "chroot=$?"',
    'unshare -U true 2>/dev/null; echo "unshare-user=$?"',
    'unshare -m true 2>/dev/null; echo "unshare-mount=$?"',
    'unshare -n true 2>/dev/null; echo "unshare-net=$?"',
    // ptrace(PTRACE_ATTACH, the test's own pid): -1 means refused.
    `perl -e 'exit(syscall(${PTRACE_NR[process.arch] ?? 101}, 16, ${opts.hostPid}, 0, 0) == -1 ? 1 : 0)'; echo "ptrace=$?"`,
    // Writing the value it already has: harmless even if it were allowed.
    '(cat /proc/sys/vm/swappiness > /proc/sys/vm/swappiness) 2>/dev/null; echo "proc-sys=$?"',
  ].join("\n");
}

/** Every line `name=value` of the output, so a failure shows every attack's result at once. */
const results = (text: string) =>
  Object.fromEntries(text.trimEnd().split("\n").filter((l) => l.includes("=")).map((l) => l.split("=") as [string, string]));

const REFUSED = {
  CapInh: "0000000000000000",
  CapPrm: "0000000000000000",
  CapEff: "0000000000000000",
  remount: "1",
  umount: "1",
  "umount-run": expect.stringMatching(/^(1|32)$/),
  mknod: "1",
  chroot: "125",
  "unshare-user": "1",
  "unshare-mount": "1",
  "unshare-net": "1",
  ptrace: "1",
  "proc-sys": "1",
};

function setup() {
  const secrets = tempDir("yuj-sbx-caps-secret-", os.homedir());
  fs.writeFileSync(path.join(secrets, "token"), "s3cr3t");
  const etcFile = `/etc/${marker("caps")}`;
  leftovers.push(etcFile);
  const h = makeHarness({ adjust: (c) => void (c.sandbox.unreadable_paths = [secrets]) });
  return { h, etcFile, script: attacks({ etcFile, hidden: secrets, hostPid: process.pid }) };
}

describe.skipIf(noBwrap)("no capabilities inside the sandbox (real bwrap)", () => {
  it(`a foreground command holds none, and every privileged attack fails${process.getuid?.() === 0 ? " (as root)" : ""}`, async () => {
    const { h, etcFile, script } = setup();
    const { text } = await h.run(script);
    expect(results(text)).toEqual(REFUSED);
    expect(text).not.toContain("s3cr3t");
    expect(fs.existsSync(etcFile)).toBe(false);
  });

  it("a background job holds none either", async () => {
    const { h, etcFile, script } = setup();
    const text = await runInBackground(h, script);
    expect(results(text)).toEqual(REFUSED);
    expect(fs.existsSync(etcFile)).toBe(false);
  });

  it("nor does the PTY terminal", async () => {
    const config = defaultConfig();
    config.sandbox.mode = "on";
    const project = tempDir("yuj-sbx-caps-pty-");
    const etcFile = `/etc/${marker("caps-pty")}`;
    leftovers.push(etcFile);
    const { emit } = createEmitter("test", () => undefined);
    const terminals = createTerminalManager({
      emit,
      sessionDir: tempDir("yuj-sbx-caps-pty-session-"),
      sandbox: createSandbox(config, process.env, { projectDir: project }),
    });
    const script = attacks({ etcFile, hidden: "/nonexistent", hostPid: process.pid }).replace(/\bumount \/nonexistent.*\n/, "");
    // Named, so that no other test counting `sleep 300` processes sees it.
    const wait = `exec -a ${marker("caps-pty-wait")} sleep 300`;
    const started = await terminals.start(`(${script}) > result.txt 2>&1; echo done >> result.txt; ${wait}`, project);
    expect(started.ok).toBe(true);
    const result = path.join(project, "result.txt");
    expect(await until(() => fs.existsSync(result) && fs.readFileSync(result, "utf8").endsWith("done\n"), 10_000)).toBe(true);
    const text = fs.readFileSync(result, "utf8");
    await terminals.shutdown();
    const { umount: _none, ...withoutHiddenPath } = REFUSED;
    expect(results(text)).toEqual(withoutHiddenPath);
    expect(fs.existsSync(etcFile)).toBe(false);
  });

  it("still lets commands do their work: write the project, commit with git, run node and npm", async () => {
    const project = gitRepo();
    const h = makeHarness({ project, env: { ...process.env, ...GIT_IDENTITY } });
    fs.writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "p", scripts: { hello: "node -e \"console.log('from npm')\"" } }));
    const { text, snap } = await h.run(
      [
        "echo change >> README && mkdir -p src && echo 'export {}' > src/a.js",
        "git add -A && git commit -q -m second && git branch feature && git checkout -q feature && echo branch-ok",
        "node -e 'console.log(1 + 1)'",
        "npm run -s hello",
      ].join(" && "),
    );
    expect(text).toBe("branch-ok\n2\nfrom npm\n");
    expect(snap.exitCode).toBe(0);
    expect(hostGit(project, "log", "--format=%s", "feature").split("\n").filter(Boolean)).toEqual(["second", "first"]);
    expect(hostGit(project, "status", "--porcelain")).toBe("");
  });
});
