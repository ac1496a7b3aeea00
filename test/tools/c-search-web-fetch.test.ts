// web_fetch's header lines as Chord's web_fetch tests pin them when the text
// is longer than a tool result may be: `Truncated: output` (or
// `input,output`) and the `Output-Limit`, never `Truncated: none` over a body
// the dispatcher then cuts in the middle. The whole text stays saved.

import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Config } from "../../core/config/schema.js";
import { chordCall } from "../support/chord-call.js";
import { makeToolContext } from "../support/tool-context.js";

const BODY = "你好\n".repeat(2000);
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((_req, res) => void res.writeHead(200, { "content-type": "text/plain; charset=utf-8" }).end(BODY));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

async function fetchThroughDispatcher(adjust: (c: Config) => void) {
  const t = await makeToolContext((c) => {
    c.permissions.rules = [{ tool: "web_fetch", pattern: "127.0.0.1:*", action: "allow" }];
    c.web_fetch.proxy = "";
    adjust(c);
  });
  try {
    const r = await chordCall(t, "web_fetch", { url: base }, { useContextConfig: true });
    const saved = /saved to (\S+) — read or grep it/.exec(r.text)?.[1];
    return { ...r, full: saved ? readFileSync(saved, "utf8") : undefined };
  } finally {
    await t.cleanup();
  }
}

describe("web_fetch over the result bound", () => {
  it("says Truncated: output with the limit, and the saved text holds the whole body", async () => {
    const r = await fetchThroughDispatcher((c) => (c.output.max_output_chars = 2000));
    const head = r.text.split("\n\n")[0];
    expect(head).toBe(
      `URL: ${base}/\nStatus: 200\nContent-Type: text/plain; charset=utf-8\nCharset: utf-8\nExtraction-Mode: raw\nContent-Quality: ok\nRead-Bytes: 14000/5242880\n` +
        "Truncated: output\nOutput-Limit: 2000 chars\n" +
        "Output-Note: the text is longer than a tool result may be ([output].max_output_chars); its middle is cut and the whole text is saved where the marker in it says",
    );
    expect(r.full!.endsWith(BODY.trimEnd())).toBe(true);
  });

  it("a download cut at max_bytes and then over the bound says input,output", async () => {
    const r = await fetchThroughDispatcher((c) => {
      c.output.max_output_chars = 2000;
      c.web_fetch.max_bytes = 9000;
    });
    expect(r.text).toContain("Read-Bytes: 9000/9000\nTruncated: input,output\nTruncated-Note: the download stopped at the 9000 bytes cap ([web_fetch].max_bytes); what follows is the start of the body\nOutput-Limit: 2000 chars\n");
  });

  it("a page within the bound still says Truncated: none", async () => {
    const r = await fetchThroughDispatcher(() => undefined);
    expect(r.text).toContain("Read-Bytes: 14000/5242880\nTruncated: none\n\n你好\n");
    expect(r.full).toBeUndefined();
  });
});
