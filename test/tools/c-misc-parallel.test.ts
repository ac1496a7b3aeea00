// Which calls of one response run together on the Chord surface, as Chord's
// concurrency tests pin them: a shell command that only looks (`git status`,
// `ls`) and a page fetch batch with reads; a command that may change
// anything runs alone, after the calls before it and before those after it.
// The real shell and web_fetch handlers run (a local HTTP server answers the
// fetch); each is wrapped only to note when it starts and ends, beside a read
// made slow so that an overlap cannot be missed.

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defaultConfig } from "../../core/config/schema.js";
import type { ToolHandler } from "../../core/tool-types.js";
import { shellTool } from "../../tools/chord/shell.js";
import { webFetchTool } from "../../tools/shared/web_fetch.js";
import { chordToolset, runScenario } from "../support/loop-harness.js";

let server: Server;
let base: string;
beforeAll(async () => {
  // The page answers after 150 ms, so a read beside it is still running when it does.
  server = createServer((_req, res) => setTimeout(() => res.writeHead(200, { "content-type": "text/plain; charset=utf-8" }).end("page body"), 150));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

function observed(log: string[], tag: string, handler: ToolHandler): ToolHandler {
  return {
    ...handler,
    async run(args, ctx) {
      log.push(`start ${tag}`);
      const result = await handler.run(args as never, ctx);
      log.push(`end ${tag}`);
      return result;
    },
  };
}

/** A read that takes 1 s (time for a command to start and end even on a busy machine) and says which call it was. */
function slowRead(log: string[]): ToolHandler {
  return {
    id: "read",
    effects: new Set(["inspect"]),
    view: { card: "foldable" },
    schema: z.object({ path: z.string() }),
    async run(raw) {
      const { path } = raw as { path: string };
      log.push(`start read ${path}`);
      await new Promise((r) => setTimeout(r, 1000));
      log.push(`end read ${path}`);
      return { ok: true, modelText: path };
    },
  };
}

function surface(log: string[]) {
  const config = defaultConfig();
  // The server is on loopback: only a rule naming it lets web_fetch reach it.
  config.permissions.rules.push({ tool: "web_fetch", pattern: "127.0.0.1:*", action: "allow" } as (typeof config.permissions.rules)[number]);
  const toolset = chordToolset(config);
  toolset.tools.get("read")!.handler = slowRead(log);
  toolset.tools.get("shell")!.handler = observed(log, "shell", shellTool as unknown as ToolHandler);
  toolset.tools.get("web_fetch")!.handler = observed(log, "web_fetch", webFetchTool as unknown as ToolHandler);
  return { config, toolset };
}

const call = (name: string, args: Record<string, unknown>) => ({ name, arguments: args });

describe("chord: which calls of one response run together", () => {
  it("a command that only looks runs beside the reads around it, and its result is the command's", async () => {
    const log: string[] = [];
    const run = await runScenario(
      { turns: [{ tool_calls: [call("read", { path: "a.txt" }), call("shell", { command: "ls src" }), call("read", { path: "b.txt" })] }, { text: "ok" }] },
      surface(log),
    );
    expect(run.outcome.reason).toBe("answered");
    // All three start before the first read ends; the quick listing ends first.
    expect(log.slice(0, 3).sort()).toEqual(["start read a.txt", "start read b.txt", "start shell"]);
    expect(log[3]).toBe("end shell");
    const texts = run.history.filter((h) => h.role === "tool").map((h) => (h.role === "tool" ? h.text : ""));
    expect(texts[0]).toBe("a.txt");
    expect(texts[1]).toContain("greet.js");
    expect(texts[2]).toBe("b.txt");
  });

  it("a command that may change files runs alone: after the read before it, before the read after it", async () => {
    const log: string[] = [];
    const run = await runScenario(
      { turns: [{ tool_calls: [call("read", { path: "a.txt" }), call("shell", { command: "touch made.txt" }), call("read", { path: "b.txt" })] }, { text: "ok" }] },
      surface(log),
    );
    expect(run.outcome.reason).toBe("answered");
    expect(log).toEqual(["start read a.txt", "end read a.txt", "start shell", "end shell", "start read b.txt", "end read b.txt"]);
    expect(existsSync(join(run.cwd, "made.txt"))).toBe(true);
  });

  it("git status and a pipeline of looks batch with reads; a redirect into a file does not", async () => {
    const log: string[] = [];
    await runScenario(
      {
        turns: [
          {
            tool_calls: [
              call("read", { path: "a.txt" }),
              call("shell", { command: "git status --short; ls | wc -l" }),
              call("shell", { command: "echo x > out.txt" }),
            ],
          },
          { text: "ok" },
        ],
      },
      surface(log),
    );
    expect(log.slice(0, 2).sort()).toEqual(["start read a.txt", "start shell"]);
    expect(log.slice(2)).toEqual(["end shell", "end read a.txt", "start shell", "end shell"]);
  });

  it("a page fetch runs beside a read; the fetched page is the fetch's result", async () => {
    const log: string[] = [];
    const run = await runScenario(
      { turns: [{ tool_calls: [call("web_fetch", { url: `${base}/page` }), call("read", { path: "a.txt" })] }, { text: "ok" }] },
      surface(log),
    );
    // Both start before either ends (the first fetch also loads the page renderer, so which ends first varies).
    expect(log.slice(0, 2).sort()).toEqual(["start read a.txt", "start web_fetch"]);
    const fetched = run.history.find((h) => h.role === "tool");
    expect(fetched?.role === "tool" && fetched.text).toContain(`URL: ${base}/page\n`);
    expect(fetched?.role === "tool" && fetched.text).toMatch(/\n\npage body$/);
  });
});
