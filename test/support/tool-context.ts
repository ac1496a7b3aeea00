// A real ToolContext for calling handlers directly: a fresh temporary task
// directory, the node services, default config, and an emit that records.

import * as fsp from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import type { ToolContext } from "../../core/tool-types.js";
import type { EventBody, CoreEvent } from "../../core/events.js";
import { nodeServices, type Clock } from "../../core/services.js";
import { defaultConfig, type Config } from "../../core/config/schema.js";
import { createJobManager } from "../../core/jobs/manager.js";
import { createSessionMemory } from "../../core/session-memory.js";

export interface TestToolContext {
  ctx: ToolContext;
  /** The task directory (the context's cwd). */
  cwd: string;
  events: EventBody[];
  abort: AbortController;
  /** Writes files relative to cwd, creating parents. */
  put(files: Record<string, string | Buffer>): Promise<void>;
  cleanup(): Promise<void>;
}

let seq = 0;

export async function makeToolContext(
  adjust: (config: Config) => void = () => undefined,
  opts: { clock?: Clock } = {},
): Promise<TestToolContext> {
  const cwd = await fsp.mkdtemp(path.join(os.tmpdir(), "yuj-tool-cwd-"));
  const sessionDir = await fsp.mkdtemp(path.join(os.tmpdir(), "yuj-tool-session-"));
  const events: EventBody[] = [];
  const abort = new AbortController();
  const config = defaultConfig();
  adjust(config);
  const emit: ToolContext["emit"] = (body) => {
    events.push(body);
    const event = { ...body, seq: events.length, ts: new Date().toISOString(), sessionId: "test", agentId: "main" };
    return event as CoreEvent;
  };
  // A real job manager: commands run as real processes in real groups.
  const jobs = createJobManager({ sessionDir, emit, ...(opts.clock ? { clock: opts.clock } : {}) });
  const ctx: ToolContext = {
    cwd,
    signal: abort.signal,
    callId: `call_${++seq}`,
    emit,
    services: opts.clock ? { ...nodeServices(), clock: opts.clock } : nodeServices(),
    config,
    sessionDir,
    memory: createSessionMemory(),
    jobs,
    activeTools: new Set(["bash", "read", "write", "edit", "glob", "grep", "done"]),
  };
  return {
    ctx,
    cwd,
    events,
    abort,
    async put(files) {
      for (const [rel, content] of Object.entries(files)) {
        const abs = path.join(cwd, rel);
        await fsp.mkdir(path.dirname(abs), { recursive: true });
        await fsp.writeFile(abs, content);
      }
    },
    async cleanup() {
      await jobs.shutdown();
      await fsp.rm(cwd, { recursive: true, force: true });
      await fsp.rm(sessionDir, { recursive: true, force: true });
    },
  };
}
