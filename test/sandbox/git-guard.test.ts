// The ways a sandboxed command could leave something for git to run on the
// host later, each tried for real: real repositories, real bwrap, and then
// the user's own `git commit` / `git status` on the host. A planted program
// would touch a marker under the host's /tmp, which no sandboxed process
// can even see (its /tmp is its own): the marker appearing proves it ran on
// the host.

import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cleanupAll, gitRepo, GIT_IDENTITY, hostGit, makeHarness, noBwrap, tempDir } from "./support.js";

afterEach(cleanupAll);

/** A host path that a planted program would create; and the shell line that plants it. */
function hostMarker(): { file: string; touch: string } {
  const file = path.join(tempDir("yuj-sbx-marker-"), "ran");
  return { file, touch: `touch ${file}` };
}

const hook = (touch: string) => `printf '#!/bin/sh\\n${touch}\\n' `;

function harness(project: string) {
  return makeHarness({ project, env: { ...process.env, ...GIT_IDENTITY } });
}

/** What the user does next, on the host: look, stage, commit. */
function userCommits(project: string): void {
  fs.appendFileSync(path.join(project, "README"), "more\n");
  hostGit(project, "status");
  hostGit(project, "add", "README");
  hostGit(project, "commit", "-q", "-m", "user commit");
}

describe.skipIf(noBwrap)("git's config and hooks, from inside the sandbox (real bwrap, real git)", () => {
  it("core.hooksPath cannot be set, so hooks planted elsewhere never run at the user's commit", async () => {
    const project = gitRepo();
    const m = hostMarker();
    const h = harness(project);
    const { text } = await h.run(
      `git config core.hooksPath .myhooks; echo "config=$?"; mkdir -p .myhooks && ${hook(m.touch)}> .myhooks/pre-commit && chmod +x .myhooks/pre-commit; echo "planted=$?"`,
    );
    expect(text).toMatch(/config=[1-9]/);
    expect(text).toContain("planted=0"); // an ordinary project directory: writable
    expect(() => hostGit(project, "config", "core.hooksPath")).toThrow(); // unset
    userCommits(project);
    expect(fs.existsSync(m.file)).toBe(false);
  });

  it("a repository without .git/hooks gets an empty, read-only one: nothing can be planted there", async () => {
    const project = gitRepo();
    fs.rmSync(path.join(project, ".git", "hooks"), { recursive: true });
    const m = hostMarker();
    const h = harness(project);
    const { text } = await h.run(`mkdir -p .git/hooks; ${hook(m.touch)}> .git/hooks/pre-commit; echo "write=$?"; chmod +x .git/hooks/pre-commit`);
    expect(text).toMatch(/write=1/);
    expect(fs.readdirSync(path.join(project, ".git", "hooks"))).toEqual([]);
    userCommits(project);
    expect(fs.existsSync(m.file)).toBe(false);
  });

  it("existing hooks stay as they were and are read-only; an in-project core.hooksPath is read-only too", async () => {
    const project = gitRepo();
    fs.writeFileSync(path.join(project, ".git", "hooks", "pre-commit"), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
    hostGit(project, "config", "core.hooksPath", "tools/hooks"); // the user's own setting
    const m = hostMarker();
    const h = harness(project);
    const { text } = await h.run(
      [
        `${hook(m.touch)}> .git/hooks/pre-commit; echo "hooks=$?"`,
        `${hook(m.touch)}> tools/hooks/pre-commit; echo "hookspath=$?"`,
      ].join("\n"),
    );
    expect(text).toMatch(/^hooks=1$/m);
    expect(text).toMatch(/^hookspath=1$/m);
    expect(fs.readFileSync(path.join(project, ".git", "hooks", "pre-commit"), "utf8")).toBe("#!/bin/sh\nexit 0\n");
    expect(fs.readdirSync(path.join(project, "tools", "hooks"))).toEqual([]); // created empty for the mount
    userCommits(project);
    expect(fs.existsSync(m.file)).toBe(false);
  });

  it("core.fsmonitor, a filter driver and diff.external cannot be written into .git/config or .git/info", async () => {
    const project = gitRepo();
    fs.mkdirSync(path.join(project, ".git", "info"), { recursive: true });
    const before = fs.readFileSync(path.join(project, ".git", "config"), "utf8");
    const m = hostMarker();
    const h = harness(project);
    const { text } = await h.run(
      [
        `git config core.fsmonitor "${m.touch}; false"; echo "fsmonitor=$?"`,
        `git config filter.evil.clean "${m.touch}; cat"; echo "filter=$?"`,
        `git config diff.external "${m.touch}"; echo "external=$?"`,
        `echo '[core] fsmonitor = x' >> .git/config; echo "append=$?"`,
        `echo '* filter=evil diff=evil' > .git/info/attributes; echo "attributes=$?"`,
        "echo '* filter=evil' > .gitattributes", // the work tree's own file is the project's
      ].join("\n"),
    );
    for (const attempt of ["fsmonitor", "filter", "external", "append", "attributes"]) {
      expect(text).toMatch(new RegExp(`^${attempt}=[1-9]\\d*$`, "m"));
    }
    expect(text).toContain(".git/config: Device or resource busy"); // git's own words for the read-only mount
    expect(fs.readFileSync(path.join(project, ".git", "config"), "utf8")).toBe(before);
    userCommits(project);
    hostGit(project, "diff", "HEAD~1");
    expect(fs.existsSync(m.file)).toBe(false);
  });

  it("the git directory cannot be moved aside and replaced, and a .git file cannot be re-pointed", async () => {
    const project = gitRepo();
    const m = hostMarker();
    const h = harness(project);
    const swap = await h.run(
      `mv .git .git-old; echo "mv=$?"; mkdir -p evil && cp -r .git/objects .git/refs .git/HEAD evil/ && printf '[core]\\n\\tfsmonitor = "${m.touch}; false"\\n' > evil/config; echo "built=$?"`,
    );
    expect(swap.text).toBe("mv: cannot move '.git' to '.git-old': Device or resource busy\nmv=1\nbuilt=0\n");

    // A linked worktree: its .git is a file naming the git directory.
    const linked = path.join(tempDir("yuj-sbx-wt-"), "wt");
    hostGit(project, "worktree", "add", "-q", linked);
    const w = harness(linked);
    const repoint = await w.run(
      `git init -q fresh && mv fresh/.git evil && git --git-dir=evil config core.fsmonitor "${m.touch}; false" && echo "gitdir: evil" > .git; echo "repoint=$?"`,
    );
    expect(repoint.text).toMatch(/^repoint=1$/m);
    expect(fs.readFileSync(path.join(linked, ".git"), "utf8")).toMatch(/^gitdir: .*\/\.git\/worktrees\/wt\n$/);
    hostGit(linked, "status");
    userCommits(project);
    expect(fs.existsSync(m.file)).toBe(false);
  });

  it("a submodule's git directory and its .git file are kept the same way, and commits inside it still work", async () => {
    const project = gitRepo();
    const upstream = gitRepo();
    hostGit(project, "-c", "protocol.file.allow=always", "submodule", "add", "-q", upstream, "sub");
    hostGit(project, "commit", "-q", "-m", "add sub");
    const m = hostMarker();
    const h = harness(project);
    const { text } = await h.run(
      [
        `git -C sub config core.fsmonitor "${m.touch}; false"; echo "config=$?"`,
        `${hook(m.touch)}> .git/modules/sub/hooks/pre-commit; echo "hook=$?"`,
        `git init -q fresh && git --git-dir=fresh/.git config core.fsmonitor "${m.touch}; false" && echo "gitdir: ../fresh/.git" > sub/.git; echo "repoint=$?"`,
        "cd sub && echo change > README && git commit -qam inside && echo committed",
      ].join("\n"),
    );
    expect(text).toMatch(/^config=[1-9]\d*$/m);
    expect(text).toMatch(/^hook=1$/m);
    expect(text).toMatch(/^repoint=1$/m);
    expect(text).toMatch(/^committed$/m);
    hostGit(project, "status");
    userCommits(project);
    expect(fs.existsSync(m.file)).toBe(false);
  });

  it("a nested repository at the command's working directory is kept too", async () => {
    const project = tempDir("yuj-sbx-outer-");
    const inner = gitRepo(path.join(project, "inner"));
    const m = hostMarker();
    const h = harness(project);
    const job = await h.run(`git config core.fsmonitor "${m.touch}; false"; echo "config=$?"`, inner);
    expect(job.text).toMatch(/^config=[1-9]\d*$/m);
    hostGit(inner, "status");
    expect(fs.existsSync(m.file)).toBe(false);
  });

  // One a command plants is removed as soon as the command ends (planted-git.test.ts).
  it("a .git/commondir found before a command stops it, naming it", async () => {
    const project = gitRepo();
    const h = harness(project);
    fs.mkdirSync(path.join(project, "other"));
    fs.writeFileSync(path.join(project, ".git", "commondir"), "../other\n");
    const { text, snap } = await h.run("echo ran");
    expect(snap.exitCode).toBe(126);
    expect(text).toBe(
      `yuj: sandbox unavailable: ${fs.realpathSync(project)}/.git/commondir exists: it makes git read its config from another directory, ` +
        "which a command could have written; check it and remove it (a repository's own .git directory has none), then run the command again; " +
        "the command was not run\n",
    );
  });

  it("commits, branches, tags, stashes and the index still work inside", async () => {
    const project = gitRepo();
    const h = harness(project);
    const { text, snap } = await h.run(
      [
        "echo a > a && git add a && git commit -q -m second",
        "git branch topic && git checkout -q topic && echo b > b && git add b && git commit -q -m third",
        "git tag v1 && echo dirty >> a && git stash -q && git stash pop -q && git checkout -q -- a",
        "git checkout -q - && git merge -q --no-edit topic && git log --format=%s | tr '\\n' ' '",
      ].join(" && "),
    );
    expect(snap.exitCode).toBe(0);
    expect(text).toBe("third second first ");
    expect(hostGit(project, "tag")).toBe("v1\n");
  });

  it("refuses a .git that is a symbolic link, which it could not keep read-only", async () => {
    const project = tempDir("yuj-sbx-gitlink-");
    const real = gitRepo();
    fs.symlinkSync(path.join(real, ".git"), path.join(project, ".git"));
    const { text, snap } = await harness(project).run("echo ran");
    expect(snap.exitCode).toBe(126);
    expect(text).toContain(`${fs.realpathSync(project)}/.git is a symbolic link; the sandbox cannot keep git's config and hooks read-only`);
  });
});

describe.skipIf(noBwrap)(".yuj/ inside the sandbox (real bwrap)", () => {
  it("is read-only where it exists: the project config cannot be changed or replaced", async () => {
    const project = tempDir("yuj-sbx-yuj-");
    fs.mkdirSync(path.join(project, ".yuj"));
    fs.writeFileSync(path.join(project, ".yuj", "config.toml"), '[sandbox]\nmode = "on"\n');
    const { text } = await makeHarness({ project }).run(
      [
        `printf '[sandbox]\\nmode = "off"\\n' > .yuj/config.toml; echo "write=$?"`,
        `mv .yuj .yuj-old; echo "mv=$?"`,
        `rm -rf .yuj 2>/dev/null; echo "rm=$?"`,
      ].join("\n"),
    );
    expect(text).toMatch(/write=1\n/);
    expect(text).toMatch(/mv=1\n/);
    expect(text).toMatch(/rm=1\n$/);
    expect(fs.readFileSync(path.join(project, ".yuj", "config.toml"), "utf8")).toBe('[sandbox]\nmode = "on"\n');
  });

  it("cannot be created by a command where it is absent", async () => {
    const project = tempDir("yuj-sbx-noyuj-");
    const { text } = await makeHarness({ project }).run(
      `mkdir -p .yuj; printf '[sandbox]\\nmode = "off"\\n' > .yuj/config.toml; echo "write=$?"; mkdir .yuj/sub; echo "mkdir=$?"`,
    );
    expect(text).toMatch(/write=1\n/);
    expect(text).toMatch(/mkdir=1\n$/);
    expect(fs.readdirSync(path.join(project, ".yuj"))).toEqual([]); // made empty by yuj, before the command
  });

  it("refuses a .yuj that is a symbolic link", async () => {
    const project = tempDir("yuj-sbx-yujlink-");
    fs.mkdirSync(path.join(project, "cfg"));
    fs.symlinkSync("cfg", path.join(project, ".yuj"));
    const { text, snap } = await makeHarness({ project }).run("echo ran");
    expect(snap.exitCode).toBe(126);
    expect(text).toContain(`${fs.realpathSync(project)}/.yuj is a symbolic link; the sandbox keeps .yuj/ read-only`);
  });
});
