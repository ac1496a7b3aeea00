// web_fetch rules match the URL's host and port, not its text: the same
// host reached through another spelling of the URL must meet the same rule.
//
// Match value: `host:port` from the URL as supplied (no DNS, no redirects),
// the port taken from the scheme when the URL has none (http 80, https 443);
// IPv6 hosts keep their brackets: `[::1]:8080`.
//
// Pattern: `host[:port]`, where host is
//   * a domain (`example.com`, case-insensitive, matches only that name),
//   * a domain glob (`*.example.com` matches subdomains, not the apex; `*` any host),
//   * a literal IP (`10.0.0.1`, `[::1]`; IPv6 in brackets when a port follows),
//   * a CIDR block (`10.0.0.0/8`, `[fd00::/8]:443`), matching IP hosts only,
// and port is omitted or `*` (any), a number, or a range `a-b`. A pattern
// with a scheme or a path (`https://x`, `x.com/a`) matches nothing.

import { globMatch, isUniversal } from "./glob.js";

const DEFAULT_PORTS: Record<string, number> = { "http:": 80, "https:": 443, "ws:": 80, "wss:": 443, "ftp:": 21 };

/** The match value of a URL: `host:port`, or the text itself when it is no URL. */
export function urlMatchValue(url: string): string {
  let u: URL;
  try {
    u = new URL(url.trim());
  } catch {
    return url;
  }
  if (!u.hostname) return url;
  const port = u.port || DEFAULT_PORTS[u.protocol]?.toString();
  return port === undefined ? u.hostname : `${u.hostname}:${port}`;
}

interface HostPort {
  host: string;
  /** undefined: any port (pattern) or unknown (value). */
  port: string | undefined;
}

/** Splits `host[:port]`, `[v6][:port]` or a bare IPv6 address (more than one colon). */
function splitHostPort(text: string): HostPort | undefined {
  if (text.startsWith("[")) {
    const end = text.indexOf("]");
    if (end < 0) return undefined;
    const rest = text.slice(end + 1);
    if (rest !== "" && !rest.startsWith(":")) return undefined;
    return { host: text.slice(1, end), port: rest === "" ? undefined : rest.slice(1) };
  }
  const colons = text.split(":").length - 1;
  if (colons > 1) return { host: text, port: undefined };
  const at = text.indexOf(":");
  return at < 0 ? { host: text, port: undefined } : { host: text.slice(0, at), port: text.slice(at + 1) };
}

/** True when a web_fetch rule pattern covers a match value from urlMatchValue. */
export function hostMatches(pattern: string | undefined, value: string): boolean {
  if (isUniversal(pattern)) return true;
  const p = splitHostPort(pattern!.trim());
  const v = splitHostPort(value);
  if (!p || !v || p.host === "" || v.host === "") return false;
  return portMatches(p.port, v.port) && hostPartMatches(p.host, v.host);
}

function portMatches(pattern: string | undefined, port: string | undefined): boolean {
  if (pattern === undefined || pattern === "*") return true;
  if (port === undefined || !/^\d+$/.test(port)) return false;
  const n = Number(port);
  const range = /^(\d+)-(\d+)$/.exec(pattern);
  if (range) return n >= Number(range[1]) && n <= Number(range[2]);
  return /^\d+$/.test(pattern) && n === Number(pattern);
}

function hostPartMatches(pattern: string, host: string): boolean {
  const slash = pattern.indexOf("/");
  if (slash >= 0) return cidrContains(pattern.slice(0, slash), pattern.slice(slash + 1), host);
  const pip = parseIp(pattern);
  if (pip) {
    const hip = parseIp(host);
    return hip !== undefined && hip.bits === pip.bits && hip.value === pip.value;
  }
  if (/[/:@]/.test(pattern)) return false;
  return globMatch(dropDot(pattern.toLowerCase()), dropDot(host.toLowerCase()));
}

const dropDot = (s: string): string => (s.length > 1 && s.endsWith(".") ? s.slice(0, -1) : s);

function cidrContains(base: string, len: string, host: string): boolean {
  const net = parseIp(base);
  const ip = parseIp(host);
  if (!net || !ip || net.bits !== ip.bits || !/^\d+$/.test(len)) return false;
  const prefix = Number(len);
  if (prefix > net.bits) return false;
  const shift = BigInt(net.bits - prefix);
  return ip.value >> shift === net.value >> shift;
}

interface Ip {
  bits: 32 | 128;
  value: bigint;
}

/** An IPv4 or IPv6 address; an IPv4-mapped IPv6 address counts as IPv4. */
export function parseIp(text: string): Ip | undefined {
  const v4 = parseIpv4(text);
  if (v4 !== undefined) return { bits: 32, value: v4 };
  const v6 = parseIpv6(text);
  if (v6 === undefined) return undefined;
  if (v6 >> 32n === 0xffffn) return { bits: 32, value: v6 & 0xffffffffn };
  return { bits: 128, value: v6 };
}

function parseIpv4(text: string): bigint | undefined {
  const parts = text.split(".");
  if (parts.length !== 4) return undefined;
  let value = 0n;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part) || Number(part) > 255) return undefined;
    value = (value << 8n) | BigInt(part);
  }
  return value;
}

function parseIpv6(text: string): bigint | undefined {
  const addr = text.replace(/%.*$/, ""); // zone id
  if (!/^[0-9a-fA-F:.]+$/.test(addr) || !addr.includes(":")) return undefined;
  const halves = addr.split("::");
  if (halves.length > 2) return undefined;
  const groups = (s: string): number[] | undefined => {
    if (s === "") return [];
    const out: number[] = [];
    const parts = s.split(":");
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!;
      if (i === parts.length - 1 && part.includes(".")) {
        const v4 = parseIpv4(part);
        if (v4 === undefined) return undefined;
        out.push(Number(v4 >> 16n), Number(v4 & 0xffffn));
      } else if (/^[0-9a-fA-F]{1,4}$/.test(part)) out.push(parseInt(part, 16));
      else return undefined;
    }
    return out;
  };
  const head = groups(halves[0]!);
  const tail = halves.length === 2 ? groups(halves[1]!) : [];
  if (!head || !tail) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const all = [...head, ...new Array<number>(missing).fill(0), ...tail];
  return all.reduce((acc, g) => (acc << 16n) | BigInt(g), 0n);
}
