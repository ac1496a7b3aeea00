// yuj's own git calls run on the host, in a repository a model's commands
// have written. Here everything git can be told to run is planted in a real
// repository (as a command on an unprotected host, or an unsandboxed one,
// could have): hooks, core.hooksPath, core.fsmonitor, clean/smudge/process
// filters, diff.external, textconv, pagers, a nested repository registered
// as a submodule, and a .git/commondir pointing at a git directory with all
// of that in its config. Then the workspace snapshot, its extraction for
// replay, the side panel's status and the formatter's attribution run for
// real. Each planted program would touch a file in a marker directory: it
// must stay empty.

import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as fsp from "node:fs/promises";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { extractSnapshot, snapshotWorkspace } from "../../app/workspace-snapshot.js";
import { readGitStatus } from "../../components/git-status.js";
import { gitTop, snapshotRepo } from "../../tools/lib/formatter-run.js";
import { cleanupAll, gitRepo, hostGit, tempDir } from "./support.js";

afterEach(cleanupAll);

const HOOKS = ["pre-commit", "post-commit", "post-checkout", "post-index-change", "pre-auto-gc", "reference-transaction", "fsmonitor-watchman"];

/** The config text that makes git run `touch <markers>/<what>` at every chance it gets. */
function plantedConfig(markers: string, hooksDir: string): string {
  const t = (what: string) => `touch ${markers}/${what}`;
  return [
    "[core]",
    "\trepositoryformatversion = 0",
    "\tbare = false",
    `\tfsmonitor = "${t("fsmonitor")}; false"`,
    `\thooksPath = ${hooksDir}`,
    `\tpager = ${t("core-pager")}`,
    "\tuntrackedCache = false",
    '[filter "evil"]',
    `\tclean = "${t("clean")}; cat"`,
    `\tsmudge = "${t("smudge")}; cat"`,
    "\trequired = true",
    '[filter "proc"]',
    `\tprocess = "${t("process")}"`,
    "[diff]",
    `\texternal = ${t("diff-external")}`,
    '[diff "evil"]',
    `\ttextconv = "${t("textconv")}; cat"`,
    `\tcommand = ${t("diff-command")}`,
    "[pager]",
    `\tstatus = ${t("pager-status")}`,
    `\tdiff = ${t("pager-diff")}`,
    "[gc]",
    "\tauto = 1",
    "\tautoPackLimit = 1",
    "",
  ].join("\n");
}

function plantHooks(dir: string, markers: string): void {
  fs.mkdirSync(dir, { recursive: true });
  for (const h of HOOKS) fs.writeFileSync(path.join(dir, h), `#!/bin/sh\ntouch ${markers}/hook-${h}\n`, { mode: 0o755 });
}

/** A repository with every trap armed, and work-tree changes that make git look at file contents. */
function trappedRepo(): { repo: string; markers: string } {
  const repo = gitRepo();
  const markers = tempDir("yuj-sbx-own-git-markers-");
  fs.writeFileSync(path.join(repo, ".gitattributes"), "*.txt filter=evil diff=evil\n*.dat filter=proc\n");
  fs.writeFileSync(path.join(repo, "a.txt"), "one\n");
  fs.writeFileSync(path.join(repo, "b.dat"), "data\n");
  hostGit(repo, "add", "-A");
  hostGit(repo, "commit", "-q", "-m", "second");
  const hooksDir = path.join(repo, "planted-hooks");
  // A nested repository with the same traps, registered in the index as a submodule.
  const nested = path.join(repo, "nested");
  fs.mkdirSync(nested);
  execFileSync("git", ["init", "-q"], { cwd: nested });
  fs.writeFileSync(path.join(nested, "n.txt"), "n\n");
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "add", "-A"], { cwd: nested });
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "n"], { cwd: nested });
  fs.writeFileSync(path.join(nested, ".gitattributes"), "*.txt filter=evil\n");
  fs.writeFileSync(path.join(nested, ".git", "config"), plantedConfig(markers, hooksDir));
  const head = execFileSync("git", ["rev-parse", "HEAD"], { cwd: nested, encoding: "utf8" }).trim();
  execFileSync("git", ["update-index", "--add", "--cacheinfo", `160000,${head},nested`], { cwd: repo });
  plantHooks(path.join(repo, ".git", "hooks"), markers);
  plantHooks(hooksDir, markers);
  fs.writeFileSync(path.join(repo, ".git", "config"), plantedConfig(markers, hooksDir));
  // Changes everywhere: git must read contents (and would filter them) to report them.
  fs.writeFileSync(path.join(repo, "a.txt"), "one\ntwo\n");
  fs.writeFileSync(path.join(repo, "b.dat"), "more data\n");
  fs.writeFileSync(path.join(repo, "new.txt"), "untracked\n");
  fs.writeFileSync(path.join(nested, "n.txt"), "changed\n");
  return { repo, markers };
}

async function everyOwnCall(repo: string): Promise<void> {
  const snap = await snapshotWorkspace(repo);
  expect(snap.unavailable).toBeUndefined();
  expect(snap.tree).toMatch(/^[0-9a-f]{40}$/);
  const replayDir = path.join(tempDir("yuj-sbx-own-git-replay-"), "repo");
  await extractSnapshot(snap, replayDir);
  expect(fs.readFileSync(path.join(replayDir, "a.txt"), "utf8")).toBe("one\ntwo\n");
  const status = await readGitStatus(repo);
  expect(status?.files.map((f) => f.path)).toEqual(expect.arrayContaining(["a.txt", "b.dat", "new.txt"]));
  const top = await gitTop(repo);
  expect(top).toBe(fs.realpathSync(repo));
  const formatterView = await snapshotRepo(fsp, top!);
  expect([...(formatterView?.status.keys() ?? [])]).toEqual(expect.arrayContaining([path.join(top!, "a.txt")]));
}

describe("yuj's own git calls run nothing a repository names (real git)", () => {
  it("snapshot, replay extraction, side-panel status and formatter attribution: no hook, fsmonitor, filter, external diff, textconv or pager", async () => {
    const { repo, markers } = trappedRepo();
    // The traps are real: the user's own git in this repository springs them.
    execFileSync("git", ["status"], { cwd: repo, stdio: "ignore" });
    expect(fs.readdirSync(markers)).toContain("fsmonitor");
    fs.rmSync(markers, { recursive: true });
    fs.mkdirSync(markers);

    await everyOwnCall(repo);
    expect(fs.readdirSync(markers)).toEqual([]);
  });

  it("the same when .git/commondir points git at a planted git directory", async () => {
    const { repo, markers } = trappedRepo();
    const elsewhere = path.join(repo, "elsewhere");
    fs.cpSync(path.join(repo, ".git"), elsewhere, { recursive: true });
    fs.writeFileSync(path.join(repo, ".git", "config"), "[core]\n\trepositoryformatversion = 0\n\tbare = false\n");
    fs.writeFileSync(path.join(repo, ".git", "commondir"), "../elsewhere\n");
    await everyOwnCall(repo);
    expect(fs.readdirSync(markers)).toEqual([]);
  });
});
