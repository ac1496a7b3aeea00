// The project's .mcp.json (the file other agents' users already keep in a
// repository) read as project config: each entry of `mcpServers` becomes an
// [mcp.servers.NAME] entry of the project's layer, so it meets the same trust
// rule as .yuj/config.toml (a server the project adds starts only once the
// user trusts the project's files). `${VAR}` and `${VAR:-default}` in
// strings are read from yuj's environment, as that format allows.

import * as fs from "node:fs";
import * as path from "node:path";
import { ConfigError } from "./errors.js";

type Table = Record<string, unknown>;

export const MCP_JSON = ".mcp.json";

export interface McpJsonRead {
  file: string;
  /** `{ mcp: { servers: {...} } }` */
  data: Table;
  bytes: Buffer;
}

export function readMcpJson(cwd: string, env: Record<string, string | undefined>): McpJsonRead | undefined {
  const file = path.join(cwd, MCP_JSON);
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw new ConfigError([{ file, message: `cannot read the file (${(err as Error).message}); check that it is a readable file` }]);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(bytes.toString("utf8"));
  } catch (err) {
    throw new ConfigError([{ file, message: `not valid JSON (${(err as Error).message}); fix the JSON or remove the file` }]);
  }
  const servers = isTable(doc) ? doc.mcpServers : undefined;
  if (!isTable(servers)) throw new ConfigError([{ file, message: 'expected an object with "mcpServers": { "<name>": { "command": … } | { "url": … } }' }]);
  const out: Table = {};
  for (const [name, raw] of Object.entries(servers)) out[name] = serverEntry(file, name, expand(raw, env));
  return { file, data: { mcp: { servers: out } }, bytes };
}

function serverEntry(file: string, name: string, raw: unknown): Table {
  const fail = (message: string) => new ConfigError([{ file, message: `mcpServers.${name}: ${message}` }]);
  if (!isTable(raw)) throw fail("expected an object");
  const type = raw.type ?? (raw.url !== undefined ? "http" : "stdio");
  if (type === "sse") throw fail('the "sse" transport is not supported; use a streamable HTTP server ("type": "http")');
  const entry: Table = {};
  if (type === "stdio") {
    copy(raw, entry, ["command", "args", "env", "cwd"]);
  } else if (type === "http") {
    copy(raw, entry, ["url", "headers"]);
  } else {
    throw fail(`unknown "type" ${JSON.stringify(type)}; use "stdio" or "http"`);
  }
  return entry;
}

function copy(from: Table, to: Table, keys: readonly string[]): void {
  for (const k of keys) if (from[k] !== undefined) to[k] = from[k];
}

/** Replaces `${VAR}` / `${VAR:-default}` in every string. */
function expand(v: unknown, env: Record<string, string | undefined>): unknown {
  if (typeof v === "string") return v.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (_, name: string, dflt?: string) => env[name] ?? dflt ?? "");
  if (Array.isArray(v)) return v.map((x) => expand(x, env));
  if (isTable(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, expand(x, env)]));
  return v;
}

const isTable = (v: unknown): v is Table => typeof v === "object" && v !== null && !Array.isArray(v);
