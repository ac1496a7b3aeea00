// web_fetch as Chord's own web_fetch tests pin it, against a local HTTP
// server: the request headers a server sees (user agent, its blank-value
// fallback, Accept-Language), the header lines of the result (Final-URL,
// Charset, Extraction-Mode, Content-Quality, Read-Bytes, Truncated), the
// Markdown of lists, links and images, and what a twice-encoded call reaches.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import * as os from "node:os";
import iconv from "iconv-lite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Config } from "../../core/config/schema.js";
import { webFetchTool } from "../../tools/shared/web_fetch.js";
import { chordCall } from "../support/chord-call.js";
import { makeToolContext } from "../support/tool-context.js";

const LONG_PROSE =
  "This article contains enough text for the reader view to choose the article body as the main content of the page. " +
  "It includes links and images that are resolved against the address the page was fetched from, and it goes on long enough " +
  "that no reader would call it a stub: several sentences of ordinary prose about configuration, trade-offs and verification.";

const PAGES: Record<string, [string, string | Buffer]> = {
  "/plain": ["text/plain; charset=utf-8", "hello"],
  "/final": ["text/plain; charset=utf-8", "done"],
  "/sjis": ["text/plain; charset=shift_jis", iconv.encode("こんにちは", "shift_jis")],
  "/sjis-html": ["text/html; charset=shift_jis", iconv.encode(`<html><head><title>テスト</title></head><body><main><p>こんにちは</p></main></body></html>`, "shift_jis")],
  "/utf8-html": ["text/html", `<!doctype html><html><head><title>中文标题</title></head><body><main><h1>中文标题</h1><p>这是一段没有声明 charset 但实际使用 UTF-8 编码的中文正文。</p></main></body></html>`],
  "/lists": ["text/html; charset=utf-8", "<!doctype html><html><body><li>Alpha</li><li>Beta</li><ul><li>Parent<ul><li>Child</li></ul></li></ul></body></html>"],
  "/nav": ["text/html; charset=utf-8", "<html><head><title>Example</title></head><body><nav><ul><li>Home</li><li>Pricing</li></ul></nav><main><h1>Article Title</h1><p>Useful content paragraph.</p></main><footer>Footer links</footer></body></html>"],
  "/article/readable": [
    "text/html; charset=utf-8",
    `<!doctype html><html><body><article><h1>Readable links</h1><p>${LONG_PROSE}</p><p>${LONG_PROSE}</p><p><a href="/docs/start">Start</a> <img alt="logo" src="/img/logo.png"></p></article></body></html>`,
  ],
  "/short-links": ["text/html; charset=utf-8", `<!doctype html><html><body><main><a href="/docs/start">Start</a><img alt="logo" src="/img/logo.png"></main></body></html>`],
  "/shell": ["text/html; charset=utf-8", `<!doctype html><html><body><div id="app">Loading...</div><script src="/a.js"></script><script src="/b.js"></script><script src="/c.js"></script></body></html>`],
  "/needs-js": ["text/html; charset=utf-8", "<!doctype html><html><body><main><p>Please enable JavaScript to view this page.</p></main></body></html>"],
  "/mentions-loading": ["text/html; charset=utf-8", `<!doctype html><html><body><article><h1>Spinners</h1><p>A spinner that reads Loading... is fine while data arrives. ${LONG_PROSE} ${LONG_PROSE} ${LONG_PROSE} ${LONG_PROSE}</p></article></body></html>`],
  "/raw": ["text/html; charset=utf-8", "<!doctype html><html><body><main><h1>Raw Title</h1><p>Raw paragraph.</p></main></body></html>"],
  "/json": ["application/json; charset=utf-8", '{"ok":true,"message":"hello"}'],
  "/big": ["text/plain; charset=utf-8", "a".repeat(3000)],
};

let server: Server;
let base: string;
let seen: IncomingMessage["headers"] = {};

function route(req: IncomingMessage, res: ServerResponse): void {
  seen = req.headers;
  const path = new URL(req.url ?? "/", "http://x").pathname;
  if (path === "/start") return void res.writeHead(302, { location: "/final" }).end();
  if (path === "/missing") return void res.writeHead(404, { "content-type": "text/plain" }).end("missing");
  const page = PAGES[path];
  if (!page) return void res.writeHead(404).end();
  res.writeHead(200, { "content-type": page[0] }).end(page[1]);
}

beforeAll(async () => {
  server = createServer(route);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

async function fetchPage(args: Record<string, unknown>, adjust: (c: Config) => void = () => undefined) {
  const t = await makeToolContext((c) => {
    c.permissions.rules = [{ tool: "web_fetch", pattern: "127.0.0.1:*", action: "allow" }];
    c.web_fetch.proxy = "";
    adjust(c);
  });
  try {
    return await webFetchTool.run(webFetchTool.schema.parse(args), t.ctx);
  } finally {
    await t.cleanup();
  }
}

describe("web_fetch: what the server is sent", () => {
  it("the default user agent, English first, compressed bodies accepted; nothing about this machine in the result", async () => {
    const r = await fetchPage({ url: `${base}/plain` });
    expect(seen["user-agent"]).toBe("yuj-web-fetch/1 (a terminal coding agent)");
    expect(seen["accept-language"]).toBe("en-US,en;q=0.9");
    expect(seen["accept-encoding"]).toContain("gzip");
    expect(r.modelText).not.toContain(os.hostname());
    expect(r.modelText).not.toContain(os.arch());
  });

  it("the configured user agent; one that is only white space falls back to the default", async () => {
    await fetchPage({ url: `${base}/plain` }, (c) => (c.web_fetch.user_agent = "CustomUA/1.0"));
    expect(seen["user-agent"]).toBe("CustomUA/1.0");
    await fetchPage({ url: `${base}/plain` }, (c) => (c.web_fetch.user_agent = "   "));
    expect(seen["user-agent"]).toBe("yuj-web-fetch/1 (a terminal coding agent)");
  });
});

describe("web_fetch: the result's header lines", () => {
  it("a plain page, whole: the lines in order, then the body", async () => {
    expect((await fetchPage({ url: `${base}/plain` })).modelText).toBe(
      `URL: ${base}/plain\nStatus: 200\nContent-Type: text/plain; charset=utf-8\nCharset: utf-8\nExtraction-Mode: raw\nContent-Quality: thin\nRead-Bytes: 5/5242880\nTruncated: none\n\nhello`,
    );
  });

  it("names the final URL after a redirect", async () => {
    const r = await fetchPage({ url: `${base}/start` });
    expect(r.modelText).toContain(`URL: ${base}/start\nFinal-URL: ${base}/final\n`);
    expect(r.modelText).toMatch(/\n\ndone$/);
  });

  it("decodes Shift_JIS declared by the header, for text and for HTML, and keeps undeclared UTF-8 HTML as UTF-8", async () => {
    for (const path of ["/sjis", "/sjis-html"]) {
      const text = (await fetchPage({ url: `${base}${path}` })).modelText;
      expect(text).toContain("Charset: shift-jis\n");
      expect(text).toContain("こんにちは");
    }
    const utf8 = (await fetchPage({ url: `${base}/utf8-html` })).modelText;
    expect(utf8).toContain("Charset: utf-8\n");
    expect(utf8).toContain("这是一段没有声明 charset 但实际使用 UTF-8 编码的中文正文。");
    expect(utf8).not.toContain("ä¸");
  });

  it("grades the text: a stub page thin, an article ok, a script shell suspect-shell", async () => {
    expect((await fetchPage({ url: `${base}/nav` })).modelText).toContain("Extraction-Mode: html-readability\nTitle: Example\nContent-Quality: thin\n");
    expect((await fetchPage({ url: `${base}/article/readable` })).modelText).toContain("Content-Quality: ok\n");
    expect((await fetchPage({ url: `${base}/big` })).modelText).toContain("Content-Quality: ok\n");
    const shell = (await fetchPage({ url: `${base}/shell` })).modelText;
    expect(shell).toContain("Content-Quality: suspect-shell\n");
    expect(shell).not.toContain("Browser-Fallback");
  });

  it("a page that asks for JavaScript instead of its content is a shell even without scripts; an article that only mentions loading is not", async () => {
    expect((await fetchPage({ url: `${base}/needs-js` })).modelText).toContain("Content-Quality: suspect-shell\nContent-Quality-Note: ");
    const article = (await fetchPage({ url: `${base}/mentions-loading` })).modelText;
    expect(article).toContain("Content-Quality: ok\n");
    expect(article).toContain("A spinner that reads Loading... is fine");
  });

  it("a body cut at max_bytes: read bytes of the cap, Truncated: input, and the start of the body", async () => {
    const r = await fetchPage({ url: `${base}/big` }, (c) => (c.web_fetch.max_bytes = 1024));
    expect(r.modelText).toContain(
      "Read-Bytes: 1024/1024\nTruncated: input\nTruncated-Note: the download stopped at the 1024 bytes cap ([web_fetch].max_bytes); what follows is the start of the body\n\n",
    );
    expect(r.modelText.endsWith(`\n\n${"a".repeat(1024)}`)).toBe(true);
  });

  it("raw HTML keeps the tags; JSON stays as sent; a 404 is an error naming HTTP 404", async () => {
    const raw = (await fetchPage({ url: `${base}/raw`, raw: true })).modelText;
    expect(raw).toContain("Extraction-Mode: html-raw\n");
    expect(raw).toContain("<h1>Raw Title</h1>");
    const json = (await fetchPage({ url: `${base}/json` })).modelText;
    expect(json).toContain("Extraction-Mode: raw\n");
    expect(json).toMatch(/\n\n\{"ok":true,"message":"hello"\}$/);
    const missing = await fetchPage({ url: `${base}/missing` });
    expect(missing.ok).toBe(false);
    expect(missing.modelText).toMatch(/^ERROR: HTTP 404 from /);
  });
});

describe("web_fetch: the page as Markdown", () => {
  it("list items without a list, and a nested list indented under its item", async () => {
    const body = (await fetchPage({ url: `${base}/lists` })).modelText.split("\n\n").slice(1).join("\n\n");
    expect(body.split("\n").filter((l) => l.trim())).toEqual(["- Alpha", "- Beta", "- Parent", "  - Child"]);
  });

  it("the main content without the navigation and footer", async () => {
    const text = (await fetchPage({ url: `${base}/nav` })).modelText;
    for (const noise of ["Home", "Pricing", "Footer links"]) expect(text).not.toContain(noise);
    expect(text).toContain("Article Title");
    expect(text).toContain("Useful content paragraph.");
  });

  it("links and images resolved against the page's address, in an article and in a short page", async () => {
    for (const path of ["/article/readable", "/short-links"]) {
      const text = (await fetchPage({ url: `${base}${path}` })).modelText;
      expect(text).toContain(`[Start](${base}/docs/start)`);
      expect(text).toContain(`![logo](${base}/img/logo.png)`);
    }
  });
});

describe("web_fetch on the Chord surface: arguments encoded twice", () => {
  it("are read through to the object, so the call reaches the fetch (here the loopback refusal, with no rule allowing it)", async () => {
    const t = await makeToolContext();
    try {
      const r = await chordCall(t, "web_fetch", JSON.stringify(JSON.stringify({ url: `${base}/plain` })), { raw: true });
      expect(r.ok).toBe(false);
      expect(r.text).toMatch(/^ERROR: 127\.0\.0\.1 is a loopback address \(127\.0\.0\.1\); web_fetch refuses private and loopback addresses unless a rule allows them: add \[\[permissions\.rules\]\] tool = "web_fetch", pattern = "127\.0\.0\.1:\d+", action = "allow" to your config$/);
    } finally {
      await t.cleanup();
    }
  });
});
