// An ask in a headless run pauses the session (exit 3), survives the process
// ending, and continues after `yuj approve` / `yuj reject` with `yuj resume`.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse as parseToml } from "smol-toml";
import { isolatedEnv, runCli, traceFiles } from "../support/cli.js";
import { tempDemoRepo } from "../support/loop-harness.js";

/** A repo with a build/ dir and a scripted model that wants to delete it. */
function setup(turns: unknown[]) {
  const cwd = tempDemoRepo();
  mkdirSync(join(cwd, "build"));
  writeFileSync(join(cwd, "build", "out.js"), "x");
  writeFileSync(join(cwd, "scenario.json"), JSON.stringify({ turns }));
  writeFileSync(join(cwd, "scripted.toml"), '[provider]\nname = "scripted"\nscenario = "scenario.json"\n');
  return { cwd, env: isolatedEnv() };
}

const rmBuild = { tool_calls: [{ name: "bash", arguments: { cmd: "rm -rf build" } }] };
const finish = { tool_calls: [{ name: "done", arguments: { message: "cleaned" } }] };

describe("headless approvals", () => {
  it("pauses on an ask, refuses to resume unanswered, and resumes after yuj approve", async () => {
    const { cwd, env } = setup([rmBuild, finish]);
    const first = await runCli(["code", "clean the build", "--config", "scripted.toml"], { cwd, env });
    expect(first.code).toBe(3);
    expect(first.stderr).toMatch(/^yuj: approval required \(session [\w-]+\): bash: rm -rf build\n  why: .*rm/);
    expect(first.stderr).toContain("yuj approve");
    expect(existsSync(join(cwd, "build/out.js"))).toBe(true);

    const early = await runCli(["resume"], { cwd, env });
    expect(early.code).toBe(2);
    expect(early.stderr).toMatch(/waits for an approval of bash: rm -rf build: run yuj approve [\w-]+ or yuj reject [\w-]+ first/);

    const approve = await runCli(["approve"], { cwd, env });
    expect(approve.code).toBe(0);
    expect(approve.stdout).toContain("Approved once.");

    const resumed = await runCli(["resume", "--output", "jsonl"], { cwd, env });
    expect(resumed.stderr).toBe("");
    expect(resumed.code).toBe(0);
    expect(existsSync(join(cwd, "build"))).toBe(false);
    const events = resumed.stdout.trimEnd().split("\n").map((l) => JSON.parse(l));
    expect(events.find((e) => e.type === "approval_resolved")).toMatchObject({ decision: "allow_once" });
    expect(events.at(-1)).toMatchObject({ type: "run_finished", reason: "done", message: "cleaned" });

    // One session, one trace, event numbers continuing across both processes.
    const [trace] = traceFiles(env);
    const seqs = readFileSync(trace!, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l).seq);
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    expect(traceFiles(env)).toHaveLength(1);

    const again = await runCli(["resume"], { cwd, env });
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/is finished \(done\); to go on, give it a new message: yuj resume [\w-]+ "…"/);
    const approveAgain = await runCli(["approve"], { cwd, env });
    expect(approveAgain.code).toBe(2);
    expect(approveAgain.stderr).toMatch(/no session in .* is waiting for an approval/);
  });

  it("yuj reject --message sends the message back to the model as the result", async () => {
    const { cwd, env } = setup([rmBuild, finish]);
    expect((await runCli(["code", "clean", "--config", "scripted.toml"], { cwd, env })).code).toBe(3);
    const reject = await runCli(["reject", "--message", "keep build, it is needed"], { cwd, env });
    expect(reject.stdout).toContain("Rejected; the model will be told: keep build, it is needed");
    const resumed = await runCli(["resume", "--output", "jsonl"], { cwd, env });
    expect(resumed.code).toBe(0);
    const result = resumed.stdout.split("\n").filter(Boolean).map((l) => JSON.parse(l)).find((e) => e.type === "tool_result");
    expect(result).toMatchObject({ name: "bash", ok: false });
    expect(result.modelText).toBe("ERROR: the user rejected this call (bash: rm -rf build): keep build, it is needed");
    expect(existsSync(join(cwd, "build/out.js"))).toBe(true);
  });

  it("yuj approve --always stores the exact rule, which then covers the same call", async () => {
    const { cwd, env } = setup([rmBuild, rmBuild, finish]);
    expect((await runCli(["code", "clean twice", "--config", "scripted.toml"], { cwd, env })).code).toBe(3);
    const approve = await runCli(["approve", "--always"], { cwd, env });
    expect(approve.stdout).toContain('stores the rule { tool = "bash", pattern = "rm -rf build", action = "allow" } in this session\'s rules');
    const resumed = await runCli(["resume"], { cwd, env });
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain("✓ done: cleaned");
  });

  it("yuj approve --always stores a command with glob characters escaped: the rule covers that command and nothing more", async () => {
    const rmGlob = { tool_calls: [{ name: "bash", arguments: { cmd: "rm -f build/*" } }] };
    const rmMore = { tool_calls: [{ name: "bash", arguments: { cmd: "rm -f build/ important.txt" } }] };
    const { cwd, env } = setup([rmGlob, rmMore, finish]);
    writeFileSync(join(cwd, "important.txt"), "keep me");
    expect((await runCli(["code", "clean", "--config", "scripted.toml"], { cwd, env })).code).toBe(3);
    const approve = await runCli(["approve", "--always"], { cwd, env });
    expect(approve.stdout).toContain('stores the rule { tool = "bash", pattern = "rm -f build/\\\\*", action = "allow" }');
    // The approved call runs; the next rm, which the unescaped glob would have matched, asks again.
    const resumed = await runCli(["resume"], { cwd, env });
    expect(resumed.code).toBe(3);
    expect(resumed.stderr).toContain("bash: rm -f build/ important.txt");
    expect(existsSync(join(cwd, "build/out.js"))).toBe(false);
    expect(existsSync(join(cwd, "important.txt"))).toBe(true);
  });

  it("--scope project stores the escaped pattern in ./.yuj/config.toml, and it still covers the same call", async () => {
    const rmGlob = { tool_calls: [{ name: "bash", arguments: { cmd: "rm -f build/*" } }] };
    const { cwd, env } = setup([rmGlob, finish]);
    expect((await runCli(["code", "clean", "--config", "scripted.toml"], { cwd, env })).code).toBe(3);
    expect((await runCli(["approve", "--always", "--scope", "project"], { cwd, env })).code).toBe(0);
    expect((await runCli(["resume"], { cwd, env })).code).toBe(0);
    const config = parseToml(readFileSync(join(cwd, ".yuj/config.toml"), "utf8"));
    expect(config).toEqual({ permissions: { rules: [{ tool: "bash", pattern: "rm -f build/\\*", action: "allow" }] } });
    // A new session in the project: the same command is allowed by the stored rule, a wider one asks.
    writeFileSync(join(cwd, "build", "again.js"), "x");
    writeFileSync(join(cwd, "scenario.json"), JSON.stringify({ turns: [rmGlob, finish] }));
    expect((await runCli(["code", "again", "--config", "scripted.toml"], { cwd, env })).code).toBe(0);
    expect(existsSync(join(cwd, "build/again.js"))).toBe(false);
    writeFileSync(join(cwd, "scenario.json"), JSON.stringify({ turns: [{ tool_calls: [{ name: "bash", arguments: { cmd: "rm -f build/x.js" } }] }, finish] }));
    expect((await runCli(["code", "more", "--config", "scripted.toml"], { cwd, env })).code).toBe(3);
  });

  it("--scope project writes the rule to ./.yuj/config.toml", async () => {
    const { cwd, env } = setup([rmBuild, finish]);
    expect((await runCli(["code", "clean", "--config", "scripted.toml"], { cwd, env })).code).toBe(3);
    expect((await runCli(["approve", "--always", "--scope", "project"], { cwd, env })).code).toBe(0);
    expect((await runCli(["resume"], { cwd, env })).code).toBe(0);
    const config = parseToml(readFileSync(join(cwd, ".yuj/config.toml"), "utf8"));
    expect(config).toEqual({ permissions: { rules: [{ tool: "bash", pattern: "rm -rf build", action: "allow" }] } });
  });

  it("--measure denies every ask and the run goes on", async () => {
    const { cwd, env } = setup([rmBuild, finish]);
    const res = await runCli(["code", "clean", "--config", "scripted.toml", "--measure", "--output", "jsonl"], { cwd, env });
    expect(res.code).toBe(0);
    const result = res.stdout.split("\n").filter(Boolean).map((l) => JSON.parse(l)).find((e) => e.type === "tool_result");
    expect(result.modelText).toMatch(/^ERROR: permission denied: /);
    expect(existsSync(join(cwd, "build/out.js"))).toBe(true);
  });

  it("--yolo skips the ask", async () => {
    const { cwd, env } = setup([rmBuild, finish]);
    const res = await runCli(["code", "clean", "--config", "scripted.toml", "--yolo"], { cwd, env });
    expect(res.code).toBe(0);
    expect(existsSync(join(cwd, "build"))).toBe(false);
  });

  it("a deny rule refuses the call without asking", async () => {
    const { cwd, env } = setup([rmBuild, finish]);
    writeFileSync(join(cwd, "deny.toml"), '[[permissions.rules]]\ntool = "bash"\npattern = "rm *"\naction = "deny"\n');
    const res = await runCli(["code", "clean", "--config", "scripted.toml", "--config", "deny.toml", "--output", "jsonl"], { cwd, env });
    expect(res.code).toBe(0);
    const result = res.stdout.split("\n").filter(Boolean).map((l) => JSON.parse(l)).find((e) => e.type === "tool_result");
    expect(result.modelText).toMatch(/^ERROR: permission denied: .*rm \*/);
    expect(existsSync(join(cwd, "build/out.js"))).toBe(true);
  });
});
