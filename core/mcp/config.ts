// The [mcp] settings: the MCP servers yuj connects to, by name.
//
//   [mcp]
//   startup_timeout_s = 10      # the first model request waits at most this long for them
//   call_timeout_s = 120        # one tool call's bound
//   [mcp.servers.files]         # stdio: yuj starts the program
//   command = "npx"
//   args = ["-y", "@modelcontextprotocol/server-filesystem", "."]
//   [mcp.servers.search]        # streamable HTTP: yuj connects to the URL
//   url = "https://mcp.example.com/mcp"
//   bearer_token_env = "SEARCH_TOKEN"
//
// A server gives either `command` or `url`, never both.

import { z } from "zod";

const posInt = z.number().int().positive();
const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "an environment variable name");

const mcpServerEntry = z
  .strictObject({
    /** stdio: the program; a bare name is looked up on PATH. */
    command: z.string().min(1).optional(),
    args: z.array(z.string()).default([]),
    /** Set in the server's environment, over yuj's commands' environment. */
    env: z.record(envName, z.string()).default({}),
    /** Its working directory, relative to the project; default the project. */
    cwd: z.string().min(1).optional(),
    /** Streamable HTTP: the endpoint. */
    url: z.url({ protocol: /^https?$/ }).optional(),
    headers: z.record(z.string().min(1), z.string()).default({}),
    /** Sent as `Authorization: Bearer <value of this variable>`. */
    bearer_token_env: envName.optional(),
    /** Only these of the server's tools are registered (names as the server spells them). */
    allowed_tools: z.array(z.string().min(1)).optional(),
    /** Not started with the session; `/mcp enable NAME` starts it. */
    manual: z.boolean().default(false),
  })
  .refine((s) => (s.command === undefined) !== (s.url === undefined), {
    message: "give either command (a program yuj starts) or url (a streamable HTTP endpoint), not both and not neither",
  });

export type McpServerEntry = z.infer<typeof mcpServerEntry>;

export const mcpSection = z
  .strictObject({
    startup_timeout_s: posInt.default(10),
    call_timeout_s: posInt.default(120),
    servers: z.record(z.string().regex(/^[A-Za-z0-9_.-]{1,40}$/, "a server name of letters, digits, _ . -"), mcpServerEntry).default({}),
  })
  .prefault(() => ({}) as never);

export type McpSettings = z.infer<typeof mcpSection>;
