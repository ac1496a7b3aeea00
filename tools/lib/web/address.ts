// Which addresses web_fetch keeps away from by default: the machine itself
// and the private networks around it (loopback, RFC 1918, link-local, CGNAT,
// unique-local IPv6, the unspecified address). A model told to fetch
// `http://10.0.0.1/admin` must not reach the user's router or a service on
// localhost unless the user wrote a rule that allows that host.

import { parseIp } from "../../../core/permissions/net.js";

const BLOCKS: ReadonlyArray<{ bits: 32 | 128; base: bigint; prefix: number; what: string }> = [
  v4("127.0.0.0", 8, "a loopback address"),
  v4("10.0.0.0", 8, "a private address"),
  v4("172.16.0.0", 12, "a private address"),
  v4("192.168.0.0", 16, "a private address"),
  v4("169.254.0.0", 16, "a link-local address"),
  v4("100.64.0.0", 10, "a shared (CGNAT) address"),
  v4("0.0.0.0", 8, "the unspecified address"),
  { bits: 128, base: 1n, prefix: 128, what: "a loopback address" },
  { bits: 128, base: 0n, prefix: 128, what: "the unspecified address" },
  { bits: 128, base: 0xfcn << 120n, prefix: 7, what: "a private address" },
  { bits: 128, base: 0xfe80n << 112n, prefix: 10, what: "a link-local address" },
];

function v4(text: string, prefix: number, what: string) {
  return { bits: 32 as const, base: parseIp(text)!.value, prefix, what };
}

/** What kind of non-public address this is, or undefined for a public one (or no IP at all). */
export function privateKind(address: string): string | undefined {
  const ip = parseIp(address.replace(/^\[|\]$/g, ""));
  if (!ip) return undefined;
  for (const b of BLOCKS) {
    if (b.bits !== ip.bits) continue;
    const shift = BigInt(b.bits - b.prefix);
    if (ip.value >> shift === b.base >> shift) return b.what;
  }
  return undefined;
}
