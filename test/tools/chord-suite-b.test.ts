// The Chord job and command wording its own tests pin, on the Chord surface
// through the real dispatcher and profile with real processes: the status
// words a job read ends with, what job_kill and job_list answer, an unknown
// job id, a command killed by a signal, and ssh without a command.

import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { defaultConfig } from "../../core/config/schema.js";
import { activateTools } from "../../core/profiles/activate.js";
import { checkProfile, loadProfile } from "../../core/profiles/load.js";
import { builtinHandlers } from "../../tools/registry.js";
import { skillTool } from "../../tools/chord/skill.js";
import { discoverSkills } from "../../core/skills/discover.js";
import { SkillSession } from "../../core/skills/session.js";
import { chordCall } from "../support/chord-call.js";
import { repoRoot } from "../support/loop-harness.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
});
afterEach(() => t.cleanup());

const call = (tool: string, args: unknown) => chordCall(t, tool, args);
const jobIdIn = (text: string) => /\bj\d+\b/.exec(text)?.[0] ?? "";
const background = async (command: string) => jobIdIn((await call("shell", { command, run_in_background: true })).text);

describe("chord job status words", () => {
  it("a clean exit reads completed (exit code 0)", async () => {
    const id = await background("printf done");
    const r = await call("job_output", { job_id: id, wait: "exit" });
    expect(r.text).toBe("done\n[status: completed (exit code 0)]");
  });

  it("a non-zero exit reads failed (exit code N)", async () => {
    const id = await background("echo oops; exit 3");
    const r = await call("job_output", { job_id: id, wait: "exit" });
    expect(r.text).toBe("oops\n[status: failed (exit code 3)]");
  });

  it("a command killed by a signal names it as Go does, and the signal", async () => {
    const r = await call("shell", { command: "kill -TERM $$" });
    expect(r.ok).toBe(false);
    expect(r.text).toContain("[status: failed (signal: terminated, SIGTERM)]");
  });

  it("a job past its deadline reads killed (timed out after …)", async () => {
    const id = await background("sleep 30");
    const fast = await call("shell", { command: "sleep 30", run_in_background: true, timeout_ms: 1000 });
    const r = await call("job_output", { job_id: jobIdIn(fast.text), wait: "exit" });
    expect(r.text).toContain("[status: killed (timed out after 1s)]");
    await call("job_kill", { job_id: id });
  });
});

describe("chord job_kill and job_list answers", () => {
  it("a running job is reported stopping with its reason", async () => {
    const id = await background("sleep 30");
    const r = await call("job_kill", { job_id: id, reason: "no longer needed" });
    expect(r).toMatchObject({ ok: true, text: `job ${id} stopping (no longer needed); it has stopped\n[status: killed (no longer needed)]` });
  });

  it("a finished job is already finished", async () => {
    const id = await background("true");
    await call("job_output", { job_id: id, wait: "exit" });
    const r = await call("job_kill", { job_id: id });
    expect(r.text).toBe(`job ${id} already finished\n[status: completed (exit code 0)]`);
  });

  it("no jobs at all: no background jobs", async () => {
    expect((await call("job_list", {})).text).toBe("no background jobs");
  });

  it("only finished jobs: counted, with how to see them", async () => {
    const id = await background("true");
    await call("job_output", { job_id: id, wait: "exit" });
    expect((await call("job_list", {})).text).toBe("no running background jobs; pass include_finished: true to see 1 finished");
  });

  it("an unknown id is not found, and the known ones are named", async () => {
    const id = await background("true");
    const r = await call("job_output", { job_id: "j999", wait: "none" });
    expect(r).toMatchObject({ ok: false, text: `ERROR: job j999 not found. Known jobs: ${id}.` });
    expect((await call("job_kill", { job_id: "j999" })).text).toContain("job j999 not found");
  });
});

describe("chord shell interactive refusals", () => {
  it("ssh without a remote command may require login", async () => {
    const r = await call("shell", { command: "ssh example.com" });
    expect(r.ok).toBe(false);
    expect(r.text).toContain("may require login");
  });
});

const CTX = ["l1 alpha", "l2 alpha", "l3 alpha", "l4 needle one", "l5 alpha", "l6 alpha", "l7 alpha", "l8 needle two", "l9 needle three", "l10 alpha", "l11 alpha", "l12 alpha"].join("\n") + "\n";

describe("chord grep context_lines, clamped as Chord words it", () => {
  it("50 is clamped to 20 with Chord's note, 20 and 8 without one", async () => {
    await t.put({ "ctx.txt": CTX });
    const over = await call("grep", { pattern: "needle", paths: ["ctx.txt"], context_lines: 50 });
    expect(over.text.split("\n")[0]).toBe("Note: context_lines 50 exceeds the maximum of 20; using 20.");
    for (const n of [8, 20]) expect((await call("grep", { pattern: "needle", paths: ["ctx.txt"], context_lines: n })).text).not.toContain("Note:");
  });

  it("a search with no match keeps the note", async () => {
    await t.put({ "ctx.txt": CTX });
    const r = await call("grep", { pattern: "absent", paths: ["ctx.txt"], context_lines: 50 });
    expect(r.text).toContain("Note: context_lines 50");
    expect(r.text).toContain("No matches found");
  });

  it("1e20 is clamped and quoted as sent, not refused", async () => {
    await t.put({ "ctx.txt": CTX });
    const r = await call("grep", { pattern: "needle", paths: ["ctx.txt"], context_lines: 1e20 });
    expect(r.ok, r.text).toBe(true);
    expect(r.text).toContain("Note: context_lines 1e+20 exceeds the maximum of 20; using 20.");
    expect(r.text).toContain("ctx.txt:4:l4 needle one");
    expect(r.text).not.toContain("9007199254740991");
  });

  it("a fraction, a string and a boolean are refused by name", async () => {
    await t.put({ "ctx.txt": CTX });
    for (const v of [1.5, "2", true, -1]) {
      const r = await call("grep", { pattern: "needle", paths: ["ctx.txt"], context_lines: v });
      expect(r.ok).toBe(false);
      expect(r.text).toContain("context_lines");
    }
  });

  it("when context runs out the footer starts as Chord's does", async () => {
    const lines = Array.from({ length: 100 }, (_, i) => (i === 25 ? "needle one" : i === 76 ? "needle two" : "f".repeat(300)));
    await t.put({ "two.txt": lines.join("\n") + "\n" });
    const r = await call("grep", { pattern: "needle", context_lines: 20 });
    expect(r.text).toContain("two.txt:26:needle one");
    expect(r.text).toContain("two.txt:77:needle two");
    expect(r.text).not.toContain("(showing first");
    expect(r.text).toContain("\n\n(surrounding lines omitted for later matches to stay within 12 KiB; lower context_lines or narrow paths/includes/pattern to see them)");
  });
});

/** What the model is sent for one Chord tool: its description and parameters. */
function spec(name: string) {
  const registry = builtinHandlers();
  const profile = loadProfile(join(repoRoot, "profiles"), "chord");
  checkProfile(profile, registry, "minimal");
  const tools = activateTools(profile, registry, defaultConfig(), { topLevel: true, model: { provider: "anthropic", id: "claude-sonnet-4" } });
  return tools.specs.find((s) => s.name === name)!;
}

const GUIDANCE = [
  "Use `wait: output` when the next step needs an output chunk expected within the wait cap; the job may keep running",
  "`wait: exit` when the next step needs a terminal result expected within the cap",
  "Renew `wait: output` only while new chunks advance the next step",
  "progress logs alone do not justify renewals when only the final result matters",
  "For your own jobs, do other work or end the turn and await the completion notification instead of repeatedly waiting for a final result",
  "Reading another agent's job does not subscribe you to its completion notification",
  "coordinate with its owner instead",
];

describe("chord job_output: how to wait, said the same way everywhere", () => {
  it("the description tells the waits apart", () => {
    const desc = spec("job_output").description;
    expect(desc).toContain("Use `wait: none` only for a needed snapshot, not to poll");
    for (const g of GUIDANCE) expect(desc).toContain(g);
  });

  it("the polling notice and the refusal carry the same guidance, the status line last", async () => {
    const id = await background("sleep 30");
    await call("job_output", { job_id: id, wait: "none" });
    const second = await call("job_output", { job_id: id, wait: "none" });
    expect(second.text.startsWith("[notice] no new output across 2 consecutive non-blocking reads; stop polling. ")).toBe(true);
    expect(second.text.endsWith("\n[status: running]")).toBe(true);
    const third = await call("job_output", { job_id: id, wait: "none" });
    expect(third.ok).toBe(false);
    expect(third.text).toContain(`Tool call rejected automatically: job ${id} produced no new output across 3 consecutive non-blocking job_output reads. Stop polling.`);
    expect(third.text.endsWith("\n[status: running]")).toBe(true);
    for (const g of GUIDANCE) {
      expect(second.text).toContain(g);
      expect(third.text).toContain(g);
    }
  });
});

describe("chord grep: what paths says", () => {
  it("one or more, relative to the session directory, ~ supported, the session directory by default", () => {
    const props = spec("grep").parameters.properties as Record<string, { description?: string }>;
    const desc = props.paths!.description ?? "";
    for (const want of ["One or more files/directories to search", "Relative paths resolve from the session working directory", "Supports ~", "Defaults to the session working directory"]) {
      expect(desc).toContain(want);
    }
  });
});

describe("chord shell: why a failed command failed", () => {
  it("a credential prompt without a terminal keeps the output and the exit code and says why", async () => {
    const r = await call("shell", { command: "printf 'fatal: could not read Username for https://example.invalid: terminal prompts disabled\\n' >&2; exit 128" });
    expect(r.ok).toBe(false);
    expect(r.text).toContain("terminal prompts disabled");
    for (const want of ["exit code 128", "non-interactive shell failure", "the command attempted an interactive credential prompt", "provide input through files/arguments/pipes"]) {
      expect(r.text).toContain(want);
    }
  });

  it("a missing TTY and a dumb-terminal editor are named", async () => {
    const tty = await call("shell", { command: "echo 'the input device is not a TTY' >&2; exit 1" });
    expect(tty.text).toContain("requires a terminal/TTY");
    const editor = await call("shell", { command: "printf 'error: Terminal is dumb, but EDITOR unset\\nPlease supply the message using either -m or -F option.\\n' >&2; exit 1" });
    expect(editor.text).toContain("interactive editor");
  });

  it("an ordinary failure is only its exit code", async () => {
    const r = await call("shell", { command: "printf ordinary >&2; exit 7" });
    expect(r.text).toBe("ordinary\n[status: failed (exit code 7)]\nThe command failed with exit code 7.");
  });

  it("a failed test command asks for a focused reproduction", async () => {
    await t.put({ "package.json": JSON.stringify({ scripts: { test: "echo 1 failing; exit 1" } }) });
    const r = await call("shell", { command: "npm test --silent" });
    for (const want of ["exit code ", "Test or verification command failed", "focused reproduction", "Do not repeat the same failing command unchanged"]) {
      expect(r.text).toContain(want);
    }
  });

  it("a test run whose build broke asks for a build-only check first", async () => {
    await t.put({ "package.json": JSON.stringify({ scripts: { test: "echo 'FAIL\texample.com/missing [setup failed]'; exit 1" } }) });
    const r = await call("shell", { command: "npm test --silent" });
    for (const want of ["build failed before tests could run", "build-only check", "Do not re-run the test suite until the build passes"]) {
      expect(r.text).toContain(want);
    }
  });

  it("test-command words in a comment or an argument are not a test run", async () => {
    for (const command of ["printf fail >&2; exit 7 # go test ./...", "printf '%s\\n' 'go test ./...' >&2; exit 7"]) {
      const r = await call("shell", { command });
      expect(r.text).not.toContain("Test or verification command failed");
      expect(r.text.endsWith("The command failed with exit code 7.")).toBe(true);
    }
  });
});

describe("chord descriptions say what the reference pins", () => {
  it("view_image names the formats it sends and that the image may leave the machine", () => {
    const desc = spec("view_image").description;
    expect(desc).toContain("PNG or JPEG");
    expect(desc).toContain("may be sent to a remote provider");
  });

  it("todo_write asks for the list to be brought up to date before the final response", () => {
    const desc = spec("todo_write").description;
    expect(desc).toContain("Before the final response");
    expect(desc).toContain("completed or cancelled");
  });
});

const skillOf = (name: string, description: string) => ({ name, description, dir: `/s/${name}`, file: `/s/${name}/SKILL.md`, origin: "project" });

describe("chord skill: the catalogue within Chord's bounds, the result's note in Chord's words", () => {
  it("at most 32 skills are listed and the rest counted", () => {
    const list = new SkillSession(Array.from({ length: 40 }, (_, i) => skillOf(`skill-${String(i).padStart(2, "0")}`, `Description for skill ${i}`))).catalogue();
    expect(list).toContain("- skill-00: ");
    expect(list).toContain("- skill-31: ");
    expect(list).not.toContain("skill-32");
    expect(list.endsWith("+8 more skills available")).toBe(true);
  });

  it("a long description keeps 1021 characters and ..., counted in characters", () => {
    const atCap = "厂".repeat(1024);
    expect(new SkillSession([skillOf("cjk", atCap)]).catalogue()).toBe(`- cjk: ${atCap}`);
    expect(new SkillSession([skillOf("cjk", "厂".repeat(1025))]).catalogue()).toBe(`- cjk: ${"厂".repeat(1021)}...`);
  });

  it("the list stops at 8 KiB, below the 32-skill cap", () => {
    const list = new SkillSession(Array.from({ length: 100 }, (_, i) => skillOf(`skill-${String(i).padStart(3, "0")}`, "X".repeat(1024)))).catalogue();
    expect(Buffer.byteLength(list)).toBeLessThanOrEqual(8192 + 100);
    expect(list.split("\n").filter((l) => l.startsWith("- ")).length).toBeLessThan(32);
    expect(list).toMatch(/\+\d+ more skills available$/);
  });

  it("a loaded skill carries Chord's note on relative paths", async () => {
    await t.put({ ".yuj/skills/go-expert/SKILL.md": "---\nname: go-expert\ndescription: Go language development expert\n---\n\nRun it.\n" });
    const found = discoverSkills({ projectDir: t.cwd, userConfigDir: join(t.cwd, "no-user"), home: t.cwd, packageDir: join(t.cwd, "no-package"), paths: [] });
    t.ctx.skills = new SkillSession(found.skills);
    const r = await skillTool.run({ name: "go-expert" }, t.ctx);
    expect(r.modelText).toContain(
      "<notes>Relative paths from the skill content resolve against <root>. Read referenced files only when needed; do not guess other entry points if the skill already provides one.</notes>",
    );
  });
});

/** The id from Chord's handle line, found the way Chord's own tests find it. */
function handleId(out: string): string {
  expect(out.startsWith("[background job ")).toBe(true);
  return out.slice("[background job ".length, out.indexOf("]")).trim();
}

describe("chord shell: handles, deadlines, durations and workdirs in Chord's words", () => {
  it("a background start leads with [background job <id>] and says it started in the background", async () => {
    const r = await call("shell", { command: "sh -c 'sleep 30'", run_in_background: true });
    expect(r.text).toContain("started in the background");
    const id = handleId(r.text);
    expect((await call("job_list", {})).text).toContain(id);
    expect(r.text).not.toContain("deadline:");
  });

  it("a command past its foreground budget is handed back with the handle first, naming the budget", async () => {
    const r = await call("shell", { command: "sh -c 'sleep 2'", timeout_ms: 5000, yield_time_ms: 50 });
    expect(r.text).toContain("foreground budget");
    expect(r.text).toContain("50ms foreground budget");
    const id = handleId(r.text);
    expect((await call("job_output", { job_id: id, wait: "none" })).text).toContain("[status: running]");
  });

  it("a timeout steers away from running the same command again", async () => {
    const r = await call("shell", { command: "sh -c 'sleep 2'", timeout_ms: 1000, yield_time_ms: 60000 });
    expect(r.ok).toBe(false);
    expect(r.text).toContain("timed out after 1s");
    expect(r.text).toContain("run_in_background: true");
    expect(r.text).not.toContain("[background job ");
  });

  it("a slow command's duration is whole seconds, failed or not", async () => {
    const r = await call("shell", { command: "sleep 1.1; printf fail >&2; exit 7" });
    expect(r.text).toBe("fail\n[status: failed (exit code 7)]\n(command took 1s)\nThe command failed with exit code 7.");
    expect((await call("shell", { command: "echo quick" })).text).not.toContain("(command took ");
  });

  it("a workdir that is missing or a file is refused before the command starts", async () => {
    await t.put({ "file.txt": "not a directory" });
    for (const [where, want] of [["missing", "path not found"], ["file.txt", "path is not a directory"]] as const) {
      const dir = join(t.cwd, where);
      const r = await call("shell", { command: "pwd > ran.txt", workdir: dir });
      expect(r.ok).toBe(false);
      for (const part of ["invalid workdir", want, dir]) expect(r.text).toContain(part);
    }
    await expect(import("node:fs/promises").then((f) => f.access(join(t.cwd, "ran.txt")))).rejects.toThrow();
  });
});

describe("chord shell and job_kill parameters say what the reference pins", () => {
  const params = (tool: string) => spec(tool).parameters.properties as Record<string, { description?: string }>;

  it("timeout_ms: 0 means no deadline; yield_time_ms: the default, when to use it, what cancelling does", () => {
    const p = params("shell");
    expect(p.timeout_ms!.description).toContain("0 means no deadline");
    for (const want of ["default 90000", "use it when this turn needs the result and the command fits the foreground deadline", "cancelling the turn kills the command"]) {
      expect(p.yield_time_ms!.description).toContain(want);
    }
    expect(p.command!.description).toContain("shell command");
  });

  it("job_kill: SIGTERM, a grace period, no completion notification; job_id is a job id", () => {
    expect(spec("job_kill").description).toContain("SIGTERM");
    expect(spec("job_kill").description).toContain("grace period");
    expect(spec("job_kill").description).toContain("does not produce a completion notification");
    expect(params("job_kill").job_id!.description).toContain("job id");
  });
});

describe("chord job reads: silence in Chord's words, meta lines only", () => {
  it("a cancelled exit wait is only [notice] and [status] lines: cancelled by the caller, still running, no output for …", async () => {
    // A timed-out wait is worded the same way (job-waits-clock.test.ts runs one on the session's clock).
    const id = await background("sleep 30");
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 300);
    const { jobOutputTool } = await import("../../tools/chord/job_output.js");
    const r = await jobOutputTool.run({ job_id: id, wait: "exit" }, { ...t.ctx, signal: ac.signal });
    expect(r.modelText).toContain("[notice] wait: exit was cancelled by the caller; the job is still running, no output for ");
    expect(r.modelText).not.toContain("timed out");
    for (const line of r.modelText.split("\n")) expect(line.startsWith("[status: ") || line.startsWith("[notice] ")).toBe(true);
  });

  it("job_list says quiet after output and no output for … before any", async () => {
    const quiet = await background("echo hi; sleep 30");
    const silent = await background("sleep 30");
    await call("job_output", { job_id: quiet, wait: "output" });
    const list = (await call("job_list", {})).text.split("\n");
    expect(list.find((l) => l.startsWith(`${quiet} |`))).toMatch(/\| quiet \d+s \|/);
    expect(list.find((l) => l.startsWith(`${silent} |`))).toMatch(/\| no output for \d+s \|/);
  });
});

describe("chord read: what path says", () => {
  it("an existing file, not guessed, verified first when uncertain", () => {
    const desc = (spec("read").parameters.properties as Record<string, { description?: string }>).path!.description ?? "";
    for (const want of ["existing file", "Do not guess paths", "verify uncertain paths before reading"]) expect(desc).toContain(want);
  });
});

describe("chord jobs are named by their command's first line", () => {
  it("a multi-line command is listed by its first line, a long one cut with ...(truncated)", async () => {
    const multi = await background("echo first\necho second; sleep 30");
    const long = await background(`sleep 30 # ${"x".repeat(300)}`);
    const rows = (await call("job_list", {})).text.split("\n");
    expect(rows.find((r) => r.startsWith(`${multi} |`))!.endsWith("| echo first")).toBe(true);
    const longRow = rows.find((r) => r.startsWith(`${long} |`))!;
    expect(longRow.endsWith("...(truncated)")).toBe(true);
    expect(longRow.length).toBeLessThan(320);
  });
});
