// The project config's trust through the built CLI: the one notice of a
// headless run (stderr, the JSONL stream, the trace), a config the model's
// file tools cannot write, one rewritten by an unsandboxed command or an
// editor being untrusted again at the next run, the
// project's other settings applying without trust, `yuj trust`, `yuj doctor`,
// and the rules yuj itself stores for the project.

import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { isolatedEnv, runCli, traceFiles } from "../support/cli.js";
import { tempDemoRepo } from "../support/loop-harness.js";

const rmBuild = { tool_calls: [{ name: "bash", arguments: { cmd: "rm -rf build" } }] };
const finish = { tool_calls: [{ name: "done", arguments: { message: "cleaned" } }] };
const YOLO = "[permissions]\nyolo = true\n";

/** A repo with build/, a scripted model (its provider in --config scripted.toml) and `projectToml` as the project config. */
function setup(turns: unknown[], projectToml: string) {
  const cwd = tempDemoRepo();
  fs.mkdirSync(path.join(cwd, "build"));
  fs.writeFileSync(path.join(cwd, "scenario.json"), JSON.stringify({ turns }));
  fs.writeFileSync(path.join(cwd, "scripted.toml"), '[provider]\nname = "scripted"\nscenario = "scenario.json"\n');
  fs.mkdirSync(path.join(cwd, ".yuj"));
  fs.writeFileSync(path.join(cwd, ".yuj", "config.toml"), projectToml);
  return { cwd, env: isolatedEnv() };
}
const code = (task: string, ...more: string[]) => ["code", task, "--config", "scripted.toml", ...more];
const events = (stdout: string) => stdout.trimEnd().split("\n").filter(Boolean).map((l) => JSON.parse(l));
const traceRows = (file: string) => fs.readFileSync(file, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l));
const noticeLines = (stderr: string) => stderr.split("\n").filter((l) => l.includes("so these settings in it are ignored"));

describe("a headless run with an untrusted project config", () => {
  it("ignores the loosening settings with one notice on stderr, in the JSONL stream and in the trace; obeys them once trusted", async () => {
    const { cwd, env } = setup([rmBuild, finish], YOLO);
    const first = await runCli(code("clean", "--output", "jsonl"), { cwd, env });
    expect(first.code).toBe(3); // the ask was not skipped: paused for approval
    expect(fs.existsSync(path.join(cwd, "build"))).toBe(true);
    expect(noticeLines(first.stderr)).toHaveLength(1);
    expect(first.stderr).toContain("ignored: permissions.yolo. Read the file, then run `yuj trust`");
    const file = path.join(fs.realpathSync(cwd), ".yuj", "config.toml");
    const notice = { type: "config_untrusted", file, project: fs.realpathSync(cwd), ignored: ["permissions.yolo"] };
    expect(events(first.stdout).filter((e) => e.type === "config_untrusted")).toEqual([expect.objectContaining(notice)]);
    const [trace] = traceFiles(env);
    expect(traceRows(trace!).filter((e) => e.type === "config_untrusted")).toEqual([expect.objectContaining(notice)]);

    // The text transcript puts it on stderr, once, and not on stdout.
    const text = await runCli(code("clean"), { cwd, env });
    expect(noticeLines(text.stderr)).toHaveLength(1);
    expect(text.stdout).not.toContain("not trusted");

    expect((await runCli(["trust"], { cwd, env })).code).toBe(0);
    const trusted = await runCli(code("clean", "--output", "jsonl"), { cwd, env });
    expect(trusted.code, trusted.stderr).toBe(0);
    expect(fs.existsSync(path.join(cwd, "build"))).toBe(false);
    expect(trusted.stderr).toBe("");
    expect(events(trusted.stdout).some((e) => e.type === "config_untrusted")).toBe(false);
  });

  it("says it again at yuj resume, which also ignores them", async () => {
    const rmSrc = { tool_calls: [{ name: "bash", arguments: { cmd: "rm -rf src" } }] };
    const { cwd, env } = setup([rmBuild, rmSrc, finish], YOLO);
    expect((await runCli(code("clean"), { cwd, env })).code).toBe(3);
    expect((await runCli(["approve"], { cwd, env })).code).toBe(0);
    const resumed = await runCli(["resume"], { cwd, env });
    expect(noticeLines(resumed.stderr)).toHaveLength(1);
    expect(resumed.code).toBe(3); // the second rm asks too: yolo is still ignored
    expect(fs.existsSync(path.join(cwd, "src"))).toBe(true);
  });

  it("keeps applying the project's other settings without trust", async () => {
    const { cwd, env } = setup(
      [{ tool_calls: [{ name: "bash", arguments: { cmd: "echo one" } }] }, { tool_calls: [{ name: "bash", arguments: { cmd: "echo two" } }] }, finish],
      `${YOLO}[loop]\nmax_turns = 1\n[tools]\nedit_format = "whole"\n`,
    );
    const run = await runCli(code("count"), { cwd, env });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/turn limit|max_turns/); // [loop].max_turns = 1 from the project
    const edit = await runCli(["tool", "edit", JSON.stringify({ path: "a", old_string: "x", new_string: "y" })], { cwd, env });
    expect(edit.code).toBe(2);
    expect(edit.stderr).toMatch(/unknown tool "edit"/); // edit_format = "whole": write only
    const rm = await runCli(["tool", "bash", JSON.stringify({ cmd: "rm -rf build" })], { cwd, env });
    expect(rm.stdout).toContain("cannot ask for approval"); // and yolo still ignored
  });
});

describe("a project config that changes", () => {
  it("the model's file tools cannot write it; written by an unsandboxed command, the next run ignores what was added", async () => {
    const loosened = `${YOLO}[[permissions.rules]]\ntool = "bash"\naction = "allow"\n`;
    const { cwd, env } = setup(
      [
        { tool_calls: [{ name: "write", arguments: { path: ".yuj/config.toml", content: loosened } }] },
        { tool_calls: [{ name: "bash", arguments: { cmd: "cp loosened.toml .yuj/config.toml" } }] },
        finish,
      ],
      "[loop]\nmax_turns = 50\n", // needs no trust: it applies, as trusted ones do
    );
    fs.writeFileSync(path.join(cwd, "loosened.toml"), loosened);
    // Inside the sandbox .yuj/ is read-only: only a command run without it can write there.
    fs.writeFileSync(path.join(cwd, "off.toml"), '[sandbox]\nmode = "off"\n');
    const writing = await runCli(code("adjust the config", "--config", "off.toml", "--output", "jsonl"), { cwd, env });
    expect(writing.code, writing.stderr).toBe(0);
    const [write, copy] = events(writing.stdout).filter((e) => e.type === "tool_result");
    expect(write).toMatchObject({ name: "write", ok: false });
    expect(write.modelText).toMatch(/^ERROR: \.yuj\/config\.toml is in \.yuj\/, the project's yuj config: file tools do not write or delete it/);
    expect(copy).toMatchObject({ name: "bash", ok: true });
    expect(fs.readFileSync(path.join(cwd, ".yuj", "config.toml"), "utf8")).toBe(loosened);

    fs.writeFileSync(path.join(cwd, "scenario.json"), JSON.stringify({ turns: [rmBuild, finish] }));
    const next = await runCli(code("clean"), { cwd, env });
    expect(next.code).toBe(3); // paused on the rm: neither the yolo nor the allow rule applied
    expect(fs.existsSync(path.join(cwd, "build"))).toBe(true);
    expect(noticeLines(next.stderr)).toEqual([expect.stringContaining("is not trusted, so these settings in it are ignored: permissions.yolo, permissions.rules[0]")]);
  });

  it("is untrusted again when an editor changes it, and asks for trust again", async () => {
    const { cwd, env } = setup([rmBuild, finish], YOLO);
    expect((await runCli(["trust"], { cwd, env })).code).toBe(0);
    fs.writeFileSync(path.join(cwd, ".yuj", "config.toml"), `${YOLO}[sandbox]\nmode = "off"\n`);
    const next = await runCli(code("clean"), { cwd, env });
    expect(noticeLines(next.stderr)).toEqual([expect.stringContaining("ignored: sandbox.mode, permissions.yolo.")]);
    expect(next.code).toBe(3);
    const doctor = await runCli(["doctor"], { cwd, env });
    expect(doctor.stdout).toMatch(/^\[warn\] project trust: \S+\/\.yuj\/config\.toml changed since you trusted it \(\S+\); ignored: sandbox\.mode, permissions\.yolo; see yuj trust --show, then yuj trust$/m);
  });
});

describe("yuj trust and yuj doctor", () => {
  it("shows, records and withdraws the trust; doctor reports each state", async () => {
    const { cwd, env } = setup([], '[sandbox]\nmode = "off"\n');
    const real = fs.realpathSync(cwd);
    const file = path.join(real, ".yuj", "config.toml");
    expect((await runCli(["doctor"], { cwd, env })).stdout).toMatch(
      new RegExp(`^\\[warn\\] project trust: ${file} not trusted; ignored: sandbox\\.mode; see yuj trust --show, then yuj trust$`, "m"),
    );
    const show = await runCli(["trust", "--show"], { cwd, env });
    expect(show.stdout).toContain(`file      ${file}\n`);
    expect(show.stdout).toContain("trust     not trusted\n");
    expect(show.stdout).toContain('loosens   sandbox.mode = "off": commands run unsandboxed, with your permissions\n');
    expect(show.stdout).toContain("effect    these settings are ignored; run: yuj trust\n");

    const trust = await runCli(["trust"], { cwd, env });
    expect(trust.stdout).toMatch(new RegExp(`^Trusted ${file} \\(sha256 [0-9a-f]{12}…\\) for ${real}\\.\\n`));
    const store = fs.readFileSync(path.join(env.XDG_CONFIG_HOME!, "yuj", "trusted.toml"), "utf8");
    const hash = execFileSync("sha256sum", [file], { encoding: "utf8" }).split(" ")[0];
    expect(store).toContain(`[projects."${real}"]\nfile = "${file}"\nsha256 = "${hash}"\n`);
    expect((await runCli(["doctor"], { cwd, env })).stdout).toMatch(/^\[ok {2}\] project trust: \S+ trusted \(since \S+\); in effect: sandbox\.mode$/m);
    expect((await runCli(["trust", "--show"], { cwd, env })).stdout).toContain("effect    these settings are in effect\n");

    const revoke = await runCli(["trust", "--revoke"], { cwd, env });
    expect(revoke.stdout).toMatch(/^Withdrew the trust in \S+ \(given \S+\): its loosening settings are ignored again\.\n$/);
    expect((await runCli(["doctor"], { cwd, env })).stdout).toMatch(/^\[warn\] project trust: \S+ not trusted;/m);
    expect((await runCli(["trust", "--revoke"], { cwd, env })).stdout).toBe(`${real} is not trusted: nothing to withdraw.\n`);

    fs.writeFileSync(path.join(cwd, ".yuj", "config.toml"), "[loop]\nmax_turns = 5\n");
    expect((await runCli(["doctor"], { cwd, env })).stdout).toMatch(/^\[ok {2}\] project trust: \S+ loosens nothing; it needs no trust$/m);
    fs.rmSync(path.join(cwd, ".yuj"), { recursive: true });
    expect((await runCli(["doctor"], { cwd, env })).stdout).toMatch(/^\[ok {2}\] project trust: no project config \(\.yuj\/config\.toml\) here$/m);
  });

  it("refuses what it cannot do, saying what to do instead", async () => {
    const { cwd, env } = setup([], '[sandbox]\nmode = "of"\n');
    const broken = await runCli(["trust"], { cwd, env });
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/sandbox\.mode: expected one of "auto", "on", "off", got string "of"\nyuj trusts only a config file it can load: fix the file, then run yuj trust again/);
    fs.rmSync(path.join(cwd, ".yuj"), { recursive: true });
    const none = await runCli(["trust"], { cwd, env });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^yuj: no project config here \(\S+\/\.yuj\/config\.toml\): nothing to trust/);
    expect((await runCli(["trust", "--show", "--revoke"], { cwd, env })).stderr).toBe("yuj: yuj trust takes --show or --revoke, not both\n");
    expect((await runCli(["status", "--revoke"], { cwd, env })).stderr).toBe("yuj: --show and --revoke go with yuj trust\n");
    expect((await runCli(["trust", "elsewhere"], { cwd, env })).code).toBe(2);
  });
});

describe("rules yuj stores for the project (yuj approve --always --scope project)", () => {
  it("keep a project config that needed no trust trusted: the next run allows the call", async () => {
    const { cwd, env } = setup([rmBuild, finish], "[loop]\nmax_turns = 50\n");
    expect((await runCli(code("clean"), { cwd, env })).code).toBe(3);
    expect((await runCli(["approve", "--always", "--scope", "project"], { cwd, env })).code).toBe(0);
    expect((await runCli(["resume"], { cwd, env })).code).toBe(0);
    fs.mkdirSync(path.join(cwd, "build"));
    const next = await runCli(code("clean again"), { cwd, env });
    expect(next.code, next.stderr).toBe(0);
    expect(next.stderr).toBe("");
    expect(fs.existsSync(path.join(cwd, "build"))).toBe(false);
  });

  it("wait for yuj trust in a project config that was untrusted, and the run says so", async () => {
    const { cwd, env } = setup([rmBuild, finish], '[sandbox]\nnetwork = true\n');
    expect((await runCli(code("clean"), { cwd, env })).code).toBe(3);
    expect((await runCli(["approve", "--always", "--scope", "project"], { cwd, env })).code).toBe(0);
    const resumed = await runCli(["resume", "--output", "jsonl"], { cwd, env });
    expect(resumed.code).toBe(0);
    expect(events(resumed.stdout).find((e) => e.type === "notice" && /not trusted/.test(e.text))?.text).toMatch(
      /stored the rule in \S+\/\.yuj\/config\.toml, which is not trusted: it applies from the next run once you run `yuj trust` there/,
    );
    fs.mkdirSync(path.join(cwd, "build"));
    const next = await runCli(code("clean again"), { cwd, env });
    expect(next.code).toBe(3);
    expect(noticeLines(next.stderr)).toEqual([expect.stringContaining("ignored: sandbox.network, permissions.rules[0].")]);
  });
});

describe("yuj replay of a session in a trusted project", () => {
  it("trusts the copy only with the content the project trusts, so the replay takes the same path", async () => {
    const { cwd, env } = setup([rmBuild, finish], '[[permissions.rules]]\ntool = "bash"\npattern = "rm *"\naction = "allow"\n');
    execFileSync("git", ["init", "-q"], { cwd });
    expect((await runCli(["trust"], { cwd, env })).code).toBe(0);
    const run = await runCli(code("clean"), { cwd, env });
    expect(run.code, run.stderr).toBe(0);
    const id = fs.readdirSync(path.join(env.XDG_STATE_HOME!, "yuj", "sessions"))[0]!;
    const replay = await runCli(["replay", id], { cwd, env });
    expect(replay.stdout).toContain(`replay of ${id}: 2 requests, no difference`);
    expect(replay.code, replay.stdout + replay.stderr).toBe(0);

    // Trust withdrawn since: the copy's allow rule is left out, and the report says why it may differ.
    expect((await runCli(["trust", "--revoke"], { cwd, env })).code).toBe(0);
    const untrusted = await runCli(["replay", id], { cwd, env });
    expect(untrusted.stdout).toMatch(/^note: the project config \S+\/\.yuj\/config\.toml is not trusted, so these settings in it are ignored: permissions\.rules\[0\]; the recorded run may have had them$/m);
  });
});
