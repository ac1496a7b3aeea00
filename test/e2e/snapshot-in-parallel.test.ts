// The workspace snapshot a headless run records (what `yuj replay` starts
// from) is taken while the first request is built and sent, not before it;
// still, no tool runs before it is written, so it never holds a tool's
// change. Here git is made slow (a wrapper on PATH that waits before
// `git add`) and checkpoints, whose own wait would hold the tool, are off:
// a tool that did not wait would run first.

import { execFileSync } from "node:child_process";
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { onlySessionDir, scriptedProject, traceOf } from "../support/durable-session.js";

const turns = [
  { tool_calls: [{ name: "bash", arguments: { cmd: "echo made > created.txt" } }] },
  { tool_calls: [{ name: "done", arguments: { message: "finished" } }] },
];

/** A PATH whose git waits `seconds` before adding files to an index (the snapshot's `git add -A`). */
function slowGitPath(seconds: number): string {
  const real = execFileSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).trim();
  const bin = mkdtempSync(join(tmpdir(), "yuj-slow-git-"));
  const script = join(bin, "git");
  writeFileSync(script, `#!/bin/sh\nfor a in "$@"; do [ "$a" = add ] && sleep ${seconds}; done\nexec ${JSON.stringify(real)} "$@"\n`);
  chmodSync(script, 0o755);
  return `${bin}:${process.env.PATH}`;
}

async function run(config?: string) {
  const p = scriptedProject(turns, { git: true, config: `[workspace_checkpoints]\nenabled = false\n${config ?? ""}` });
  p.env.PATH = slowGitPath(0.6);
  const done = await runCli(["code", "make a file", ...p.flags], { cwd: p.cwd, env: p.env });
  expect(done.code, done.stderr).toBe(0);
  const trace = traceOf(onlySessionDir(p.env));
  const at = (test: (e: any) => boolean) => trace.findIndex(test);
  const snapshot = trace[at((e) => e.type === "workspace_snapshot")];
  const files = execFileSync("git", ["ls-tree", "-r", "--name-only", snapshot.tree], { cwd: p.cwd, encoding: "utf8" }).split("\n");
  return {
    files,
    snapshotAt: at((e) => e.type === "workspace_snapshot"),
    requestAt: at((e) => e.type === "request_sent"),
    toolAt: at((e) => e.type === "job_started" || e.type === "tool_result"),
  };
}

describe("the workspace snapshot of a headless run", () => {
  it("is taken while the first request goes out, and written before the first tool runs", async () => {
    const r = await run();
    expect(r.requestAt).toBeGreaterThan(-1);
    expect(r.snapshotAt).toBeGreaterThan(r.requestAt);
    expect(r.toolAt).toBeGreaterThan(r.snapshotAt);
    expect(r.files).toContain("README.md");
    expect(r.files).not.toContain("created.txt");
  }, 60_000);

  it("is taken before the first request when hooks are configured (a hook's command could change files)", async () => {
    const r = await run(`[[hooks.on_tool_call]]\nname = "allow"\nshell = "true"\ntools = ["bash"]\n`);
    expect(r.snapshotAt).toBeGreaterThan(-1);
    expect(r.snapshotAt).toBeLessThan(r.requestAt);
    expect(r.files).not.toContain("created.txt");
  }, 60_000);
});
