// web_fetch against a local HTTP server only: an article page, a charset that
// is not UTF-8, redirect chains, a huge body, a slow body, a binary body, a
// JavaScript shell, and the private-address rule (the server is on loopback,
// so every fetch here needs the rule that allows it, and one without it is refused).

import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import iconv from "iconv-lite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webFetchTool } from "../../tools/shared/web_fetch.js";
import { makeToolContext } from "../support/tool-context.js";
import type { Config } from "../../core/config/schema.js";

const ARTICLE = `<!doctype html><html><head><title>Parsing TOML</title></head><body>
<nav><a href="/">Home</a> | <a href="/blog">Blog</a></nav>
<article><h1>Parsing TOML in TypeScript</h1>
<p>TOML is a small configuration format. This article shows how to parse it, with a table of the value types and a worked example that reads a file from disk and prints the keys it found.</p>
<p>Read <a href="/docs/spec">the specification</a> before you start; it is short and precise, and it answers most questions about dates, arrays and tables.</p>
<h2>Types</h2>
<table><thead><tr><th>TOML</th><th>TypeScript</th></tr></thead><tbody><tr><td>string</td><td>string</td></tr><tr><td>integer</td><td>number</td></tr></tbody></table>
<h2>Example</h2>
<pre><code class="language-ts">import { parse } from "smol-toml";
const data = parse(text);</code></pre>
<p>That is all it takes: the parser returns plain objects, and the types above tell you what each value becomes once it is parsed.</p>
</article><footer>Copyright 2026</footer></body></html>`;

const SHELL = `<!doctype html><html><head><title>App</title><script src="/bundle.js"></script></head><body><div id="root"></div><noscript>You need to enable JavaScript to run this app.</noscript><script>window.boot()</script></body></html>`;

const META_PAGE = `<!doctype html><html><head><title>Ignored title</title>
<meta property="og:title" content="Structured Title"><meta name="author" content="Jane Doe">
<meta property="og:site_name" content="Doc Site"><meta property="article:published_time" content="2026-04-28">
</head><body><main><h1>Structured Title</h1><p>This page holds enough article text to be taken as the article. It also has the metadata a reader wants to see: who wrote it, on which site, and when it was published.</p></main></body></html>`;

let server: Server;
let base: string;

function route(req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? "/", "http://x");
  const send = (status: number, type: string, body: string | Buffer, extra: Record<string, string> = {}) => {
    res.writeHead(status, { "content-type": type, ...extra });
    res.end(body);
  };
  switch (url.pathname) {
    case "/article":
      return send(200, "text/html; charset=utf-8", ARTICLE);
    case "/latin1":
      return send(200, "text/html; charset=windows-1252", iconv.encode("<html><body><p>Café crème à la française – “quoted”</p></body></html>", "windows-1252"));
    case "/meta-charset":
      return send(200, "text/html", iconv.encode('<html><head><meta charset="shift_jis"></head><body><p>日本語のページ</p></body></html>', "shift_jis"));
    case "/hop": {
      const n = Number(url.searchParams.get("n") ?? "0");
      if (n > 0) return send(302, "text/plain", "", { location: `/hop?n=${n - 1}` });
      return send(200, "text/plain; charset=utf-8", "arrived");
    }
    case "/loop":
      return send(301, "text/plain", "", { location: "/loop" });
    case "/to-file":
      return send(302, "text/plain", "", { location: "file:///etc/passwd" });
    case "/huge": {
      res.writeHead(200, { "content-type": "text/plain" });
      const chunk = Buffer.alloc(64 * 1024, "a");
      let sent = 0;
      const pump = () => {
        while (sent < 50 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", pump);
        }
        res.end();
      };
      res.on("close", () => (sent = Infinity));
      return pump();
    }
    case "/slow": {
      res.writeHead(200, { "content-type": "text/plain" });
      res.write("first part ");
      const timer = setTimeout(() => res.end("never in time"), 30_000);
      res.on("close", () => clearTimeout(timer));
      return;
    }
    case "/image.png":
      return send(200, "image/png", Buffer.from("89504e470d0a1a0a0000000d49484452", "hex"));
    case "/shell":
      return send(200, "text/html", SHELL);
    case "/gzip":
      return send(200, "text/plain; charset=utf-8", gzipSync("compressed text body"), { "content-encoding": "gzip" });
    case "/missing":
      return send(404, "text/html", "<html><body><h1>Not found</h1><p>No such page here.</p></body></html>");
    case "/plain":
      return send(200, "text/plain; charset=utf-8", "hello");
    case "/sjis-text":
      return send(200, "text/plain; charset=shift_jis", iconv.encode("こんにちは", "shift_jis"));
    case "/json":
      return send(200, "application/json; charset=utf-8", '{"ok":true,"message":"hello"}');
    case "/meta":
      return send(200, "text/html; charset=utf-8", META_PAGE);
    case "/ua":
      return send(200, "text/plain", String(req.headers["user-agent"]));
    default:
      return send(404, "text/plain", "no route");
  }
}

beforeAll(async () => {
  server = createServer(route);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const allowLoopback = (c: Config) => {
  c.permissions.rules = [{ tool: "web_fetch", pattern: "127.0.0.1:*", action: "allow" }];
  c.web_fetch.proxy = "";
};

async function fetchWith(args: Record<string, unknown>, adjust: (c: Config) => void = allowLoopback) {
  const t = await makeToolContext(adjust);
  try {
    return await webFetchTool.run(webFetchTool.schema.parse(args), t.ctx);
  } finally {
    await t.cleanup();
  }
}

describe("web_fetch", () => {
  it("turns an article page into Markdown: the article without the navigation, a GFM table, a fenced code block with its language, absolute links", async () => {
    const r = await fetchWith({ url: `${base}/article` });
    expect(r.ok).toBe(true);
    expect(r.modelText).toMatch(
      /^URL: http:\/\/127\.0\.0\.1:\d+\/article\nStatus: 200\nContent-Type: text\/html; charset=utf-8\nCharset: utf-8\nExtraction-Mode: html-readability\nTitle: Parsing TOML.*\nContent-Quality: ok\nRead-Bytes: \d+\/5242880\nTruncated: none\n/,
    );
    expect(r.modelText).toContain("## Types");
    expect(r.modelText).toMatch(/\| TOML \| TypeScript \|\n\| --- \| --- \|\n\| string \| string \|/);
    expect(r.modelText).toContain('```ts\nimport { parse } from "smol-toml";\nconst data = parse(text);\n```');
    expect(r.modelText).toContain(`[the specification](${base}/docs/spec)`);
    expect(r.modelText).not.toContain("Copyright 2026");
    expect(r.modelText).not.toContain("suspect-shell");
  });

  it("names the URL, charset and how the text was extracted, as Chord's tests pin", async () => {
    expect((await fetchWith({ url: `${base}/plain` })).modelText).toBe(
      `URL: ${base}/plain\nStatus: 200\nContent-Type: text/plain; charset=utf-8\nCharset: utf-8\nExtraction-Mode: raw\nContent-Quality: thin\nRead-Bytes: 5/5242880\nTruncated: none\n\nhello`,
    );
    const sjis = (await fetchWith({ url: `${base}/sjis-text` })).modelText;
    expect(sjis).toContain("Charset: shift-jis\n");
    expect(sjis).toContain("こんにちは");
    expect((await fetchWith({ url: `${base}/meta-charset` })).modelText).toContain("Charset: shift-jis\n");
    const json = (await fetchWith({ url: `${base}/json` })).modelText;
    expect(json).toContain("Extraction-Mode: raw\n");
    expect(json).toContain('{"ok":true,"message":"hello"}');
    expect((await fetchWith({ url: `${base}/article`, raw: true })).modelText).toContain("Extraction-Mode: html-raw\n");
    const meta = (await fetchWith({ url: `${base}/meta` })).modelText;
    for (const line of ["Title: Structured Title\n", "Byline: Jane Doe\n", "Site-Name: Doc Site\n", "Published-Time: 2026-04-28\n"]) expect(meta).toContain(line);
    expect((await fetchWith({ url: `${base}/missing` })).modelText).toContain("HTTP 404");
  });

  it("writes lists as '- item', nested ones indented under the item, as Chord's tests pin", async () => {
    const { htmlToMarkdown } = await import("../../tools/lib/web/markdown.js");
    const md = (body: string) => htmlToMarkdown(`<!doctype html><html><body>${body}</body></html>`, "https://example.com/base/").markdown;
    expect(md("<li>Alpha</li><li>Beta</li>")).toBe("- Alpha\n- Beta");
    expect(md("<ul><li>Parent<ul><li>Child</li></ul></li></ul>")).toBe("- Parent\n  - Child");
    expect(md("<ol><li>one</li><li>two<p>more</p></li></ol>")).toBe("1. one\n2. two\n\n   more");
    expect(md('<main><a href="/docs/start">Start</a><img alt="logo" src="/img/logo.png"></main>')).toBe("[Start](https://example.com/docs/start)![logo](https://example.com/img/logo.png)");
  });

  it("raw returns the HTML as it is", async () => {
    const r = await fetchWith({ url: `${base}/article`, raw: true });
    expect(r.modelText).toContain('<pre><code class="language-ts">');
  });

  it("decodes the charset the header or the page declares", async () => {
    expect((await fetchWith({ url: `${base}/latin1` })).modelText).toContain("Café crème à la française – “quoted”");
    expect((await fetchWith({ url: `${base}/meta-charset` })).modelText).toContain("日本語のページ");
  });

  it("follows a redirect chain within the limit, says where from, and refuses a longer one, a loop, and a redirect off http", async () => {
    const r = await fetchWith({ url: `${base}/hop?n=3` });
    expect(r.ok).toBe(true);
    expect(r.modelText).toContain(`URL: ${base}/hop?n=3\nFinal-URL: ${base}/hop?n=0\n`);
    expect(r.modelText).toContain(`Redirected from: ${base}/hop?n=3 → ${base}/hop?n=2 → ${base}/hop?n=1`);
    expect(r.modelText.endsWith("arrived")).toBe(true);
    expect((await fetchWith({ url: `${base}/hop?n=9` })).modelText).toMatch(/^ERROR: more than 5 redirects/);
    expect((await fetchWith({ url: `${base}/loop` })).modelText).toMatch(/^ERROR: more than 5 redirects/);
    expect((await fetchWith({ url: `${base}/to-file` })).modelText).toBe(`ERROR: the redirect from ${base}/to-file uses file: web_fetch fetches http and https URLs only`);
  });

  it("stops a huge body at the download cap and says so", async () => {
    const r = await fetchWith({ url: `${base}/huge` });
    // Also over the result bound, so the header names both cuts.
    expect(r.modelText).toContain(
      "Read-Bytes: 5242880/5242880\nTruncated: input,output\nTruncated-Note: the download stopped at the 5 MB cap ([web_fetch].max_bytes); what follows is the start of the body\nOutput-Limit: 80000 chars\n",
    );
    // The tool's text is the cap; the dispatcher then bounds what the model sees.
    expect(r.modelText.length).toBeLessThan(5 * 1024 * 1024 + 1000);
  });

  it("gives up on a slow body at the timeout, naming it", async () => {
    const began = Date.now();
    const r = await fetchWith({ url: `${base}/slow`, timeout: 1 });
    expect(r.ok).toBe(false);
    expect(r.modelText).toBe(`ERROR: timed out after 1 s fetching ${base}/slow; pass a longer timeout (at most 120) or try later`);
    expect(Date.now() - began).toBeLessThan(15_000);
  });

  it("refuses a binary body by name", async () => {
    const r = await fetchWith({ url: `${base}/image.png` });
    expect(r.ok).toBe(false);
    expect(r.modelText).toBe(`ERROR: ${base}/image.png returned a binary body (image/png, 16 bytes); web_fetch returns text only`);
  });

  it("flags a JavaScript shell as suspect-shell", async () => {
    expect((await fetchWith({ url: `${base}/shell` })).modelText).toContain("Content-Quality: suspect-shell\nContent-Quality-Note: ");
  });

  it("reads a gzip body, reports an HTTP error status as a failure with the page, sends the configured user agent", async () => {
    expect((await fetchWith({ url: `${base}/gzip` })).modelText.endsWith("compressed text body")).toBe(true);
    const missing = await fetchWith({ url: `${base}/missing` });
    expect(missing.ok).toBe(false);
    expect(missing.modelText).toMatch(/^ERROR: HTTP 404 from .*\n[\s\S]*No such page here\./);
    const ua = await fetchWith({ url: `${base}/ua` }, (c) => {
      allowLoopback(c);
      c.web_fetch.user_agent = "test-agent/9";
    });
    expect(ua.modelText.endsWith("test-agent/9")).toBe(true);
  });

  it("refuses loopback and private addresses without a rule naming them, by literal IP and by a name that resolves to one", async () => {
    const direct = (c: Config) => void (c.web_fetch.proxy = "");
    const literal = await fetchWith({ url: `${base}/article` }, direct);
    expect(literal.ok).toBe(false);
    expect(literal.modelText).toMatch(/^ERROR: 127\.0\.0\.1 is a loopback address \(127\.0\.0\.1\); web_fetch refuses private and loopback addresses unless a rule allows them: add \[\[permissions\.rules\]\] tool = "web_fetch", pattern = "127\.0\.0\.1:\d+", action = "allow"/);
    const named = await fetchWith({ url: base.replace("127.0.0.1", "localhost") + "/article" }, direct);
    expect(named.modelText).toMatch(/^ERROR: localhost is a loopback address/);
    // A rule that allows every host is no choice to reach the local network.
    const broad = await fetchWith({ url: `${base}/article` }, (c) => {
      direct(c);
      c.permissions.rules = [{ tool: "*", action: "allow" }];
    });
    expect(broad.modelText).toMatch(/^ERROR: 127\.0\.0\.1 is a loopback address/);
    expect((await fetchWith({ url: "http://10.1.2.3/x" }, direct)).modelText).toMatch(/^ERROR: 10\.1\.2\.3 is a private address/);
    expect((await fetchWith({ url: "http://[::1]:9/x" }, direct)).modelText).toMatch(/^ERROR: ::1 is a loopback address/);
  });

  it("fetches http and https only", async () => {
    expect((await fetchWith({ url: "ftp://example.com/x" })).modelText).toBe("ERROR: the URL uses ftp: web_fetch fetches http and https URLs only");
    expect((await fetchWith({ url: "not a url" })).modelText).toMatch(/^ERROR: the URL "not a url" is not a valid URL/);
  });
});
