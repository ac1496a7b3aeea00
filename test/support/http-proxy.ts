// A tiny forward HTTP proxy for tests: it records every request it is sent
// (an absolute-URL GET, or a CONNECT for https), forwards a GET to the host
// named in the URL, with a name it was told about mapped to a local port
// (so a test can use a host name that does not resolve anywhere else), and
// answers every CONNECT with 403 (tests need no TLS server to see the tunnel asked for).

import { createServer, request, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

interface ProxiedRequest {
  method: string;
  /** What the request line named: an absolute URL, or host:port for CONNECT. */
  target: string;
  headers: IncomingHttpHeaders;
}

export interface TestProxy {
  url: string;
  seen: ProxiedRequest[];
  close(): Promise<void>;
}

/** `hosts` maps a host name to the loopback port the proxy sends it to. */
export async function startTestProxy(hosts: Record<string, number> = {}): Promise<TestProxy> {
  const seen: ProxiedRequest[] = [];
  const server: Server = createServer((req, res) => {
    seen.push({ method: req.method ?? "", target: req.url ?? "", headers: req.headers });
    let target: URL;
    try {
      target = new URL(req.url ?? "");
    } catch {
      res.writeHead(400).end("a proxy request names an absolute URL");
      return;
    }
    const port = hosts[target.hostname] ?? Number(target.port || 80);
    const host = hosts[target.hostname] !== undefined ? "127.0.0.1" : target.hostname;
    const upstream = request({ host, port, method: req.method, path: target.pathname + target.search, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on("error", (err) => res.writeHead(502).end(`upstream: ${err.message}`));
    req.pipe(upstream);
  });
  server.on("connect", (req, socket) => {
    seen.push({ method: "CONNECT", target: req.url ?? "", headers: req.headers });
    socket.end("HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
