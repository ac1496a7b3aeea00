// The session's MCP servers against the real reference servers: tools listed
// under their full names with the servers' schemas, calls with text, image
// and structured results, allowed_tools, a server killed mid-call (that call
// fails, the next one starts it again), a server that exits at once, HTTP.

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { mcpResultToToolResult } from "../../tools/lib/mcp/result.js";
import { livePidsWith } from "../support/procs.js";
import { EVERYTHING, everythingStdio, FILESYSTEM, makeMcpHarness, startEverythingHttp, tempRoot, type McpHarness } from "./support.js";

let h: McpHarness | undefined;
let stopHttp: (() => Promise<void>) | undefined;
afterEach(async () => {
  await h?.close();
  await stopHttp?.();
  h = undefined;
  stopHttp = undefined;
});

const signal = () => new AbortController().signal;

describe("server-everything over stdio", () => {
  it("lists its tools as mcp_everything_<tool> with their schemas and read-only marks, and answers calls", async () => {
    h = makeMcpHarness({ everything: everythingStdio() });
    await h.mcp.start();
    const tools = h.mcp.tools();
    const echo = tools.find((t) => t.exposed === "mcp_everything_echo")!;
    expect(echo.inputSchema).toMatchObject({ type: "object", properties: { message: { type: "string" } }, required: ["message"] });
    expect(echo.inputSchema).not.toHaveProperty("$schema");
    expect(echo.readOnly).toBe(true);
    expect(tools.find((t) => t.remote === "toggle-simulated-logging")!.readOnly).toBe(false);
    expect(h.states("everything")).toEqual(["connecting", "connected"]);

    const got = await h.mcp.call("everything", "echo", { message: "hi there" }, signal());
    expect((await mcpResultToToolResult("mcp_everything_echo", got.result!)).modelText).toBe("Echo: hi there");
  }, 30_000);

  it("carries an image result to the model and structured content as JSON text", async () => {
    h = makeMcpHarness({ everything: everythingStdio() });
    await h.mcp.start();
    const image = await mcpResultToToolResult("x", (await h.mcp.call("everything", "get-tiny-image", {}, signal())).result!);
    expect(image.ok).toBe(true);
    expect(image.images).toHaveLength(1);
    expect(image.images![0]!.mediaType).toBe("image/png");
    expect(Buffer.from(image.images![0]!.data, "base64").subarray(1, 4).toString()).toBe("PNG");
    const weather = await mcpResultToToolResult("x", (await h.mcp.call("everything", "get-structured-content", { location: "Chicago" }, signal())).result!);
    expect(JSON.parse(weather.modelText)).toEqual(expect.objectContaining({ temperature: expect.any(Number), conditions: expect.any(String) }));
  }, 30_000);

  it("registers only allowed_tools", async () => {
    h = makeMcpHarness({ everything: everythingStdio({ allowed_tools: ["echo", "get-sum"] }) });
    await h.mcp.start();
    expect(h.mcp.tools().map((t) => t.exposed).sort()).toEqual(["mcp_everything_echo", "mcp_everything_get-sum"]);
  }, 30_000);

  it("a server killed during a call fails that call with a clear error; the next call starts it again", async () => {
    h = makeMcpHarness({ everything: everythingStdio() });
    await h.mcp.start();
    const first = h.events.find((e) => e.type === "mcp_server" && e.state === "connected");
    const pid = (first as { pid?: number }).pid!;
    expect(pid).toBeGreaterThan(1);
    const slow = h.mcp.call("everything", "trigger-long-running-operation", { duration: 20, steps: 2 }, signal());
    process.kill(-pid, "SIGKILL");
    const failed = await slow;
    expect(failed.error).toMatch(/MCP server everything ended during the call \(the process killed by SIGKILL\); it is started again on the next call/);
    const again = await h.mcp.call("everything", "echo", { message: "back" }, signal());
    expect(again.result?.content).toEqual([{ type: "text", text: "Echo: back" }]);
    expect(h.states("everything")).toEqual(["connecting", "connected", "ended", "connected"]);
  }, 40_000);

  it("a server that exits at once is reported once as failed, with its exit code, and has no tools", async () => {
    h = makeMcpHarness({ broken: { command: process.execPath, args: ["-e", "process.stderr.write('no config found'); process.exit(3)"] } });
    await h.mcp.start();
    expect(h.mcp.tools()).toEqual([]);
    expect(h.states("broken")).toEqual(["connecting", "failed"]);
    const failed = h.events.find((e) => e.type === "mcp_server" && e.state === "failed") as { detail?: string };
    expect(failed.detail).toContain("exited with code 3: no config found");
    expect(h.mcp.status()).toEqual([expect.objectContaining({ name: "broken", state: "failed", tools: 0 })]);
  }, 30_000);

  it("a manual server is not started, only listed as disabled", async () => {
    h = makeMcpHarness({ later: everythingStdio({ manual: true }) });
    await h.mcp.start();
    expect(h.states("later")).toEqual(["disabled"]);
    expect(h.mcp.status()).toEqual([expect.objectContaining({ name: "later", state: "disabled" })]);
  }, 10_000);

  it("ends the server's whole process group on shutdown", async () => {
    const token = `yuj-mcp-token-${process.pid}-${Date.now()}`;
    h = makeMcpHarness({ everything: everythingStdio({ env: { YUJ_TEST_TOKEN: token }, args: [EVERYTHING, "stdio", token] }) });
    await h.mcp.start();
    expect(livePidsWith(token).length).toBeGreaterThan(0);
    await h.mcp.shutdown();
    expect(livePidsWith(token)).toEqual([]);
  }, 30_000);
});

describe("server-filesystem over stdio", () => {
  it("lists a directory of its root", async () => {
    const root = tempRoot();
    writeFileSync(join(root, "notes.txt"), "x");
    h = makeMcpHarness({ fs: { command: process.execPath, args: [FILESYSTEM, root] } });
    await h.mcp.start();
    expect(h.mcp.tools().map((t) => t.exposed)).toContain("mcp_fs_list_directory");
    const got = await h.mcp.call("fs", "list_directory", { path: root }, signal());
    expect(JSON.stringify(got.result!.content)).toContain("[FILE] notes.txt");
  }, 30_000);
});

describe("server-everything over streamable HTTP", () => {
  it("connects to the URL and answers calls; a missing bearer token variable is named", async () => {
    const srv = await startEverythingHttp();
    stopHttp = srv.stop;
    h = makeMcpHarness({ web: { url: srv.url, bearer_token_env: "MCP_TOKEN" }, unset: { url: srv.url, bearer_token_env: "NOT_SET_TOKEN" } }, {}, { MCP_TOKEN: "t0k" });
    await h.mcp.start();
    expect(h.states("web")).toEqual(["connecting", "connected"]);
    const sum = await h.mcp.call("web", "get-sum", { a: 2, b: 40 }, signal());
    expect(JSON.stringify(sum.result!.content)).toContain("42");
    expect(h.mcp.status().find((s) => s.name === "unset")!.detail).toContain("the bearer token variable NOT_SET_TOKEN is not set");
  }, 40_000);
});
