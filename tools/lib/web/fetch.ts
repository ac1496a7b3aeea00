// One web_fetch download: GET with redirects followed (each hop http or
// https, each checked against the private-address rule), the body read up to
// a byte cap (after decompression, so a small gzip cannot expand without
// bound), the whole of it under one deadline. The address a host name
// resolved to is the address connected to, so a name cannot be checked as
// public and then reached as private. Through an HTTP proxy when one is set:
// CONNECT for https, the absolute URL for http.

import * as dns from "node:dns";
import * as http from "node:http";
import * as https from "node:https";
import type { LookupFunction, Socket } from "node:net";
import * as tls from "node:tls";
import * as zlib from "node:zlib";
import { urlMatchValue } from "../../../core/permissions/net.js";
import { privateKind } from "./address.js";

export interface FetchOptions {
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
  userAgent: string;
  /** `http://host:port` of a proxy, or undefined for a direct connection. */
  proxy?: string;
  /** True when a rule allows this `host:port` although it is private or loopback. */
  allowPrivate(hostPort: string): boolean;
  signal: AbortSignal;
}

export interface Fetched {
  url: string;
  status: number;
  contentType: string;
  body: Buffer;
  /** The body went past maxBytes and was cut there. */
  truncated: boolean;
  /** The URLs redirected from, in order. */
  redirects: string[];
}

/** A refusal or failure the model is told as it is. */
export class FetchError extends Error {
  override name = "FetchError";
}

export async function fetchUrl(start: string, opts: FetchOptions): Promise<Fetched> {
  const redirects: string[] = [];
  let url = parseHttpUrl(start);
  for (;;) {
    const res = await requestOnce(url, opts);
    const location = res.statusCode !== undefined && res.statusCode >= 300 && res.statusCode < 400 ? res.headers.location : undefined;
    if (location === undefined) return { ...(await readBody(res, opts)), url: url.href, status: res.statusCode ?? 0, contentType: String(res.headers["content-type"] ?? ""), redirects };
    res.resume();
    if (redirects.length >= opts.maxRedirects) throw new FetchError(`more than ${opts.maxRedirects} redirects (${[...redirects, url.href].join(" → ")}); fetch the final URL directly if you know it`);
    redirects.push(url.href);
    url = parseHttpUrl(new URL(location, url).href, `the redirect from ${url.href}`);
  }
}

function parseHttpUrl(text: string, from = "the URL"): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new FetchError(`${from} ${JSON.stringify(text)} is not a valid URL; give an absolute http:// or https:// URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new FetchError(`${from} uses ${url.protocol.replace(/:$/, "")}: web_fetch fetches http and https URLs only`);
  if (url.username || url.password) throw new FetchError(`${from} carries a user name or password; web_fetch does not send credentials`);
  return url;
}

/** Refuses a private or loopback address unless a rule allows this host. */
function checkAddress(address: string, url: URL, opts: FetchOptions): void {
  const kind = privateKind(address);
  if (kind === undefined) return;
  const value = urlMatchValue(url.href);
  if (opts.allowPrivate(value)) return;
  throw new FetchError(
    `${url.hostname.replace(/^\[|\]$/g, "")} is ${kind} (${address}); web_fetch refuses private and loopback addresses unless a rule allows them: ` +
      `add [[permissions.rules]] tool = "web_fetch", pattern = "${value}", action = "allow" to your config`,
  );
}

/**
 * Through a proxy the proxy resolves the name, so yuj cannot check the
 * address it connects to; a name that resolves here to a private or loopback
 * address (localhost, a name in /etc/hosts, the LAN's DNS) is refused all the
 * same. A name only the proxy can resolve goes on to the proxy.
 */
async function checkNameBeforeProxy(host: string, url: URL, opts: FetchOptions): Promise<void> {
  const addresses = await dns.promises.lookup(host, { all: true }).catch(() => []);
  for (const a of addresses) checkAddress(a.address, url, opts);
}

async function requestOnce(url: URL, opts: FetchOptions): Promise<http.IncomingMessage> {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  // Literal IPs are checked here; names when they resolve (the lookup below).
  checkAddress(host, url, opts);
  if (opts.proxy) await checkNameBeforeProxy(host, url, opts);
  // English first, as Chord asks: a page that negotiates its language answers in the one models read best.
  const headers = {
    "user-agent": opts.userAgent,
    accept: "text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.8",
    "accept-language": "en-US,en;q=0.9",
    "accept-encoding": "gzip, deflate, br",
  };
  const lookup: LookupFunction = (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, "", 0);
      try {
        for (const a of addresses) checkAddress(a.address, url, opts);
      } catch (refusal) {
        return callback(refusal as Error, "", 0);
      }
      const first = addresses[0]!;
      if ((options as { all?: boolean }).all) (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
      else callback(null, first.address, first.family);
    });
  };
  return new Promise((resolve, reject) => {
    const onError = (err: Error) => reject(err instanceof FetchError ? err : new FetchError(describeNetError(err, url, opts)));
    const base = { method: "GET", headers, signal: opts.signal };
    if (!opts.proxy) {
      const mod = url.protocol === "https:" ? https : http;
      const req = mod.request(url, { ...base, lookup }, resolve);
      req.on("error", onError);
      req.end();
      return;
    }
    const proxy = new URL(opts.proxy);
    if (url.protocol === "http:") {
      const req = http.request({ ...base, host: proxy.hostname, port: proxy.port || 80, path: url.href, headers: { ...headers, host: url.host } }, resolve);
      req.on("error", onError);
      req.end();
      return;
    }
    const connect = http.request({ host: proxy.hostname, port: proxy.port || 80, method: "CONNECT", path: `${host}:${url.port || 443}`, signal: opts.signal });
    connect.on("error", onError);
    connect.on("connect", (res, socket: Socket) => {
      if (res.statusCode !== 200) return onError(new FetchError(`the proxy ${proxy.host} refused the tunnel to ${url.host} (HTTP ${res.statusCode})`));
      const secure = tls.connect({ socket, servername: host });
      const req = https.request(url, { ...base, createConnection: () => secure }, resolve);
      req.on("error", onError);
      req.end();
    });
    connect.end();
  });
}

async function readBody(res: http.IncomingMessage, opts: FetchOptions): Promise<{ body: Buffer; truncated: boolean }> {
  const stream = decompressor(String(res.headers["content-encoding"] ?? ""), res);
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const room = opts.maxBytes - size;
      if (chunk.length > room) {
        chunks.push(chunk.subarray(0, room));
        size = opts.maxBytes;
        truncated = true;
        break;
      }
      chunks.push(chunk);
      size += chunk.length;
    }
  } catch (err) {
    throw new FetchError(opts.signal.aborted ? "timed out while the body was arriving" : `the body could not be read: ${(err as Error).message}`);
  } finally {
    res.destroy();
  }
  return { body: Buffer.concat(chunks), truncated };
}

function decompressor(encoding: string, res: http.IncomingMessage): NodeJS.ReadableStream {
  const e = encoding.trim().toLowerCase();
  if (e === "gzip" || e === "x-gzip") return res.pipe(zlib.createGunzip());
  if (e === "deflate") return res.pipe(zlib.createInflate());
  if (e === "br") return res.pipe(zlib.createBrotliDecompress());
  return res;
}

function describeNetError(err: Error, url: URL, opts: FetchOptions): string {
  if (opts.signal.aborted) return `timed out fetching ${url.href}`;
  const code = (err as NodeJS.ErrnoException).code;
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return `the host ${url.hostname} was not found (DNS); check the URL`;
  if (code === "ECONNREFUSED") return `${url.host} refused the connection`;
  return `could not fetch ${url.href}: ${err.message}`;
}
