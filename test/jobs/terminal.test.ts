import { createHash } from "node:crypto";
import * as fsp from "node:fs/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTerminalManager, type TerminalManager } from "../../core/jobs/terminal.js";
import { BoundedText, splitPartialTail } from "../../core/jobs/terminal-text.js";
import { modelText } from "../../core/text/escapes.js";
import { terminalIoTool } from "../../tools/yuj/terminal_io.js";
import { terminalStartTool } from "../../tools/yuj/terminal_start.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

// Anything a terminal could paint with: ESC, BEL, CR, backspace, C1 controls.
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

let t: TestToolContext;
let terminals: TerminalManager;

function useManager(options: { maxInputChars?: number; outputPreviewBytes?: number } = {}) {
  terminals = createTerminalManager({ emit: t.ctx.emit, sessionDir: t.ctx.sessionDir, ...options });
  t.ctx.terminals = terminals;
}

beforeEach(async () => {
  t = await makeToolContext();
  useManager();
});
afterEach(async () => {
  await terminals.shutdown();
  await t.cleanup();
});

const start = (cmd: string) => terminalStartTool.run({ cmd }, t.ctx);
const io = (args: Omit<Parameters<typeof terminalIoTool.run>[0], "terminal_id">, id = "t1") =>
  terminalIoTool.run({ terminal_id: id, ...args }, t.ctx);

/** The `--- output ---` section of a result. */
const outputOf = (text: string) => text.slice(text.indexOf("--- output ---\n") + "--- output ---\n".length);

describe("terminal_start / terminal_io", () => {
  it("runs an interactive bash and returns clean new output", async () => {
    const started = await start("bash --norc -i");
    expect(started.ok).toBe(true);
    expect(started.modelText).toMatch(/^terminal_id: t1\nstatus: running\n--- output ---\n/);
    expect(t.events[0]).toMatchObject({ type: "terminal_started", terminalId: "t1", command: "bash --norc -i" });

    const res = await io({ input: "echo $((6*7))" });
    expect(res.ok).toBe(true);
    expect(res.modelText).toMatch(/^terminal_id: t1\nstatus: running\n/);
    expect(outputOf(res.modelText)).toMatch(/^42$/m);
    expect(res.modelText).not.toMatch(CONTROL);

    // Only what is new: a bare read after the exchange has nothing more.
    const again = await io({ timeout_s: 0.5 });
    expect(outputOf(again.modelText)).toBe("(no new output)");
  });

  it("runs python3 -i", async () => {
    await start("python3 -i");
    const res = await io({ input: "print(6*7)" });
    expect(outputOf(res.modelText)).toMatch(/^42$/m);
    expect(res.modelText).not.toMatch(CONTROL);
  });

  it("refuses a second terminal while one is live, and allows one after terminate", async () => {
    await start("bash --norc -i");
    const second = await start("bash --norc -i");
    expect(second.ok).toBe(false);
    expect(second.modelText).toBe(
      "ERROR: a terminal is already running (terminal_id t1); stop it with terminal_io terminate=true first",
    );

    const stopped = await io({ terminate: true });
    expect(stopped.ok).toBe(true);
    expect(stopped.modelText).toMatch(/^terminal_id: t1\nstatus: exited \((signal SIG[A-Z]+|\d+); reason=explicit\)\n/);
    expect(t.events.some((e) => e.type === "terminal_exited" && e.terminalId === "t1")).toBe(true);

    const third = await start("bash --norc -i");
    expect(third.modelText).toMatch(/^terminal_id: t2\nstatus: running/);
  });

  it("terminate also stops the program the shell is running", async () => {
    // A duration no other test uses, so a sleep of a test running beside this one is never counted.
    const duration = `${300 + (process.pid % 1000)}.${Date.now() % 1000}`;
    const running = async () => {
      const left = (await fsp.readdir("/proc")).filter((p) => /^\d+$/.test(p));
      const cmdlines = await Promise.all(left.map((p) => fsp.readFile(`/proc/${p}/cmdline`, "utf8").catch(() => "")));
      return cmdlines.includes(`sleep\u0000${duration}\u0000`);
    };
    await start("bash --norc -i");
    await io({ input: `sleep ${duration}`, timeout_s: 0.5 });
    const end = Date.now() + 10_000;
    while (!(await running()) && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    expect(await running(), "the program runs before terminate").toBe(true);
    const res = await io({ terminate: true });
    expect(res.modelText).toMatch(/status: exited/);
    expect(await running()).toBe(false);
  });

  it("refuses input over the limit and sends nothing", async () => {
    useManager({ maxInputChars: 32 });
    await start("bash --norc -i");
    const input = `echo ${"x".repeat(40)}`;
    const res = await io({ input });
    expect(res.ok).toBe(false);
    expect(res.modelText).toBe("ERROR: input is 45 characters, over the 32-character limit; nothing was sent. Send it in smaller parts");
    expect(t.events.some((e) => e.type === "terminal_input")).toBe(false);
    const after = await io({ timeout_s: 0.5 });
    expect(after.modelText).not.toContain("xxxx");
  });

  it("reports the exit code once the process exits by itself", async () => {
    await start("bash --norc -i");
    const res = await io({ input: "exit 7", timeout_s: 5 });
    expect(res.modelText).toMatch(/^terminal_id: t1\nstatus: exited \(7; reason=process_exit\)\n/);
    expect(t.events.at(-1)).toMatchObject({ type: "terminal_exited", terminalId: "t1", exitCode: 7, signal: null });
    // The exited terminal can still be asked, but takes no input; a new one may start.
    expect((await io({ timeout_s: 0 })).modelText).toMatch(/status: exited \(7; reason=process_exit\)/);
    expect((await io({ input: "echo hi" })).modelText).toMatch(/^ERROR: terminal t1 has exited/);
    expect((await start("bash --norc -i")).ok).toBe(true);
  });

  it("records input by hash and size only", async () => {
    await start("bash --norc -i");
    const secret = "echo s3cr3t-$((6*7))";
    await io({ input: secret });
    const event = t.events.find((e) => e.type === "terminal_input");
    const sent = `${secret}\r`;
    expect(event).toEqual({
      type: "terminal_input",
      terminalId: "t1",
      sha256: createHash("sha256").update(sent).digest("hex"),
      bytes: Buffer.byteLength(sent),
    });
    expect(JSON.stringify(event)).not.toContain("s3cr3t");
  });

  it("keeps the raw stream in <sessionDir>/terminal/<id>.log", async () => {
    await start("bash --norc -i");
    await io({ input: "printf '\\033[31mred\\033[0m\\n'" });
    await io({ terminate: true });
    const log = await fsp.readFile(`${t.ctx.sessionDir}/terminal/t1.log`, "utf8");
    expect(log).toContain("\x1b[31mred\x1b[0m\r\n");
  });

  it("bounds a large burst to head and tail and counts exactly what it left out", async () => {
    useManager({ outputPreviewBytes: 2000 });
    const res = await terminals.start("seq 1 20000", t.cwd);
    if (!res.ok) throw new Error(res.error);
    const { text, omittedBytes } = res.read;
    const marker = `[... ${omittedBytes} bytes of output left out ...]\n`;
    const [head, tail] = text.split(marker) as [string, string];
    const full = modelText(await fsp.readFile(res.read.logFile, "utf8"));
    expect(full.startsWith(head)).toBe(true);
    expect(full.endsWith(tail)).toBe(true);
    expect(tail.endsWith("19999\n20000\n")).toBe(true);
    expect(Buffer.byteLength(head) + Buffer.byteLength(tail) + omittedBytes).toBe(Buffer.byteLength(full));
    expect(Buffer.byteLength(head) + Buffer.byteLength(tail)).toBeLessThanOrEqual(2000);
  });

  it("rejects bad combinations and unknown ids", async () => {
    expect((await io({ timeout_s: 0 }, "t9")).modelText).toBe(
      'ERROR: unknown terminal_id "t9" (no terminal is running; start one with terminal_start)',
    );
    await start("bash --norc -i");
    expect((await io({ timeout_s: 0 }, "t9")).modelText).toBe('ERROR: unknown terminal_id "t9" (the live terminal is t1)');
    const both = await io({ input: "exit", terminate: true });
    expect(both.ok).toBe(false);
    expect(both.modelText).toMatch(/^ERROR: cannot send input and terminate in one call/);
  });

  it("a cancelled wait leaves the terminal running and its output unread", async () => {
    await start("bash --norc -i");
    setTimeout(() => t.abort.abort(), 200);
    const res = await io({ timeout_s: 10 });
    expect(res.modelText).toBe("ERROR: cancelled; terminal t1 keeps running and its output stays unread");
    const next = await terminals.io("t1", { input: "echo $((40+2))", timeoutMs: 2000 });
    expect(next.ok && next.read.status.state === "running" && /^42$/m.test(next.read.text)).toBe(true);
  });

  it("shutdown kills the live terminal", async () => {
    await start("bash --norc -i");
    expect(terminals.liveId()).toBe("t1");
    await terminals.shutdown();
    expect(terminals.liveId()).toBeUndefined();
    expect(t.events.some((e) => e.type === "terminal_exited")).toBe(true);
  });

  it("is unavailable without a terminal manager", async () => {
    delete t.ctx.terminals;
    expect((await start("bash")).modelText).toBe("ERROR: interactive terminals are not available in this session");
    expect((await io({})).modelText).toBe("ERROR: interactive terminals are not available in this session");
  });
});

describe("terminal text", () => {
  it("strips escapes, keeps a redraw's last state, shows control characters and normalises line ends", () => {
    expect(modelText("\x1b[?2004hbash$ ls\r\n\x1b[1;32mok\x1b[0m\r\n10%\r20%\x07\t!\n")).toBe(
      "bash$ ls\nok\n20%␇\t!\n",
    );
  });

  it("holds back an escape sequence or \\r cut at the end of a read", () => {
    expect(splitPartialTail("abc\x1b[31")).toEqual(["abc", "\x1b[31"]);
    expect(splitPartialTail("abc\r")).toEqual(["abc", "\r"]);
    expect(splitPartialTail("abc\x1b[31mdef")).toEqual(["abc\x1b[31mdef", ""]);
  });

  it("keeps everything within budget and counts bytes exactly past it, on character boundaries", () => {
    const small = new BoundedText(100);
    small.push("é".repeat(50));
    expect(small.take()).toEqual({ text: "é".repeat(50), omittedBytes: 0 });

    const big = new BoundedText(10);
    big.push("ééééé"); // 10 bytes: the head holds 4, the tail 6
    big.push("abc");
    const { text, omittedBytes } = big.take();
    // 13 bytes in; the tail's first byte is half an "é", so it is counted as left out too.
    expect(text).toBe("éé\n[... 4 bytes of output left out ...]\néabc");
    expect(omittedBytes).toBe(4);
    expect(big.size).toBe(0);
  });
});
