// The stdio transport over a real server process: a write into a server that
// has already closed its input (it is about to exit, saying why on stderr)
// fails only once the exit is known, so the connection reports the exit code
// and stderr rather than a bare EPIPE.

import { afterEach, describe, expect, it } from "vitest";
import { spawnServer, type ServerProcess } from "../../core/lsp/process.js";
import { ProcessTransport } from "../../core/mcp/stdio-transport.js";
import { systemClock } from "../../core/services.js";

const started: ServerProcess[] = [];
afterEach(async () => {
  for (const p of started.splice(0)) await p.stop(100, systemClock);
});

describe("the MCP stdio transport", () => {
  it("a write that breaks the pipe rejects after the server's exit is known", async () => {
    const proc = spawnServer({
      argv: ["/bin/sh", "-c", "exec 0<&-; echo 'missing API key' >&2; sleep 0.5; exit 2"],
      cwd: process.cwd(),
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
      searchDirs: [],
    });
    if ("error" in proc) throw new Error(proc.error);
    started.push(proc);
    // Give the shell time to close its input, so the write below meets a closed pipe.
    await new Promise((r) => setTimeout(r, 200));
    const transport = new ProcessTransport(proc);
    await transport.start();
    const failure = await transport.send({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} }).then(
      () => "sent",
      (err: Error) => err.message,
    );
    expect(failure).toMatch(/EPIPE/);
    expect(proc.exit).toMatchObject({ code: 2 });
    expect(proc.stderrTail()).toContain("missing API key");
  });
});
