// web_fetch through the built `yuj`: off on Yuj until [web_fetch].enabled,
// then asking unless a rule allows the host (a headless run pauses), and
// fetching a local page once a rule names it.

import { mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parseScenario } from "../../core/providers/scenario.js";
import { isolatedEnv, runCli } from "../support/cli.js";
import { startSseServer, type SseServer } from "../support/sse-server.js";

let page: Server;
let pageUrl: string;
let model: SseServer | undefined;
beforeAll(async () => {
  page = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html" });
    res.end("<html><head><title>Local</title></head><body><h1>Release notes</h1><p>Version 2 adds streaming.</p></body></html>");
  });
  await new Promise<void>((r) => page.listen(0, "127.0.0.1", r));
  pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/notes`;
});
afterAll(() => new Promise((r) => page.close(r)));
afterEach(async () => {
  await model?.close();
  model = undefined;
});

async function run(toml: string) {
  model = await startSseServer({ scenario: parseScenario({ turns: [{ tool_calls: [{ name: "web_fetch", arguments: { url: pageUrl } }] }, { text: "read it" }] }) });
  const cwd = realpathSync(mkdtempSync(join(tmpdir(), "yuj-web-e2e-")));
  writeFileSync(join(cwd, "yuj.toml"), `[web_fetch]\nproxy = ""\n${toml}`);
  const args = ["code", "read the notes", "--config", "yuj.toml", "--output", "jsonl", "--provider", "anthropic", "--model", "m", "--base-url", model.baseUrlFor("anthropic")];
  const res = await runCli(args, { cwd, env: isolatedEnv({ ANTHROPIC_API_KEY: "sk-test" }), timeoutMs: 60_000 });
  const tools = (model.requests.find((r) => r.method === "POST")!.body.tools as Array<{ name: string }>).map((t) => t.name);
  const rows = res.stdout.trim().split("\n").map((l) => JSON.parse(l) as { type: string; name?: string; tool?: string; modelText?: string });
  return { res, tools, rows };
}

describe("web_fetch on the Yuj surface", () => {
  it("is not offered until enabled", async () => {
    const { tools } = await run("");
    expect(tools).not.toContain("web_fetch");
  }, 60_000);

  it("enabled, it asks when no rule names the host (the run pauses for the approval)", async () => {
    const { res, tools, rows } = await run("enabled = true\n");
    expect(tools).toContain("web_fetch");
    expect(res.code).toBe(3);
    expect(rows.find((r) => r.type === "approval_requested")?.tool).toBe("web_fetch");
  }, 60_000);

  it("with a rule for the host it fetches the local page as Markdown", async () => {
    const { res, rows } = await run('enabled = true\n[[permissions.rules]]\ntool = "web_fetch"\npattern = "127.0.0.1:*"\naction = "allow"\n');
    expect(res.code).toBe(0);
    const text = rows.find((r) => r.type === "tool_result" && r.name === "web_fetch")?.modelText ?? "";
    expect(text).toContain("# Release notes");
    expect(text).toContain("Version 2 adds streaming.");
  }, 60_000);
});
