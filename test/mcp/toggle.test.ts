// Turning a server off and on in a session, against the real server-everything:
// off ends its process and takes its tools away (a listener hears it), on
// starts it again and brings them back; a manual server is listed as
// disabled from the start, and a resumed session's choices win over `manual`.

import { afterEach, describe, expect, it } from "vitest";
import { everythingStdio, makeMcpHarness, type McpHarness } from "./support.js";

let h: McpHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until(ok: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`never: ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe("MCP servers turned on and off", () => {
  it("off: its process ends and its tools leave; on: it starts again and they are back; listeners hear both", async () => {
    h = makeMcpHarness({ everything: everythingStdio(), other: everythingStdio({ allowed_tools: ["echo"] }) });
    await h.mcp.start();
    const pid = h.events.find((e) => e.type === "mcp_server" && e.server === "everything" && e.state === "connected" && e.pid)!;
    const serverPid = (pid as { pid: number }).pid;
    let changes = 0;
    h.mcp.onToolsChanged(() => changes++);

    expect(h.mcp.setEnabled("everything", false)).toBeUndefined();
    expect(h.mcp.tools().some((t) => t.server === "everything")).toBe(false);
    expect(h.mcp.tools().map((t) => t.exposed)).toContain("mcp_other_echo");
    expect(h.mcp.status().find((s) => s.name === "everything")).toMatchObject({ state: "disabled", tools: 0 });
    await until(() => !alive(serverPid), "the server's process ended");
    expect(changes).toBe(1);
    const refused = await h.mcp.call("everything", "echo", { message: "x" }, new AbortController().signal);
    expect(refused.error).toBe("MCP server everything is not enabled in this session");

    expect(h.mcp.setEnabled("everything", true)).toBeUndefined();
    await until(() => changes === 2, "the tools came back");
    expect(h.mcp.tools().map((t) => t.exposed)).toContain("mcp_everything_echo");
    const echoed = await h.mcp.call("everything", "echo", { message: "again" }, new AbortController().signal);
    expect(echoed.result?.content).toEqual([{ type: "text", text: "Echo: again" }]);
    expect(h.states("everything")).toEqual(["connecting", "connected", "disabled", "connecting", "connected"]);
  }, 60_000);

  it("an unknown name is refused with the names there are", () => {
    h = makeMcpHarness({ everything: everythingStdio() });
    expect(h.mcp.setEnabled("evrything", true)).toBe("no MCP server evrything: the servers are everything");
  });

  it("a manual server is listed disabled at start; a stored choice turns it on, and turns an auto-start one off", async () => {
    h = makeMcpHarness({ later: everythingStdio({ manual: true }), now: everythingStdio() });
    h.mcp.applyChoices({ later: true, now: false, gone: true });
    await h.mcp.start();
    expect(h.states("later")).toEqual(["connecting", "connected"]);
    expect(h.states("now")).toEqual(["disabled"]);
    expect(h.mcp.tools().every((t) => t.server === "later")).toBe(true);

    const plain = makeMcpHarness({ later: everythingStdio({ manual: true }) });
    try {
      await plain.mcp.start();
      expect(plain.states("later")).toEqual(["disabled"]);
      expect(plain.mcp.tools()).toEqual([]);
    } finally {
      await plain.close();
    }
  }, 60_000);
});
