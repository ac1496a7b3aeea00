// Chord's save_artifact / read_artifact against a real session directory:
// named artifacts (create, append, overwrite), immutable content-addressed
// results, path safety, and paged reads with digest checks.

import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readArtifactSchema, readArtifactTool } from "../../tools/chord/read_artifact.js";
import { saveArtifactSchema, saveArtifactTool } from "../../tools/chord/save_artifact.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
});
afterEach(() => t.cleanup());

const sha = (s: string | Buffer) => createHash("sha256").update(s).digest("hex");
const save = (args: Record<string, unknown>) => saveArtifactTool.run(saveArtifactSchema.parse(args), t.ctx);
const read = (args: Record<string, unknown>) => readArtifactTool.run(readArtifactSchema.parse(args), t.ctx);
const onDisk = (rel: string) => readFileSync(join(t.ctx.sessionDir, rel), "utf8");

describe("save_artifact: named artifacts", () => {
  it("creates an artifact under the session's artifacts dir and returns its ref", async () => {
    const r = await save({ filename: "research.md", content: "# Findings\n\nAll good.\n\n", type: "research_report", description: " notes " });
    expect(r.ok).toBe(true);
    expect(onDisk("artifacts/research.md")).toBe("# Findings\n\nAll good.\n");
    expect(JSON.parse(r.modelText)).toEqual({
      id: "research",
      type: "research_report",
      rel_path: "artifacts/research.md",
      path: "artifacts/research.md",
      description: "notes",
      mime_type: "text/markdown",
      size_bytes: 22,
      sha256: sha("# Findings\n\nAll good.\n"),
    });
    // Nothing in the task directory.
    expect(readdirSync(t.cwd)).toEqual([]);
  });

  it("refuses to create twice, appends a block, overwrites", async () => {
    await save({ filename: "log.md", content: "one" });
    expect(await save({ filename: "log.md", content: "two" })).toMatchObject({
      ok: false,
      modelText: "artifact already exists; use mode=append or mode=overwrite to update it",
    });
    await save({ filename: "log.md", content: "two", mode: "append" });
    expect(onDisk("artifacts/log.md")).toBe("one\n\ntwo\n");
    const r = await save({ filename: "log.md", content: "three", mode: "overwrite", mime_type: "text/plain" });
    expect(onDisk("artifacts/log.md")).toBe("three\n");
    expect(JSON.parse(r.modelText)).toMatchObject({ type: "handoff_note", mime_type: "text/plain", size_bytes: 6 });
    // Atomic writes leave no temp files behind.
    expect(readdirSync(join(t.ctx.sessionDir, "artifacts"))).toEqual(["log.md"]);
  });

  it("keeps names path-safe: directories stripped, a way out included", async () => {
    expect(JSON.parse((await save({ filename: "../../escape.md", content: "x" })).modelText).rel_path).toBe("artifacts/escape.md");
    expect(await save({ filename: "a/..", content: "x" })).toMatchObject({ ok: false, modelText: "filename is required" });
    expect(JSON.parse((await save({ filename: "reports/q1 plan.md", content: "x" })).modelText).rel_path).toBe("artifacts/q1_plan.md");
    expect(await save({ filename: "/", content: "x" })).toMatchObject({ ok: false, modelText: "filename is required" });
    expect(await save({ filename: "a.md", content: "  \n" })).toMatchObject({ ok: false, modelText: "content is required" });
  });

  it("does not write through a symbolic link", async () => {
    mkdirSync(join(t.ctx.sessionDir, "artifacts"), { recursive: true });
    symlinkSync(join(t.cwd, "target.md"), join(t.ctx.sessionDir, "artifacts", "link.md"));
    const r = await save({ filename: "link.md", content: "x", mode: "overwrite" });
    expect(r).toMatchObject({ ok: false, modelText: "artifact link.md is a symbolic link; it is not written through" });
    expect(readdirSync(t.cwd)).toEqual([]);
  });
});

describe("save_artifact: immutable results", () => {
  it("stores a canonical, content-addressed result and returns a ResultRef", async () => {
    const r = await save({ result_type: "test_report", result: { passed: 3, failed: [], meta: { z: 1, a: "x" } } });
    const ref = JSON.parse(r.modelText);
    const canonical = '{"failed":[],"meta":{"a":"x","z":1},"passed":3}\n';
    const digest = sha(canonical);
    const id = `sha256-${sha(`test_report\0${digest}`)}`;
    expect(ref).toEqual({ id, result_type: "test_report", rel_path: `artifacts/results/${id}.json`, sha256: digest, size_bytes: canonical.length });
    expect(onDisk(ref.rel_path)).toBe(canonical);
    // The same result (keys in any order) is the same ref; the file is not rewritten.
    const again = JSON.parse((await save({ result_type: "test_report", result: { meta: { a: "x", z: 1 }, failed: [], passed: 3 } })).modelText);
    expect(again).toEqual(ref);
    // Another type is another result.
    expect(JSON.parse((await save({ result_type: "other", result: { passed: 3, failed: [], meta: { z: 1, a: "x" } } })).modelText).id).not.toBe(id);
  });

  it("refuses mixed shapes and half pairs, and a result that is not an object", async () => {
    const mixed = "result_type/result cannot be combined with filename, content, or mode";
    expect((await save({ result_type: "t", result: {}, filename: "a.md" })).modelText).toBe(mixed);
    expect((await save({ result_type: "t", result: {}, mode: "create" })).modelText).toBe(mixed);
    expect((await save({ result: { a: 1 } })).modelText).toBe("result_type is required when result is provided");
    expect((await save({ result_type: "t" })).modelText).toBe("result is required when result_type is provided");
    expect((await save({ result_type: "x".repeat(257), result: {} })).modelText).toBe("result_type exceeds maximum size 256 bytes");
    expect((await save({ result_type: "t", result: [1] })).modelText).toBe("result must be a JSON object, not an array");
    expect((await save({ result_type: "t", result: "text" })).modelText).toBe("result must be a JSON object, not a string");
    expect(saveArtifactSchema.safeParse({ filename: "a", content: "b", mode: "replace" }).success).toBe(false);
  });
});

describe("read_artifact", () => {
  it("pages an artifact with a header naming lines, total and digest", async () => {
    await save({ filename: "notes.md", content: "a\nb\nc\nd" });
    const digest = sha("a\nb\nc\nd\n");
    expect(await read({ path: "artifacts/notes.md" })).toMatchObject({ ok: true, modelText: `ARTIFACT_RESULT lines=1-4 total=4 sha256=${digest}\na\nb\nc\nd\n` });
    expect((await read({ rel_path: "artifacts/notes.md", offset: 2, limit: 2, id: "notes" })).modelText).toBe(`ARTIFACT_RESULT lines=2-3 total=4 sha256=${digest}\nb\nc\n`);
    expect((await read({ path: "artifacts/notes.md", offset: 0, limit: 1 })).modelText).toBe(`ARTIFACT_RESULT lines=1-1 total=4 sha256=${digest}\na\n`);
    expect((await read({ path: "artifacts/notes.md", offset: 5 })).modelText).toBe(`ARTIFACT_RESULT lines=none total=4 sha256=${digest}\n`);
    expect(await read({ path: "artifacts/notes.md", offset: 6 })).toMatchObject({
      ok: false,
      modelText: "offset 6 is past the end of the artifact (4 lines; offset 5 is valid but returns no lines)",
    });
    expect(readArtifactSchema.safeParse({ path: "x", limit: 2001 }).success).toBe(false);
    expect(readArtifactSchema.safeParse({ path: "x", offset: -1 }).success).toBe(false);
  });

  it("reads a ResultRef back and checks expected_sha256", async () => {
    const ref = JSON.parse((await save({ result_type: "t", result: { ok: true } })).modelText);
    expect((await read({ rel_path: ref.rel_path, expected_sha256: ref.sha256.toUpperCase() })).modelText).toBe(
      `ARTIFACT_RESULT lines=1-1 total=1 sha256=${ref.sha256}\n{"ok":true}\n`,
    );
    const wrong = "0".repeat(64);
    expect(await read({ path: ref.rel_path, expected_sha256: wrong })).toMatchObject({ ok: false, modelText: `artifact digest mismatch: expected ${wrong}, got ${ref.sha256}` });
    expect((await read({ path: ref.rel_path, expected_sha256: "abc" })).modelText).toBe("expected_sha256 must be a 64-character hexadecimal SHA-256 digest");
  });

  it("reads only inside the session's artifacts directory", async () => {
    writeFileSync(join(t.ctx.sessionDir, "secret.txt"), "s");
    const msg = async (path: string) => (await read({ path })).modelText;
    expect(await msg("../secret.txt")).toBe("artifact path escapes the session directory");
    expect(await msg("artifacts/../../x")).toBe("artifact path escapes the session directory");
    expect(await msg("secret.txt")).toBe("artifact path must be under artifacts/");
    expect(await msg("artifacts/../secret.txt")).toBe("artifact path must be under artifacts/");
    expect(await msg(join(t.ctx.sessionDir, "secret.txt"))).toBe("artifact path must be session-relative, e.g. artifacts/report.md");
    expect(await msg("artifacts/missing.md")).toBe("artifact not found: artifacts/missing.md");
    expect((await read({})).modelText).toBe("artifact path is required (path or rel_path)");
    expect((await read({ path: "artifacts/a", rel_path: "artifacts/b" })).modelText).toBe("path and rel_path name different artifacts; give one of them");
    mkdirSync(join(t.ctx.sessionDir, "artifacts"), { recursive: true });
    symlinkSync(join(t.ctx.sessionDir, "secret.txt"), join(t.ctx.sessionDir, "artifacts", "leak.md"));
    expect(await msg("artifacts/leak.md")).toBe("artifact path escapes the artifacts directory through a symbolic link");
  });
});
