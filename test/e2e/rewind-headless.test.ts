// Workspace checkpoints and `yuj rewind` with the built yuj, the scripted
// model and a real git repository. Two messages change files (an edit, a new
// file, a deletion, a binary file, an ignored file); rewinding to before each
// restores the files byte for byte as they were when it was sent, the
// conversation with them, and leaves the user's index, HEAD, branch and
// ignored files alone. A file changed outside yuj blocks a --yes rewind
// until --force; an undo puts files and conversation back.

import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { isolatedEnv, runCli } from "../support/cli.js";

const GIT_ID = ["-c", "user.name=yuj test", "-c", "user.email=test@example.invalid"];
const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, encoding: "utf8" });

const BINARY_BEFORE = Buffer.from([0, 1, 2, 255, 254, 10, 13, 0]);

/** The model's script: message 1 changes four kinds of file, message 2 changes them again. */
function scenario(): object {
  const bash = (cmd: string) => ({ text: "", tool_calls: [{ name: "bash", arguments: { cmd } }] });
  const py = (source: string) => `python3 -c "${source}"`;
  const done = (message: string) => ({ text: "", tool_calls: [{ name: "done", arguments: { message } }] });
  return {
    turns: [
      {
        text: "",
        tool_calls: [{ name: "edit", arguments: { path: "src/greet.js", old_str: 'return "Hello, " + name;', new_str: "return `Hello, ${name}!`;" } }],
      },
      { text: "", tool_calls: [{ name: "write", arguments: { path: "made.txt", content: "new file\n" } }] },
      bash(`rm doomed.txt && ${py("open('blob.bin','wb').write(bytes([0,255,111,110,101])); open('build/out.log','a').write('first\\n')")}`),
      done("first done"),
      { text: "", tool_calls: [{ name: "write", arguments: { path: "deep/er/f.txt", content: "x" } }] },
      bash(py("open('blob.bin','wb').write(bytes([1,2,116,119,111])); open('build/out.log','a').write('second\\n'); open('made.txt','a').write('second\\n')")),
      done("second done"),
    ],
  };
}

/** sha256 of every file outside .git, by path. */
function hashTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (name === ".git") continue;
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(dir, p)] = createHash("sha256").update(readFileSync(p)).digest("hex");
    }
  };
  walk(dir);
  return out;
}

function project(): { cwd: string; cfg: string } {
  const cwd = mkdtempSync(join(tmpdir(), "yuj-rewind-"));
  mkdirSync(join(cwd, "src"));
  mkdirSync(join(cwd, "build"));
  writeFileSync(join(cwd, "src/greet.js"), 'export function greet(name) {\n  return "Hello, " + name;\n}\n');
  writeFileSync(join(cwd, "doomed.txt"), "to be deleted\n");
  writeFileSync(join(cwd, "blob.bin"), BINARY_BEFORE);
  writeFileSync(join(cwd, ".gitignore"), "build/\ncfg.toml\nscenario.json\n");
  writeFileSync(join(cwd, "build/out.log"), "ignored\n");
  git(cwd, "init", "-q", "-b", "main");
  git(cwd, "add", "-A");
  git(cwd, ...GIT_ID, "commit", "-q", "-m", "start");
  // A staged change and an untracked file of the user's own, before yuj starts.
  writeFileSync(join(cwd, "staged.txt"), "staged by the user\n");
  git(cwd, "add", "staged.txt");
  writeFileSync(join(cwd, "notes.txt"), "untracked notes\n");
  writeFileSync(join(cwd, "scenario.json"), JSON.stringify(scenario()));
  const cfg = join(cwd, "cfg.toml");
  writeFileSync(cfg, `[provider]\nname = "scripted"\nmodel = "demo"\nscenario = ${JSON.stringify(join(cwd, "scenario.json"))}\n\n[sandbox]\nmode = "off"\n`);
  return { cwd, cfg };
}

/** What the user's git shows: HEAD, the branch, the index's entries. */
function userGit(cwd: string): string[] {
  return [git(cwd, "rev-parse", "HEAD"), git(cwd, "symbolic-ref", "HEAD"), git(cwd, "ls-files", "--stage")];
}

function historyOf(env: Record<string, string>, id: string): Array<{ role: string; text?: string }> {
  const lines = readFileSync(join(env.XDG_STATE_HOME!, "yuj", "sessions", id, "history.jsonl"), "utf8").trim().split("\n");
  const history: Array<{ role: string; text?: string }> = [];
  for (const line of lines) {
    const r = JSON.parse(line) as { at: number; items: Array<{ role: string }> };
    history.length = r.at;
    history.push(...r.items);
  }
  return history;
}

describe("yuj rewind, headless, on a real git repository", () => {
  it("restores files and conversation to before a message, byte for byte, and undoes it", async () => {
    const { cwd, cfg } = project();
    const env = isolatedEnv();
    const atStart = hashTree(cwd);
    const gitAtStart = userGit(cwd);

    const first = await runCli(["code", "change things", "--config", cfg, "--yolo"], { cwd, env });
    expect(first.code, first.stderr).toBe(0);
    const id = readdirSync(join(env.XDG_STATE_HOME!, "yuj", "sessions")).find((n) => /^\d{8}-/.test(n))!;
    const afterFirst = hashTree(cwd);
    expect(afterFirst["made.txt"]).toBeDefined();
    const second = await runCli(["resume", id, "change them again", "--config", cfg, "--yolo"], { cwd, env });
    expect(second.code, second.stderr).toBe(0);
    const afterSecond = hashTree(cwd);
    expect(afterSecond["deep/er/f.txt"]).toBeDefined();

    // The list: both messages, with the files each one's steps changed.
    const list = await runCli(["rewind", id], { cwd, env });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain("1. change things");
    expect(list.stdout).toMatch(/2\. change them again .*deep\/er\/f\.txt/);

    // Without --yes and without a terminal nothing changes: the plan and the patch are shown.
    const dry = await runCli(["rewind", id, "--to", "2"], { cwd, env });
    expect(dry.code).toBe(1);
    expect(dry.stdout).toContain("D deep/er/f.txt");
    expect(dry.stdout).toContain("diff --git");
    expect(dry.stderr).toContain("--yes");
    expect(hashTree(cwd)).toEqual(afterSecond);

    const toSecond = await runCli(["rewind", id, "--to", "2", "--yes"], { cwd, env });
    expect(toSecond.code, toSecond.stderr).toBe(0);
    // The ignored file keeps what the second message wrote: checkpoints never hold it.
    expect(hashTree(cwd)).toEqual({ ...afterFirst, "build/out.log": afterSecond["build/out.log"] });
    expect(historyOf(env, id).filter((h) => h.role === "user").map((h) => h.text)).toEqual(["change things"]);

    const toFirst = await runCli(["rewind", id, "--to", "1", "--yes"], { cwd, env });
    expect(toFirst.code, toFirst.stderr).toBe(0);
    expect(hashTree(cwd)).toEqual({ ...atStart, "build/out.log": afterSecond["build/out.log"] });
    expect(readFileSync(join(cwd, "blob.bin"))).toEqual(BINARY_BEFORE);
    expect(existsSync(join(cwd, "doomed.txt"))).toBe(true);
    expect(existsSync(join(cwd, "deep"))).toBe(false);
    expect(historyOf(env, id)).toEqual([]);
    expect(userGit(cwd)).toEqual(gitAtStart);

    // The undo puts back what the last rewind cut, files and conversation.
    const undo = await runCli(["rewind", id, "--undo", "--yes"], { cwd, env });
    expect(undo.code, undo.stderr).toBe(0);
    expect(hashTree(cwd)).toEqual({ ...afterFirst, "build/out.log": afterSecond["build/out.log"] });
    expect(historyOf(env, id).filter((h) => h.role === "user").map((h) => h.text)).toEqual(["change things"]);
    expect(userGit(cwd)).toEqual(gitAtStart);

    // The session stays resumable after a rewind.
    const again = await runCli(["resume", id, "change them again", "--config", cfg, "--yolo"], { cwd, env });
    expect(again.code, again.stderr).toBe(0);
    expect(readFileSync(join(cwd, "deep/er/f.txt"), "utf8")).toBe("x");
    // Checkpoints live on private refs only: no branch, no commit on the user's.
    expect(git(cwd, "branch", "--list").trim()).toBe("* main");
    expect(git(cwd, "for-each-ref", "--format=%(refname)", `refs/yuj/${id}/`).trim().split("\n").length).toBeGreaterThan(1);
  }, 120_000);

  it("names the files changed outside yuj and overwrites them only with --force", async () => {
    const { cwd, cfg } = project();
    const env = isolatedEnv();
    const first = await runCli(["code", "change things", "--config", cfg, "--yolo"], { cwd, env });
    expect(first.code, first.stderr).toBe(0);
    const id = readdirSync(join(env.XDG_STATE_HOME!, "yuj", "sessions")).find((n) => /^\d{8}-/.test(n))!;
    // The user edits a file the model made, and their own notes.
    writeFileSync(join(cwd, "made.txt"), "the user's own words\n");
    writeFileSync(join(cwd, "notes.txt"), "more user notes\n");

    const refused = await runCli(["rewind", id, "--to", "1", "--yes"], { cwd, env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("changed outside yuj");
    expect(refused.stderr).toContain("made.txt");
    // Both: the rewind writes every file back to the checkpoint, the user's notes too.
    expect(refused.stderr).toContain("notes.txt");
    expect(readFileSync(join(cwd, "made.txt"), "utf8")).toBe("the user's own words\n");
    expect(historyOf(env, id).length).toBeGreaterThan(0);

    const forced = await runCli(["rewind", id, "--to", "1", "--yes", "--force"], { cwd, env });
    expect(forced.code, forced.stderr).toBe(0);
    expect(existsSync(join(cwd, "made.txt"))).toBe(false);
    expect(readFileSync(join(cwd, "notes.txt"), "utf8")).toBe("untracked notes\n");
    // The undo brings the user's own version back: it was checkpointed before the rewind.
    const undo = await runCli(["rewind", id, "--undo", "--yes"], { cwd, env });
    expect(undo.code, undo.stderr).toBe(0);
    expect(readFileSync(join(cwd, "made.txt"), "utf8")).toBe("the user's own words\n");
    expect(readFileSync(join(cwd, "notes.txt"), "utf8")).toBe("more user notes\n");
  }, 120_000);

  it("says checkpoints are off outside a git work tree and still rewinds the conversation", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "yuj-rewind-nogit-"));
    mkdirSync(join(cwd, "src"));
    mkdirSync(join(cwd, "build"));
    writeFileSync(join(cwd, "src/greet.js"), 'export function greet(name) {\n  return "Hello, " + name;\n}\n');
    writeFileSync(join(cwd, "doomed.txt"), "to be deleted\n");
    writeFileSync(join(cwd, "scenario.json"), JSON.stringify(scenario()));
    const cfg = join(cwd, "cfg.toml");
    writeFileSync(cfg, `[provider]\nname = "scripted"\nmodel = "demo"\nscenario = ${JSON.stringify(join(cwd, "scenario.json"))}\n\n[sandbox]\nmode = "off"\n`);
    const env = isolatedEnv();
    const run = await runCli(["code", "change things", "--config", cfg, "--yolo", "--output", "jsonl"], { cwd, env });
    expect(run.code, run.stderr).toBe(0);
    const notices = run.stdout.split("\n").filter((l) => l.includes("Workspace checkpoints are off"));
    expect(notices).toHaveLength(1);
    const id = readdirSync(join(env.XDG_STATE_HOME!, "yuj", "sessions")).find((n) => /^\d{8}-/.test(n))!;
    const list = await runCli(["rewind", id], { cwd, env });
    expect(list.stdout).toContain("Workspace checkpoints are off for this session");
    const back = await runCli(["rewind", id, "--to", "1", "--yes"], { cwd, env });
    expect(back.code, back.stderr).toBe(0);
    expect(back.stdout).toContain("Files: none restored (workspace checkpoints are off");
    expect(historyOf(env, id)).toEqual([]);
  }, 120_000);
});
