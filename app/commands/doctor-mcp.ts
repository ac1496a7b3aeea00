// `yuj doctor`'s MCP lines: every configured server connected as a session
// would connect it (manual ones too: the doctor checks what could run), the
// tools it offers or why it failed, then ended.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Config } from "../../core/config/schema.js";
import { commandEnv, policyFromConfig } from "../../core/jobs/shell-env.js";
import { createMcpManager } from "../../core/mcp/manager.js";
import { systemClock } from "../../core/services.js";

type Say = (status: "ok" | "warn" | "fail", what: string, detail: string) => void;

export async function reportMcp(config: Config, cwd: string, env: NodeJS.ProcessEnv, say: Say): Promise<void> {
  const names = Object.keys(config.mcp.servers);
  if (names.length === 0) return;
  const scratch = mkdtempSync(join(tmpdir(), "yuj-doctor-mcp-"));
  const servers = Object.fromEntries(Object.entries(config.mcp.servers).map(([n, s]) => [n, { ...s, manual: false }]));
  const mcp = createMcpManager({
    settings: { ...config.mcp, servers },
    projectDir: cwd,
    sessionDir: scratch,
    env: commandEnv(env, policyFromConfig(config)),
    ownEnv: env,
    emit: (body) => ({ ...body, seq: 0, ts: "", sessionId: "doctor", agentId: "doctor" }) as never,
    clock: systemClock,
  });
  try {
    await mcp.start();
    const tools = mcp.tools();
    for (const s of mcp.status()) {
      const manual = config.mcp.servers[s.name]!.manual ? " (manual: starts with /mcp enable)" : "";
      if (s.state === "connected") {
        const own = tools.filter((t) => t.server === s.name);
        const list = own.filter((t) => t.kind === "tool").map((t) => t.exposed);
        const offers = [own.some((t) => t.kind === "read_resource") && "resources", own.some((t) => t.kind === "get_prompt") && "prompts"].filter(Boolean);
        const extra = offers.length ? `, and its ${offers.join(" and ")}` : "";
        say("ok", `mcp ${s.name}`, `${s.transport}, ${list.length} tools${extra}${manual}: ${list.join(", ")}`);
      } else say("fail", `mcp ${s.name}`, `${s.transport}: ${s.detail ?? s.state}${manual}`);
    }
  } finally {
    await mcp.shutdown();
    rmSync(scratch, { recursive: true, force: true });
  }
}
