// What a sandboxed command plants in the project's git repositories for the
// user's own git to run on the host (a nested repository's fsmonitor, hooks,
// external diff; a `.git` file or a commondir pointing git at a config the
// command wrote; a submodule's git directory) is undone as soon as the
// command ends. The judge is real git on the host: `git status`, `git diff`
// and `git commit` afterwards run nothing the command named, and the
// command's result and the user's events say what was undone.

import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { defaultConfig } from "../../core/config/schema.js";
import { createEmitter } from "../../core/events.js";
import { createTerminalManager } from "../../core/jobs/terminal.js";
import { createSandbox } from "../../core/sandbox/index.js";
import { cleanupAll, GIT_IDENTITY, gitRepo, hostGit, makeHarness, noBwrap, runInBackground, tempDir } from "./support.js";

afterEach(cleanupAll);

const env = { ...process.env, ...GIT_IDENTITY };

/** A script in the project that records every run in a file outside it, where only the host can write. */
function evilScript(project: string): { script: string; ran: () => string } {
  const marker = path.join(tempDir("yuj-planted-marker-"), "ran");
  const script = path.join(project, "evil.sh");
  fs.writeFileSync(script, `#!/bin/sh\necho "$0 $*" >> ${marker}\n`, { mode: 0o755 });
  return { script, ran: () => (fs.existsSync(marker) ? fs.readFileSync(marker, "utf8") : "") };
}

/** The user's git on the host, as they would run it after the session; never fails the test itself. */
function userGit(cwd: string, ...args: string[]): void {
  try {
    hostGit(cwd, ...args);
  } catch {
    // a refusal is fine: what matters is what it ran
  }
}

describe.skipIf(noBwrap)("what a sandboxed command plants in git repositories (real bwrap, real git)", () => {
  it("a nested repository added as a gitlink: its fsmonitor, external diff, pager and hooks are undone", async () => {
    const project = gitRepo();
    const h = makeHarness({ project, env });
    const { script, ran } = evilScript(project);
    const plant = [
      "git init -q sub",
      "git -C sub commit -q --allow-empty -m x",
      `git -C sub config core.fsmonitor ${script}`,
      `git -C sub config diff.external ${script}`,
      `git -C sub config core.pager ${script}`,
      `git -C sub config alias.st '!${script}'`,
      `printf '#!/bin/sh\\n${script} hook\\n' > sub/.git/hooks/pre-commit`,
      "chmod +x sub/.git/hooks/pre-commit",
      "git add sub",
      "echo planted",
    ].join(" && ");
    const { text, snap } = await h.run(plant);
    expect(text).toContain("planted");
    expect(snap.status).toBe("exited");
    expect(snap.repoNotice).toContain("unset core.fsmonitor in sub/.git/config");
    expect(snap.repoNotice).toContain("unset diff.external in sub/.git/config");
    expect(snap.repoNotice).toContain("unset core.pager in sub/.git/config");
    expect(snap.repoNotice).toContain("unset alias.st in sub/.git/config");
    expect(snap.repoNotice).toContain("made the hook sub/.git/hooks/pre-commit non-executable");
    const notices = h.events.filter((e) => e.type === "notice" && e.text.includes("yuj undid them"));
    expect(notices).toHaveLength(1);

    // The user's git on the host afterwards.
    fs.writeFileSync(path.join(project, "sub", "f.txt"), "change\n");
    userGit(project, "status");
    userGit(project, "diff", "--submodule=diff");
    userGit(path.join(project, "sub"), "status");
    userGit(path.join(project, "sub"), "add", "f.txt");
    userGit(path.join(project, "sub"), "diff", "--cached");
    userGit(path.join(project, "sub"), "commit", "-q", "-m", "user");
    userGit(path.join(project, "sub"), "st");
    expect(ran()).toBe("");
    // The nested repository itself still works.
    expect(hostGit(path.join(project, "sub"), "log", "--format=%s")).toBe("user\nx\n");
  }, 60_000);

  it("a commondir planted in the project's .git is removed at once, and the next command runs", async () => {
    const project = gitRepo();
    const h = makeHarness({ project, env });
    const { script, ran } = evilScript(project);
    const { snap } = await h.run(
      `git init -q --bare evil && git --git-dir=evil config core.fsmonitor ${script} && cp -r .git/refs .git/objects evil/ && echo ../evil > .git/commondir`,
    );
    expect(snap.repoNotice).toContain("removed .git/commondir");
    expect(fs.existsSync(path.join(project, ".git", "commondir"))).toBe(false);
    userGit(project, "status");
    expect(ran()).toBe("");
    expect((await h.run("echo next")).text).toBe("next\n");
  }, 60_000);

  it("a .git file pointing at a git directory the command wrote, and a submodule's git directory under .git/modules", async () => {
    const project = gitRepo();
    const h = makeHarness({ project, env });
    const { script, ran } = evilScript(project);
    const { snap } = await h.run(
      [
        "git init -q --bare hidden",
        `git --git-dir=hidden config core.fsmonitor ${script}`,
        "git --git-dir=hidden config core.bare false",
        "mkdir w && echo 'gitdir: ../hidden' > w/.git",
        "git init -q --bare .git/modules/m",
        `git --git-dir=.git/modules/m config core.hooksPath ${project}/hooks-of-m`,
        "git --git-dir=.git/modules/m config core.bare false",
        "mkdir m && echo 'gitdir: ../.git/modules/m' > m/.git",
      ].join(" && "),
    );
    expect(snap.repoNotice).toContain("unset core.fsmonitor in hidden/config");
    expect(snap.repoNotice).toContain("unset core.hookspath in .git/modules/m/config");
    userGit(path.join(project, "w"), "status");
    userGit(path.join(project, "m"), "status");
    expect(ran()).toBe("");
  }, 60_000);

  it("a repository the user had keeps the user's settings: only what the command changed is put back", async () => {
    const project = gitRepo();
    const mine = path.join(project, "vendor", "lib");
    gitRepo(mine);
    hostGit(mine, "config", "filter.keep.clean", "cat");
    hostGit(mine, "config", "core.fsmonitor", "false");
    const h = makeHarness({ project, env });
    const { script } = evilScript(project);
    const { snap } = await h.run(`git -C vendor/lib config core.fsmonitor ${script} && git -C vendor/lib config user.name changed`);
    expect(snap.repoNotice).toContain("put core.fsmonitor in vendor/lib/.git/config back as it was");
    expect(hostGit(mine, "config", "core.fsmonitor")).toBe("false\n");
    expect(hostGit(mine, "config", "filter.keep.clean")).toBe("cat\n");
    expect(hostGit(mine, "config", "user.name")).toBe("changed\n");
    // Nothing planted: nothing said. And the user's own change meanwhile to
    // the project's config, which no command could write, stays.
    hostGit(project, "config", "core.pager", "less -R");
    const quiet = await h.run("git -C vendor/lib status --short; echo ok");
    expect(quiet.snap.repoNotice).toBeUndefined();
    expect(hostGit(project, "config", "core.pager")).toBe("less -R\n");
  }, 60_000);

  it("a background job's end and the terminal's exchanges are checked too", async () => {
    const project = gitRepo();
    const h = makeHarness({ project, env });
    const { script, ran } = evilScript(project);
    await runInBackground(h, `git init -q bg && git -C bg config core.fsmonitor ${script}`);
    const [bg] = h.manager.list({ includeFinished: true }).filter((j) => j.background);
    expect(bg!.repoNotice).toContain("unset core.fsmonitor in bg/.git/config");
    userGit(path.join(project, "bg"), "status");

    const config = defaultConfig();
    config.sandbox.mode = "on";
    const { emit } = createEmitter("test", () => undefined);
    const terminals = createTerminalManager({
      emit,
      sessionDir: tempDir("yuj-planted-pty-"),
      sandbox: createSandbox(config, env, { projectDir: project }),
      env,
    });
    try {
      const started = await terminals.start("bash --norc", project);
      expect(started.ok).toBe(true);
      const id = started.ok ? started.read.terminalId : "";
      const io = await terminals.io(id, { input: `git init -q tty && git -C tty config core.fsmonitor ${script}; echo done`, timeoutMs: 10_000 });
      expect(io.ok && io.read.repoNotice).toContain("unset core.fsmonitor in tty/.git/config");
      userGit(path.join(project, "tty"), "status");
    } finally {
      await terminals.shutdown();
    }
    expect(ran()).toBe("");
  }, 60_000);
});
