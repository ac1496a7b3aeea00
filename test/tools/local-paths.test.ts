// Where the file tools may reach, on real files: Chord's local-path handling
// (`~`, paths outside the project resolved and left to the permission rules,
// which ask), device paths refused, and [sandbox].unreadable_paths hidden
// from the file tools of both surfaces as it is from commands.

import * as fsp from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { evaluate } from "../../core/permissions/engine.js";
import { catalogOf } from "../permissions/support.js";
import { loadProfileRules } from "../../core/permissions/profile-rules.js";
import { savedOutputRules } from "../../app/permission-setup.js";
import { chordReadTool } from "../../tools/chord/read.js";
import { chordWriteTool } from "../../tools/chord/write.js";
import { chordGrepTool } from "../../tools/chord/grep.js";
import { chordGlobTool } from "../../tools/chord/glob.js";
import { readTool } from "../../tools/yuj/read.js";
import { grepTool } from "../../tools/yuj/grep.js";
import { writeTool } from "../../tools/yuj/write.js";
import { repoRoot } from "../support/loop-harness.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
let outside: string;
beforeEach(async () => {
  t = await makeToolContext();
  outside = await fsp.mkdtemp(path.join(os.tmpdir(), "yuj-outside-"));
  await fsp.writeFile(path.join(outside, "notes.txt"), "far away\n");
  // The home directory `~` stands for, in this test.
  t.ctx.services = { ...t.ctx.services, env: { ...t.ctx.services.env, HOME: outside } };
});
afterEach(async () => {
  await t.cleanup();
  await fsp.rm(outside, { recursive: true, force: true });
});

describe("Chord file tools take local paths", () => {
  it("read an absolute path outside the project, and ~", async () => {
    const far = path.join(outside, "notes.txt");
    expect(await chordReadTool.run({ path: far }, t.ctx)).toMatchObject({ ok: true, modelText: "READ_RESULT lines=1-1 total=1\nfar away\n" });
    expect(await chordReadTool.run({ path: "~/notes.txt" }, t.ctx)).toMatchObject({ ok: true, modelText: "READ_RESULT lines=1-1 total=1\nfar away\n" });
    // Yuj's file tools stay inside the project.
    expect(await readTool.run({ path: far }, t.ctx)).toEqual({ ok: false, modelText: `ERROR: path escapes cwd: ${far}` });
  });

  it("write a new file under ~", async () => {
    expect(await chordWriteTool.run({ path: "~/made.txt", content: "new\n" }, t.ctx)).toEqual({
      ok: true,
      modelText: "Successfully wrote 2 lines, 4 bytes",
    });
    expect(await fsp.readFile(path.join(outside, "made.txt"), "utf8")).toBe("new\n");
  });

  it("refuse a device path", async () => {
    expect(await chordReadTool.run({ path: "/dev/stdin" }, t.ctx)).toEqual({
      ok: false,
      modelText: "cannot read blocked device path: /dev/stdin (file tools read and write regular files only)",
    });
  });

  it("the baseline rules ask about every path outside the project, and allow the session's saved output", () => {
    const rules = [...loadProfileRules(path.join(repoRoot, "profiles", "chord")), ...savedOutputRules(t.ctx.sessionDir)];
    const decide = (tool: string, _handler: string, p: string) =>
      evaluate({ tool, args: { path: p }, cwd: t.cwd }, rules, { surface: "chord", yolo: false, measurement: false, tools: catalogOf("chord") }).action;
    expect(decide("read", "chord_read", "src/a.ts")).toBe("allow");
    expect(decide("read", "chord_read", path.join(t.cwd, "src/a.ts"))).toBe("allow");
    expect(decide("read", "chord_read", "/etc/hostname")).toBe("ask");
    expect(decide("read", "chord_read", "~/notes.txt")).toBe("ask");
    expect(decide("view_image", "view_image", "/tmp/x.png")).toBe("ask");
    expect(decide("write", "chord_write", "~/made.txt")).toBe("ask");
    expect(decide("edit", "chord_edit", "/etc/hosts")).toBe("ask");
    expect(decide("read", "chord_read", path.join(t.ctx.sessionDir, "tool-output", "read-result-c1.log"))).toBe("allow");
    expect(decide("read", "chord_read", path.join(t.ctx.sessionDir, "jobs", "j1.log"))).toBe("allow");
    expect(decide("read", "chord_read", path.join(t.ctx.sessionDir, "state.json"))).toBe("ask");
  });
});

describe("[sandbox].unreadable_paths is hidden from the file tools too", () => {
  beforeEach(async () => {
    await t.put({ "secrets/key.pem": "TOPSECRET\n", "src/app.ts": "TOPSECRET is not here\n" });
    t.ctx.config.sandbox.unreadable_paths = ["secrets"];
  });

  it("read refuses it on both surfaces", async () => {
    const real = await fsp.realpath(path.join(t.cwd, "secrets"));
    expect(await readTool.run({ path: "secrets/key.pem" }, t.ctx)).toEqual({
      ok: false,
      modelText: `ERROR: secrets/key.pem is hidden by [sandbox].unreadable_paths (${real}): file tools do not open it either`,
    });
    expect(await chordReadTool.run({ path: "secrets/key.pem" }, t.ctx)).toEqual({
      ok: false,
      modelText: `secrets/key.pem is hidden by [sandbox].unreadable_paths (${real}): file tools do not open it either`,
    });
  });

  it("write refuses it on both surfaces, and nothing changes", async () => {
    expect((await writeTool.run({ path: "secrets/key.pem", content: "x" }, t.ctx)).ok).toBe(false);
    expect((await chordWriteTool.run({ path: "secrets/new.pem", content: "x" }, t.ctx)).ok).toBe(false);
    expect(await fsp.readFile(path.join(t.cwd, "secrets/key.pem"), "utf8")).toBe("TOPSECRET\n");
    await expect(fsp.stat(path.join(t.cwd, "secrets/new.pem"))).rejects.toThrow();
  });

  it("a missing entry fails closed: nothing is opened until it is fixed", async () => {
    t.ctx.config.sandbox.unreadable_paths = ["no-such-secret"];
    const res = await readTool.run({ path: "src/app.ts" }, t.ctx);
    expect(res.ok).toBe(false);
    expect(res.modelText).toMatch(/^ERROR: \[sandbox\]\.unreadable_paths.*no-such-secret/);
    expect((await chordReadTool.run({ path: "src/app.ts" }, t.ctx)).ok).toBe(false);
  });

  it("searches leave it out", async () => {
    expect((await grepTool.run({ pattern: "TOPSECRET" }, t.ctx)).modelText).toBe(
      '<search_result tool="grep" total="1" shown="1" page="1" next_page="0" pattern="TOPSECRET" scope=".">\n./src/app.ts:1:TOPSECRET is not here\n</search_result>',
    );
    expect(await chordGrepTool.run({ pattern: "TOPSECRET" }, t.ctx)).toMatchObject({ ok: true, modelText: "src/app.ts:1:TOPSECRET is not here" });
    expect(await chordGlobTool.run({ patterns: ["**/*"] }, t.ctx)).toMatchObject({ ok: true, modelText: "src/app.ts" });
  });
});
