import { describe, expect, it } from "vitest";
import { hostMatches, parseIp, urlMatchValue } from "../../core/permissions/net.js";

describe("urlMatchValue", () => {
  it.each<[string, string]>([
    ["https://example.com/a?b#c", "example.com:443"],
    ["http://example.com", "example.com:80"],
    ["http://Example.COM:8080/x", "example.com:8080"],
    ["https://user:pw@api.example.com/", "api.example.com:443"],
    ["https://10.1.2.3/", "10.1.2.3:443"],
    ["http://[::1]:3000/", "[::1]:3000"],
    ["https://[2001:DB8::1]/", "[2001:db8::1]:443"],
    ["wss://x.io/socket", "x.io:443"],
    ["gopher://x.io/", "x.io"],
    ["not a url", "not a url"],
  ])("%s → %s", (url, value) => {
    expect(urlMatchValue(url)).toBe(value);
  });
});

const fetch = (pattern: string | undefined, url: string) => hostMatches(pattern, urlMatchValue(url));

describe("hostMatches", () => {
  it.each<[string | undefined, string, boolean]>([
    // universal
    [undefined, "https://anything.example/x", true],
    ["*", "https://anything.example/x", true],
    ["*", "not a url", true],
    // domains: exact, case-insensitive, any port when none is given
    ["example.com", "https://example.com/", true],
    ["example.com", "http://EXAMPLE.com:8080/", true],
    ["Example.Com", "https://example.com/", true],
    ["example.com", "https://www.example.com/", false],
    ["example.com", "https://example.com.evil.io/", false],
    ["example.com", "https://notexample.com/", false],
    ["example.com.", "https://example.com/", true],
    // *.suffix: subdomains at any depth, not the apex
    ["*.example.com", "https://api.example.com/", true],
    ["*.example.com", "https://a.b.example.com/", true],
    ["*.example.com", "https://example.com/", false],
    ["*.example.com", "https://evilexample.com/", false],
    ["*", "http://10.0.0.1/", true],
    // ports: single, range, *, default from the scheme
    ["example.com:443", "https://example.com/", true],
    ["example.com:443", "http://example.com/", false],
    ["example.com:80", "http://example.com/", true],
    ["example.com:8080", "http://example.com:8080/", true],
    ["example.com:8080", "http://example.com:8081/", false],
    ["example.com:8000-8999", "http://example.com:8443/", true],
    ["example.com:8000-8999", "http://example.com:9000/", false],
    ["example.com:*", "http://example.com:1234/", true],
    ["*:443", "https://any.where/", true],
    ["*:443", "http://any.where/", false],
    // IPv4 literals and CIDR
    ["10.0.0.1", "http://10.0.0.1/", true],
    ["10.0.0.1", "http://10.0.0.2/", false],
    ["10.0.0.1:8080", "http://10.0.0.1:8080/", true],
    ["10.0.0.0/8", "http://10.200.3.4/", true],
    ["10.0.0.0/8", "http://11.0.0.1/", false],
    ["192.168.1.0/24:443", "https://192.168.1.77/", true],
    ["192.168.1.0/24:443", "http://192.168.1.77/", false],
    ["0.0.0.0/0", "http://8.8.8.8/", true],
    ["10.0.0.0/8", "http://ten.example/", false],
    ["127.0.0.1", "http://0x7f.1/", true], // the URL parser normalises IPv4 spellings
    // IPv6 literals (brackets with a port) and CIDR
    ["[::1]", "http://[::1]:3000/", true],
    ["::1", "http://[::1]/", true],
    ["[::1]:3000", "http://[::1]:3000/", true],
    ["[::1]:3000", "http://[::1]:3001/", false],
    ["[0:0:0:0:0:0:0:1]", "http://[::1]/", true],
    ["[2001:db8::/32]", "https://[2001:db8:1::5]/", true],
    ["2001:db8::/32", "https://[2001:db9::5]/", false],
    ["[fd00::/8]:443", "https://[fd12::1]/", true],
    ["[fd00::/8]:443", "http://[fd12::1]/", false],
    ["10.0.0.0/8", "http://[::ffff:10.1.1.1]/", true], // IPv4-mapped counts as IPv4
    ["::1", "http://127.0.0.1/", false],
    // no scheme or path patterns
    ["https://example.com", "https://example.com/", false],
    ["example.com/path", "https://example.com/path", false],
    // a value that is no URL meets only universal patterns
    ["example.com", "not a url", false],
  ])("%j covers %s: %s", (pattern, url, expected) => {
    expect(fetch(pattern, url)).toBe(expected);
  });
});

describe("parseIp", () => {
  it("reads IPv4, IPv6 and mapped addresses", () => {
    expect(parseIp("1.2.3.4")).toEqual({ bits: 32, value: 0x01020304n });
    expect(parseIp("::")).toEqual({ bits: 128, value: 0n });
    expect(parseIp("::1")).toEqual({ bits: 128, value: 1n });
    expect(parseIp("::ffff:1.2.3.4")).toEqual({ bits: 32, value: 0x01020304n });
    expect(parseIp("fe80::1%eth0")?.bits).toBe(128);
    for (const bad of ["1.2.3", "1.2.3.256", "1::2::3", "example.com", "1:2:3:4:5:6:7:8:9", "12345::"]) {
      expect(parseIp(bad)).toBeUndefined();
    }
  });
});
