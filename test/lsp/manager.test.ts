// The session's LSP manager with a small real stdio server of the tests'
// own (fixtures/probe-server.mjs), configured like any server a user adds:
// the sandbox with the project read-only, the answer to
// workspace/configuration, initialization options, timeouts that are
// reported, a server that dies, one that cannot start, idle stops.

import * as fs from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { bwrapRequired, bwrapStatus } from "../sandbox/support.js";
import { makeLspHarness, PROBE_SERVER, processesIn, states, until, type LspHarness } from "./support.js";
import type { Config } from "../../core/config/schema.js";
import { fakeClock, type FakeClock } from "../support/fake-clock.js";

const noBwrap = !bwrapStatus.usable && !bwrapRequired;

let h: LspHarness | undefined;
let clock: FakeClock | undefined;
afterEach(async () => {
  clock?.release();
  clock = undefined;
  await h?.close();
  h = undefined;
});

function probe(config: Config, options: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  config.lsp.servers.probe = {
    command: [process.execPath, PROBE_SERVER],
    extensions: [".probe"],
    initialization_options: options,
    enabled: true,
    ...extra,
  };
}

const message = (a: Awaited<ReturnType<LspHarness["check"]>>) => (a.kind === "ok" ? (a.value.diagnostics[0]?.message ?? "") : `(${a.kind})`);

describe("a configured stdio server", () => {
  it.skipIf(noBwrap)("runs in the sandbox with the project read-only, answered workspace/configuration with nulls", async () => {
    h = makeLspHarness((c) => {
      c.sandbox.mode = "on";
      probe(c, { versioned: true, flavour: "mint" });
    });
    h.put({ "x.probe": "hello\n" });
    const got = message(await h.check("x.probe"));
    expect(got).toContain("write=EROFS");
    expect(got).toContain("config=[null,null]");
    expect(got).toContain('init={"versioned":true,"flavour":"mint"}');
    expect(fs.existsSync(h.abs("written-by-server.txt"))).toBe(false);
    // Inside its own pid namespace the server's parent is bwrap's init, not yuj.
    expect(got).not.toContain(`ppid=${process.pid}`);
  }, 30_000);

  it("without the sandbox runs as the user, and is answered whether or not it numbers its publications", async () => {
    h = makeLspHarness((c) => probe(c, {}));
    h.put({ "x.probe": "hello\n" });
    expect(message(await h.check("x.probe"))).toContain("write=ok");
    expect(message(await h.check("x.probe"))).toContain("config=[null,null]");
    expect(states(h.events, "probe")).toEqual(["starting", "ready"]);
  }, 30_000);

  it("waits out a publication that a fuller one follows: an empty first part is not the answer", async () => {
    // Each open: no diagnostics at once, the real one 150 ms later. Taking the
    // first publication of two rounds would settle on "none".
    h = makeLspHarness((c) => probe(c, { inPartsMs: 150 }));
    h.put({ "x.probe": "hello\n" });
    const answer = await h.check("x.probe");
    expect(answer).toMatchObject({ kind: "ok", value: { settled: true } });
    expect(message(answer)).toContain("write=ok");
  }, 30_000);

  it("reports a server that never publishes as a timeout, at [lsp].timeout_s and not before", async () => {
    clock = fakeClock();
    h = makeLspHarness((c) => probe(c, { silent: true }), undefined, { clock });
    const timeoutMs = h.config.lsp.timeout_s * 1000;
    h.put({ "x.probe": "hello\n" });
    let answer: Awaited<ReturnType<LspHarness["check"]>> | undefined;
    const checking = h.check("x.probe").then((a) => (answer = a));
    // The server answered initialize (in real time); the wait for its diagnostics has begun.
    expect(await until(() => clock!.waiting(timeoutMs) && states(h!.events, "probe").includes("ready"))).toBe(true);
    await clock.advance(timeoutMs - 1);
    expect(answer).toBeUndefined();
    await clock.advance(1);
    await checking;
    expect(answer).toMatchObject({ kind: "timeout", server: "probe", ms: timeoutMs });
  }, 30_000);

  it("reports a server that died, and starts it again on the next use", async () => {
    h = makeLspHarness((c) => probe(c, { exitOnOpen: true }));
    h.put({ "x.probe": "hello\n" });
    const first = await h.check("x.probe");
    expect(first.kind).toBe("failed");
    expect(first.kind === "failed" && first.reason).toMatch(/the server ended \(exit code 3\)/);
    await until(() => states(h!.events, "probe").includes("failed"));
    await h.check("x.probe");
    expect(states(h.events, "probe").filter((s) => s === "starting")).toHaveLength(2);
  }, 30_000);

  it("names a command that cannot be found, once, and does not try it again on every edit", async () => {
    h = makeLspHarness((c) => probe(c, {}, { command: ["no-such-language-server-xyz", "--stdio"] }));
    h.put({ "x.probe": "hello\n" });
    const first = await h.check("x.probe");
    expect(first).toMatchObject({ kind: "failed", server: "probe" });
    expect(first.kind === "failed" && first.reason).toMatch(/probe could not start: no-such-language-server-xyz was not found in .*node_modules\/\.bin or PATH/);
    const second = await h.check("x.probe");
    expect(second.kind === "failed" && second.reason).toMatch(/could not start earlier in this session/);
    expect(states(h.events, "probe")).toEqual(["starting", "failed"]);
  }, 30_000);

  it("stops a server left idle for [lsp].idle_timeout_s, not a moment before, and nothing of it stays", async () => {
    clock = fakeClock();
    h = makeLspHarness((c) => probe(c, { versioned: true }), undefined, { clock });
    const idleMs = h.config.lsp.idle_timeout_s * 1000;
    h.put({ "x.probe": "hello\n" });
    await h.check("x.probe");
    expect(processesIn(h.project)).toHaveLength(1);
    await clock.advance(idleMs - 1);
    expect(states(h.events, "probe")).not.toContain("stopped");
    await clock.advance(1);
    // Stopping it (the shutdown request, the grace before a kill) runs in real time.
    clock.release();
    expect(await until(() => states(h!.events, "probe").includes("stopped"), 10_000)).toBe(true);
    expect(await until(() => processesIn(h!.project).length === 0)).toBe(true);
    const stopped = h.events.find((e) => e.type === "lsp_server" && e.state === "stopped");
    expect(stopped).toMatchObject({ detail: "idle" });
  }, 30_000);

  it("serves nothing it was not configured for, and a built-in can be turned off", async () => {
    h = makeLspHarness((c) => {
      c.lsp.servers.pyright = { enabled: false };
    });
    h.put({ "notes.txt": "x\n", "a.py": "x = 1\n" });
    expect(await h.check("notes.txt")).toEqual({ kind: "none" });
    expect(await h.check("a.py")).toEqual({ kind: "none" });
    expect(h.lsp.servers.map((s) => s.name)).toEqual(["typescript"]);
  });
});
