import * as fsp from "node:fs/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { bashTool, exitMeaning } from "../../tools/yuj/bash.js";
import { collapseBlankLines, collapseDuplicateLines } from "../../tools/lib/output-filters.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
});
afterEach(() => t.cleanup());

const bash = (cmd: string, background?: boolean) =>
  bashTool.run(background === undefined ? { cmd } : { cmd, background }, t.ctx);

/** Alive means running or sleeping; a zombie has already died. */
async function alive(pid: number): Promise<boolean> {
  try {
    const stat = await fsp.readFile(`/proc/${pid}/stat`, "utf8");
    return !/^\d+ \(.*\) [ZX]/.test(stat);
  } catch {
    return false;
  }
}

async function findProcesses(cmdline: string): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await fsp.readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const cmd = await fsp.readFile(`/proc/${entry}/cmdline`, "utf8").catch(() => "");
    if (cmd === cmdline && (await alive(Number(entry)))) pids.push(Number(entry));
  }
  return pids;
}

async function waitDead(pids: number[], ms = 4000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const states = await Promise.all(pids.map(alive));
    if (!states.some(Boolean)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

describe("bash", () => {
  it("runs in cwd and returns the output without a trailing newline", async () => {
    await t.put({ "here.txt": "" });
    expect(await bash("ls && pwd")).toMatchObject({ ok: true, modelText: `here.txt\n${await fsp.realpath(t.cwd)}` });
  });

  it("combines stdout and stderr in arrival order", async () => {
    const r = await bash("echo one; sleep 0.05; echo two >&2; sleep 0.05; echo three");
    expect(r.modelText).toBe("one\ntwo\nthree");
  });

  it("says when a command produced no output", async () => {
    expect(await bash("true")).toMatchObject({ ok: true, modelText: "(command produced no output)" });
    expect((await bash("printf '\\n\\n'")).modelText).toBe("(command produced no output)");
  });

  it("appends the exit code on failure", async () => {
    expect(await bash("echo oops; exit 3")).toMatchObject({ ok: false, modelText: "oops\n[exit code: 3]" });
    expect(await bash("exit 2")).toMatchObject({ ok: false, modelText: "[exit code: 2]" });
  });

  it("uses pipefail", async () => {
    expect((await bash("false | cat")).modelText).toBe("[exit code: 1]");
  });

  it("explains exit 1 for single-verb commands", async () => {
    await t.put({ "a.txt": "a\n", "b.txt": "b\n" });
    expect((await bash("grep zebra a.txt")).modelText).toBe("[exit code: 1 — no matches]");
    expect((await bash("cmp -s a.txt b.txt")).modelText).toBe("[exit code: 1 — files differ]");
    expect((await bash("test -e nope")).modelText).toBe("[exit code: 1 — condition is false]");
    expect((await bash("[ -e nope ]")).modelText).toBe("[exit code: 1 — condition is false]");
    expect((await bash("grep zebra a.txt | cat")).modelText).toBe("[exit code: 1]");
  });

  it("knows which commands are single-verb", () => {
    expect(exitMeaning("LC_ALL=C grep -q 'a|b' f", 1)).toBe("no matches");
    expect(exitMeaning("/usr/bin/diff a b", 1)).toBe("files differ");
    expect(exitMeaning("find . -name x", 1)).toBe("errors during traversal (consult stderr)");
    expect(exitMeaning("cd x && grep y", 1)).toBeUndefined();
    expect(exitMeaning("grep $(echo y) f", 1)).toBeUndefined();
    expect(exitMeaning("grep y f", 2)).toBeUndefined();
    expect(exitMeaning("python t.py", 1)).toBeUndefined();
  });

  it("gives the command EOF on stdin", async () => {
    const r = await bash("read line; echo \"rc=$? line=[$line]\"");
    expect(r.modelText).toBe("rc=1 line=[]");
    expect((await bash("cat")).modelText).toBe("(command produced no output)");
  });

  it("does not call a command's end leftovers while its output is still being drained", async () => {
    // The setsid'd sleep leaves the group at once but holds the output pipe
    // open: the group is gone, so nothing was left behind in it.
    const r = await bash("setsid sleep 2 & echo done");
    expect(r.modelText).toBe("done");
  });

  it("sets a non-interactive environment", async () => {
    const r = await bash('echo "$PAGER $GIT_PAGER $TERM $NO_COLOR"');
    expect(r.modelText).toBe("cat cat dumb 1");
  });

  it("applies the output filters", async () => {
    const r = await bash("printf '\\033[31mred\\033[0m\\n\\n\\n\\n\\nx\\nx\\nx\\ny\\n'");
    expect(r.modelText).toBe("red\n\n\nx [×3]\ny");
    t.ctx.config.tools.strip_ansi = false;
    t.ctx.config.tools.collapse_blank_lines = false;
    t.ctx.config.tools.collapse_duplicate_lines = false;
    const raw = await bash("printf '\\033[31mred\\033[0m\\n\\n\\n\\n\\nx\\nx\\n'");
    // Unstripped, an escape sequence reaches the model as visible text, never raw.
    expect(raw.modelText).toBe("␛[31mred␛[0m\n\n\n\n\nx\nx");
  });

  it("times out and kills the whole process group", async () => {
    t.ctx.config.tools.bash_timeout = 1;
    const pidFile = `${t.cwd}/pids`;
    const started = Date.now();
    const r = await bash(`sleep 100 & echo $! > ${pidFile}; sleep 100 & echo $! >> ${pidFile}; wait`);
    expect(r.ok).toBe(false);
    expect(r.modelText).toBe("ERROR: command timed out after 1s");
    expect(Date.now() - started).toBeLessThan(5000);
    const pids = (await fsp.readFile(pidFile, "utf8")).trim().split("\n").map(Number);
    expect(pids).toHaveLength(2);
    expect(await waitDead(pids)).toBe(true);
  });

  it("times out on `sleep 100 & sleep 100` and both sleeps die", async () => {
    // Long enough for both sleeps to be seen running on a loaded machine.
    t.ctx.config.tools.bash_timeout = 3;
    // A unique duration lets the test find exactly these two processes.
    const secs = `100.${process.pid}${Math.floor(Math.random() * 1000)}`;
    const running = bash(`sleep ${secs} & sleep ${secs}`);
    let pids: number[] = [];
    for (let tries = 0; tries < 100 && pids.length < 2; tries++) {
      await new Promise((r) => setTimeout(r, 25));
      pids = await findProcesses(`sleep\0${secs}\0`);
    }
    expect(pids).toHaveLength(2);
    expect((await running).modelText).toBe("ERROR: command timed out after 3s");
    expect(await waitDead(pids)).toBe(true);
  });

  it("kills the process group on abort and reports the cancel", async () => {
    const pidFile = `${t.cwd}/pids`;
    setTimeout(() => t.abort.abort(), 300);
    const started = Date.now();
    const r = await bash(`sleep 100 & echo $! > ${pidFile}; sleep 100 & echo $! >> ${pidFile}; wait`);
    expect(r).toMatchObject({ ok: false, modelText: "ERROR: command cancelled" });
    expect(Date.now() - started).toBeLessThan(4000);
    const pids = (await fsp.readFile(pidFile, "utf8")).trim().split("\n").map(Number);
    expect(await waitDead(pids)).toBe(true);
  });

  it("escalates to SIGKILL when the group ignores SIGTERM", async () => {
    const pidFile = `${t.cwd}/pid`;
    setTimeout(() => t.abort.abort(), 300);
    const r = await bash(`trap '' TERM; echo $$ > ${pidFile}; while :; do sleep 0.1; done`);
    expect(r.modelText).toBe("ERROR: command cancelled");
    const pid = Number((await fsp.readFile(pidFile, "utf8")).trim());
    expect(await waitDead([pid])).toBe(true);
  });

  it("does not hang on a leftover background job holding the pipes", async () => {
    const pidFile = `${t.cwd}/pid`;
    const started = Date.now();
    const r = await bash(`sleep 100 & echo $! > ${pidFile}; echo started`);
    expect(r.ok).toBe(true);
    expect(r.modelText).toBe(
      "started\n[processes the command left running in the background were stopped; background work is disabled]",
    );
    expect(Date.now() - started).toBeLessThan(4000);
    const pid = Number((await fsp.readFile(pidFile, "utf8")).trim());
    expect(await waitDead([pid])).toBe(true);
  });

  it("returns at once when already cancelled", async () => {
    t.abort.abort();
    expect(await bash("echo hi")).toMatchObject({ ok: false, modelText: "ERROR: command cancelled" });
  });

  it("refuses background commands for now", async () => {
    expect(await bash("sleep 1", true)).toMatchObject({
      ok: false,
      modelText: "ERROR: background commands are disabled (set [tools].background_enabled = true)",
    });
  });

  it("shows large output as head and tail with the exact omission and the saved file", async () => {
    const r = await bash("seq 1 200000");
    expect(r.ok).toBe(true);
    const text = r.modelText;
    expect(text.startsWith("1\n2\n3\n")).toBe(true);
    expect(text).toContain("\n199999\n200000\n<tool_result_meta");
    const total = Buffer.byteLength(Array.from({ length: 200000 }, (_, i) => `${i + 1}\n`).join(""));
    const m = /\.\.\. \[body truncated: (\d+) of (\d+) bytes omitted — full output available via full_path attribute\] \.\.\./.exec(text)!;
    expect(Number(m[2])).toBe(total);
    const [head, tail] = text.split(m[0]);
    const tailBody = tail!.slice(1, tail!.indexOf("\n<tool_result_meta") + 1);
    expect(Number(m[1])).toBe(total - Buffer.byteLength(head!) - Buffer.byteLength(tailBody));
    const meta = /<tool_result_meta truncated="true" original_bytes="(\d+)" original_lines="(\d+)" full_path="([^"]+)"\/>/.exec(text)!;
    expect(meta.slice(1, 3)).toEqual([String(total), "200000"]);
    expect((await fsp.readFile(meta[3]!, "utf8")).split("\n")).toHaveLength(200001);
  });
});

describe("output filters", () => {
  it("collapses 3+ blank lines to 2", () => {
    expect(collapseBlankLines("a\n\n\n\n\nb\n\nc")).toBe("a\n\n\nb\n\nc");
  });

  it("collapses runs of identical non-blank lines", () => {
    expect(collapseDuplicateLines("a\na\nb\nc\nc\nc\n\n\nd")).toBe("a [×2]\nb\nc [×3]\n\n\nd");
  });
});
