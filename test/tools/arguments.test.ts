// How both surfaces meet the arguments models really send, through the real
// dispatcher and the real profiles: an undeclared parameter, the old names
// the reference systems still accept, and messages written for a model.

import { join } from "node:path";
import * as fsp from "node:fs/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { defaultConfig, type Config } from "../../core/config/schema.js";
import { prepareCall, runPrepared } from "../../core/dispatch.js";
import { activateTools, type ActiveToolset } from "../../core/profiles/activate.js";
import { checkProfile, loadProfile } from "../../core/profiles/load.js";
import { builtinHandlers } from "../../tools/registry.js";
import { repoRoot } from "../support/loop-harness.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
  await t.put({ "src/a.ts": "alpha\n", "src/b.ts": "beta\n" });
});
afterEach(() => t.cleanup());

function toolset(name: "chord" | "_base", config: Config): ActiveToolset {
  const registry = builtinHandlers();
  const profile = loadProfile(join(repoRoot, "profiles"), name);
  checkProfile(profile, registry, "minimal");
  return activateTools(profile, registry, config, { topLevel: true, model: { provider: "anthropic", id: "claude-sonnet-4" } });
}

async function call(surface: "chord" | "_base", name: string, args: unknown, adjust: (c: Config) => void = () => undefined) {
  const config = defaultConfig();
  adjust(config);
  const tools = toolset(surface, config);
  const prepared = prepareCall({ id: "c1", name, args: JSON.stringify(args) }, tools, config);
  const outcome = await runPrepared(prepared, {
    toolset: tools,
    config,
    services: t.ctx.services,
    emit: t.ctx.emit,
    cwd: t.cwd,
    sessionDir: t.ctx.sessionDir,
    signal: new AbortController().signal,
    memory: t.ctx.memory,
  });
  return { ok: outcome.ok, text: outcome.modelText };
}

describe("a parameter the schema does not declare", () => {
  it("is always refused on the Chord surface, naming it and the accepted ones", async () => {
    expect(await call("chord", "read", { path: "src/a.ts", encoding: "utf8" })).toEqual({
      ok: false,
      text: 'ERROR: bad arguments for read: unknown parameter "encoding"; accepted parameters: path, offset, limit',
    });
    expect(await call("chord", "glob", { patterns: ["*.ts"], Path: "src" })).toEqual({
      ok: false,
      text: 'ERROR: bad arguments for glob: unknown parameter "Path" (did you mean "path"?); accepted parameters: patterns, path',
    });
  });

  it("follows schema_validation on the Yuj surface: ignored with a note when off, the envelope under reject", async () => {
    expect(await call("_base", "read", { path: "src/a.ts", encoding: "utf8" })).toEqual({
      ok: true,
      text: 'Note: read takes no "encoding" parameter; it was ignored (accepted parameters: path, offset, limit).\n1: alpha',
    });
    const rejected = await call("_base", "read", { path: "src/a.ts", encoding: "utf8" }, (c) => (c.tools.schema_validation = "reject"));
    expect(rejected.text).toBe(
      'ERROR: {"error":{"errors":[{"actual":"string","expected":"no such field","keyword":"additionalProperties","path":"$.encoding"}],' +
        '"message":"Tool arguments do not match the declared schema.","tool":"read","type":"tool_schema_reject","version":1}}',
    );
  });
});

describe("old names and shapes the reference systems accept", () => {
  it("filePath is read as path, with a note", async () => {
    expect(await call("chord", "read", { filePath: "src/a.ts" })).toEqual({
      ok: true,
      text: 'Note: read has no parameter "filePath"; it was read as "path".\nREAD_RESULT lines=1-1 total=1\nalpha\n',
    });
    expect(await call("_base", "read", { filePath: "src/a.ts" })).toEqual({
      ok: true,
      text: 'Note: read has no parameter "filePath"; it was read as "path".\n1: alpha',
    });
  });

  it("a singular pattern is read as patterns, and a bare string as a list of one", async () => {
    expect(await call("chord", "glob", { pattern: "src/*.ts" })).toEqual({
      ok: true,
      text:
        'Note: glob has no parameter "pattern"; it was read as "patterns".\n' +
        'Note: patterns was a single string and was treated as a one-item list. Use the documented array form, for example patterns: ["**/*.go"], in future calls.\nsrc/a.ts\nsrc/b.ts',
    });
    expect(await call("chord", "grep", { pattern: "alpha", paths: "src" })).toEqual({
      ok: true,
      text: 'Note: paths was a string and was treated as a one-item list. Use the documented array form, for example paths: ["internal/tui"], in future calls.\nsrc/a.ts:1:alpha',
    });
    expect(await call("chord", "glob", { patterns: "src/a.*" })).toEqual({
      ok: true,
      text: 'Note: patterns was a single string and was treated as a one-item list. Use the documented array form, for example patterns: ["**/*.go"], in future calls.\nsrc/a.ts',
    });
    // The list form needs no note.
    expect(await call("chord", "glob", { patterns: ["src/a.*", "src/*.ts"] })).toEqual({ ok: true, text: "src/a.ts\nsrc/b.ts" });
  });

  it("under reject, the call is checked as sent: an old name is an undeclared field", async () => {
    const rejected = await call("_base", "read", { filePath: "src/a.ts" }, (c) => (c.tools.schema_validation = "reject"));
    expect(rejected.text).toContain('"keyword":"additionalProperties","path":"$.filePath"');
  });
});

describe("validation messages are written for a model", () => {
  it("names a missing parameter as required, never zod's words", async () => {
    const res = await call("chord", "glob", { path: "src" });
    expect(res).toEqual({ ok: false, text: "ERROR: bad arguments for glob: patterns is required (string | array)" });
    expect(res.text).not.toContain("Invalid input");
    expect(await call("chord", "delete", { reason: "cleanup" })).toEqual({
      ok: false,
      text: "ERROR: bad arguments for delete: paths is required (string | array)",
    });
  });

  it("names a size rule by its schema keyword: minLength for text, minItems for a list", async () => {
    const rejectArgs = (c: Config) => (c.tools.schema_validation = "reject");
    expect((await call("_base", "ask_user", { question: "" }, rejectArgs)).text).toBe(
      'ERROR: {"error":{"errors":[{"actual":"string","expected":">= 1","keyword":"minLength","path":"$.question"}],' +
        '"message":"Tool arguments do not match the declared schema.","tool":"ask_user","type":"tool_schema_reject","version":1}}',
    );
    expect((await call("chord", "delete", { paths: [], reason: "x" }, rejectArgs)).text).toContain('"keyword":"minItems","path":"$.paths"');
    expect(await call("chord", "delete", { paths: [], reason: "x" })).toEqual({
      ok: false,
      text: "ERROR: bad arguments for delete: paths must list at least 1 item",
    });
    expect(await call("_base", "ask_user", { question: "" })).toEqual({
      ok: false,
      text: "ERROR: bad arguments for ask_user: question must be at least 1 character long",
    });
  });
});

describe("write refuses a path that names a directory", () => {
  it("a path ending in / is refused, on both surfaces, and nothing is written", async () => {
    expect(await call("chord", "write", { path: "out/", content: "x" })).toEqual({
      ok: false,
      text: "path out/ ends with /, so it names a directory; give the file's name (e.g. out/file.txt)",
    });
    expect(await call("_base", "write", { path: "out/", content: "x" })).toEqual({
      ok: false,
      text: "ERROR: path out/ ends with /, so it names a directory; give the file's name (e.g. out/file.txt)",
    });
    await expect(fsp.stat(join(t.cwd, "out"))).rejects.toThrow();
  });
});
