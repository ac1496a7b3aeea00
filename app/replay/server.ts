// The replaying provider for HTTP adapters: a server on 127.0.0.1 that
// answers the Nth model request with the Nth recorded response (its status
// and body, as recorded), so the session's real adapter, SDK and retry layer
// run unchanged and the bytes they send can be compared with the recording.

import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Exchange } from "./recording.js";

export interface ReplayServer {
  url: string;
  /** Request bodies as they arrived, in order. */
  received: string[];
  close(): Promise<void>;
}

export async function startReplayServer(exchanges: readonly Exchange[]): Promise<ReplayServer> {
  const received: string[] = [];
  const server = createServer((req, res) => {
    void answer(req, res).catch(() => res.destroy());
  });

  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    const n = received.length;
    received.push(body);
    const recorded = exchanges[n];
    if (!recorded) {
      // 400 is not retried: the run ends with this message in its error.
      const message = `replay: the recording has ${exchanges.length} requests; this is request ${n + 1}`;
      res.writeHead(400, { "content-type": "application/json" });
      res.end(JSON.stringify({ type: "error", error: { type: "invalid_request_error", message }, message }));
      return;
    }
    if (!recorded.response || recorded.response.status === 0) {
      // The recorded attempt got no response: the connection failed.
      req.socket.destroy();
      return;
    }
    const { status, body: text } = recorded.response;
    const sse = /^(event|data|id|retry|:)/m.test(text.slice(0, 200)) && !text.trimStart().startsWith("{");
    res.writeHead(status, { "content-type": sse ? "text/event-stream; charset=utf-8" : "application/json" });
    if (!sse) {
      res.end(text);
      return;
    }
    // One write per SSE event, as a live stream arrives.
    for (const piece of text.split(/(?<=\n\n)/)) await write(res, piece);
    res.end();
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function write(res: ServerResponse, text: string): Promise<void> {
  return new Promise((resolve) => {
    if (res.destroyed) return resolve();
    res.write(text, () => resolve());
  });
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}
