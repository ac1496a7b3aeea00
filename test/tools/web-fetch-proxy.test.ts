// web_fetch through the [web_fetch] proxy, against a real local forward proxy
// (test/support/http-proxy.ts) that records what it is sent. The page's host
// name resolves nowhere: only the proxy knows where it is, so a page that
// arrives came through the proxy.

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webFetchTool } from "../../tools/shared/web_fetch.js";
import type { Config } from "../../core/config/schema.js";
import { startTestProxy, type TestProxy } from "../support/http-proxy.js";
import { makeToolContext } from "../support/tool-context.js";

let page: Server;
let proxy: TestProxy;
let direct: string;

beforeAll(async () => {
  page = createServer((req, res) => {
    res.writeHead(200, { "content-type": "text/plain; charset=utf-8" });
    res.end(`page for ${req.headers["user-agent"]} via host ${req.headers.host}`);
  });
  await new Promise<void>((r) => page.listen(0, "127.0.0.1", r));
  const port = (page.address() as AddressInfo).port;
  direct = `http://127.0.0.1:${port}`;
  proxy = await startTestProxy({ "docs.internal.test": port });
});
afterAll(async () => {
  await proxy.close();
  page.closeAllConnections();
  await new Promise((r) => page.close(r));
});

async function fetchWith(url: string, adjust: (c: Config) => void, env: Record<string, string> = {}) {
  const t = await makeToolContext((c) => {
    c.permissions.rules = [{ tool: "web_fetch", pattern: "127.0.0.1:*", action: "allow" }];
    adjust(c);
  });
  t.ctx.services = { ...t.ctx.services, env };
  try {
    return await webFetchTool.run(webFetchTool.schema.parse({ url }), t.ctx);
  } finally {
    await t.cleanup();
  }
}

describe("web_fetch through a proxy", () => {
  it("sends an http page's request to the configured proxy, by its absolute URL, with the configured user agent", async () => {
    const before = proxy.seen.length;
    const r = await fetchWith("http://docs.internal.test/guide?x=1", (c) => {
      c.web_fetch.proxy = proxy.url;
      c.web_fetch.user_agent = "proxy-test-agent/2";
    });
    expect(r.ok).toBe(true);
    expect(r.modelText).toContain("page for proxy-test-agent/2 via host docs.internal.test");
    const got = proxy.seen.slice(before);
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ method: "GET", target: "http://docs.internal.test/guide?x=1" });
    expect(got[0]!.headers["user-agent"]).toBe("proxy-test-agent/2");
  });

  it("asks the proxy for a CONNECT tunnel to an https page, and names the proxy when it refuses", async () => {
    const before = proxy.seen.length;
    const r = await fetchWith("https://secure.internal.test/login", (c) => void (c.web_fetch.proxy = proxy.url));
    expect(r.ok).toBe(false);
    expect(r.modelText).toMatch(/the proxy 127\.0\.0\.1:\d+ refused the tunnel to secure\.internal\.test \(HTTP 403\)/);
    expect(proxy.seen.slice(before)).toEqual([expect.objectContaining({ method: "CONNECT", target: "secure.internal.test:443" })]);
  });

  it("with proxy unset, takes HTTP_PROXY from the environment and honours NO_PROXY; proxy = \"\" goes direct whatever the environment says", async () => {
    const unset = (c: Config) => void delete c.web_fetch.proxy;
    let before = proxy.seen.length;
    const viaEnv = await fetchWith("http://docs.internal.test/env", unset, { HTTP_PROXY: proxy.url });
    expect(viaEnv.modelText).toContain("via host docs.internal.test");
    expect(proxy.seen.slice(before).map((s) => s.target)).toEqual(["http://docs.internal.test/env"]);

    before = proxy.seen.length;
    const bypassed = await fetchWith(`${direct}/near`, unset, { HTTP_PROXY: proxy.url, NO_PROXY: "localhost,127.0.0.1" });
    expect(bypassed.ok).toBe(true);
    const off = await fetchWith(`${direct}/off`, (c) => void (c.web_fetch.proxy = ""), { HTTP_PROXY: proxy.url });
    expect(off.ok).toBe(true);
    expect(proxy.seen.length).toBe(before);
  });

  it("refuses a name that resolves here to a loopback address even though the proxy would resolve it, and the proxy is never asked", async () => {
    const before = proxy.seen.length;
    // The context's rules allow 127.0.0.1, not the name localhost: the refusal names the rule to add.
    const r = await fetchWith("http://localhost:9/admin", (c) => void (c.web_fetch.proxy = proxy.url));
    expect(r.ok).toBe(false);
    expect(r.modelText).toMatch(/localhost is a loopback address \((127\.0\.0\.1|::1)\); web_fetch refuses private and loopback addresses unless a rule allows them/);
    expect(proxy.seen.length).toBe(before);
  });
});
