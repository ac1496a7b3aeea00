// Yuj's interactive terminal against what the reference system pins in its
// own tests: a real pseudo-terminal running real programs, checked through
// terminal_start / terminal_io by the text the model reads.

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { configSchema } from "../../core/config/schema.js";
import { createTerminalManager, type TerminalManager } from "../../core/jobs/terminal.js";
import { terminalIoTool } from "../../tools/yuj/terminal_io.js";
import { terminalStartTool } from "../../tools/yuj/terminal_start.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
let terminals: TerminalManager;

function useManager(limits: { maxInputChars?: number; maxLifetimeMs?: number } = {}) {
  terminals = createTerminalManager({ emit: t.ctx.emit, sessionDir: t.ctx.sessionDir, ...limits });
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

const python = (source: string) => `python3 -u -c ${JSON.stringify(source)}`;
const start = (cmd: string) => terminalStartTool.run({ cmd }, t.ctx);
const io = (args: Omit<Parameters<typeof terminalIoTool.run>[0], "terminal_id">) => terminalIoTool.run({ terminal_id: "t1", ...args }, t.ctx);

/** Reads until `needle` shows and the process has exited, or the tries run out. */
async function readUntilExited(needle: string, before = ""): Promise<string> {
  let seen = before;
  if (seen.includes(needle) && /status: exited/.test(seen)) return seen;
  for (let i = 0; i < 20; i++) {
    const r = await io({ timeout_s: 0.5 });
    seen += r.modelText;
    if (seen.includes(needle) && /status: exited/.test(r.modelText)) return seen;
  }
  throw new Error(`never saw ${needle} and an exit: ${seen}`);
}

describe("yuj terminal, as the reference pins it", () => {
  it("the program gets a terminal, reads a line the model sends, and its exit code and reason are named", async () => {
    const first = await start(python("import os,sys; print(f'tty={os.isatty(0)},{os.isatty(1)}'); print('name?'); name=input(); print('hello '+name); sys.exit(7)"));
    expect(first.ok, first.modelText).toBe(true);
    let seen = first.modelText;
    if (!seen.includes("name?")) seen += (await io({ timeout_s: 2 })).modelText;
    expect(seen).toContain("tty=True,True");
    expect(seen).toContain("name?");
    const answered = await io({ input: "Ada" });
    const all = await readUntilExited("hello Ada", answered.modelText);
    expect(all).toContain("hello Ada");
    expect(all).toContain("exited (7; reason=process_exit)");
  });

  it("one live terminal at a time", async () => {
    await start("sleep 30");
    const second = await start("sleep 30");
    expect(second.ok).toBe(false);
    expect(second.modelText).toContain("already running");
  });

  it("the input bound counts characters, not bytes, and a refused input sends nothing", async () => {
    useManager({ maxInputChars: 4 });
    await start("cat");
    const over = await io({ input: "12345" });
    expect(over.ok).toBe(false);
    expect(over.modelText).toContain("character limit");
    expect(t.events.some((e) => e.type === "terminal_input")).toBe(false);
    // Four characters of two bytes each are within the bound.
    const within = await io({ input: "éééé" });
    expect(within.ok, within.modelText).toBe(true);
    expect(within.modelText).toContain("éééé");
  });

  it("input and terminate together are refused; terminate alone stops it and says so", async () => {
    await start(python("import time; print('ready'); time.sleep(30)"));
    const both = await io({ input: "x", terminate: true });
    expect(both.ok).toBe(false);
    expect(both.modelText).toContain("cannot send input and terminate");
    const final = await io({ terminate: true });
    expect(final.modelText).toContain("exited");
    expect(final.modelText).toContain("reason=explicit");
  });

  it("a terminal past its lifetime is stopped and the reason named", async () => {
    useManager({ maxLifetimeMs: 300 });
    await start("sleep 30");
    const all = await readUntilExited("reason=lifetime_timeout");
    expect(all).toContain("reason=lifetime_timeout");
  });

  it.each<[string, Record<string, unknown>]>([
    ["terminal_max_lifetime = 0", { terminal_max_lifetime: 0 }],
    ["terminal_max_lifetime = -1", { terminal_max_lifetime: -1 }],
    ["terminal_max_input_chars = 1.5", { terminal_max_input_chars: 1.5 }],
    ["terminal_max_input_chars = 0", { terminal_max_input_chars: 0 }],
  ])("config %s is refused by name", (_name, tools) => {
    const parsed = configSchema.safeParse({ tools });
    expect(parsed.success).toBe(false);
    expect(JSON.stringify(parsed.error?.issues)).toContain(Object.keys(tools)[0]);
  });

  it("the bounds default to 900 seconds and 16384 characters", () => {
    const tools = configSchema.parse({}).tools;
    expect(tools.terminal_max_lifetime).toBe(900);
    expect(tools.terminal_max_input_chars).toBe(16_384);
  });
});
