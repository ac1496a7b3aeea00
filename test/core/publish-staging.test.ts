// A staged session folder is published under its id when the session is
// first saved. An MCP server started with the session records its process
// in the final folder before that: publishing joins the two instead of failing.

import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createStagingDir, newSessionId, publishStagingDir } from "../../core/session.js";

describe("publishing a staged session folder", () => {
  it("joins a folder a service already wrote into under the session's id, keeping both", () => {
    const sessions = mkdtempSync(join(tmpdir(), "yuj-publish-"));
    const id = newSessionId();
    const staging = createStagingDir(sessions, id);
    writeFileSync(join(staging, "state.json"), "{}");
    mkdirSync(join(staging, "outputs"));
    writeFileSync(join(staging, "outputs", "a.txt"), "saved output");
    mkdirSync(join(sessions, id, "mcp", "jobs"), { recursive: true });
    writeFileSync(join(sessions, id, "mcp", "jobs", "registry.json"), "[]");

    expect(publishStagingDir(staging)).toBe(join(sessions, id));
    expect(existsSync(staging)).toBe(false);
    expect(readFileSync(join(sessions, id, "state.json"), "utf8")).toBe("{}");
    expect(readFileSync(join(sessions, id, "outputs", "a.txt"), "utf8")).toBe("saved output");
    expect(readFileSync(join(sessions, id, "mcp", "jobs", "registry.json"), "utf8")).toBe("[]");
  });
});
