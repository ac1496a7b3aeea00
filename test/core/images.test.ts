// Images from a tool to the model and back out of the record: view_image is
// offered only to models that see images; a loop run carries the image into
// the history while the trace events name a saved file instead of the bytes;
// the session state stores the file name and reads the bytes back.

import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { defaultConfig } from "../../core/config/schema.js";
import type { HistoryItem } from "../../core/history.js";
import { activateTools } from "../../core/profiles/activate.js";
import { checkProfile, loadProfile } from "../../core/profiles/load.js";
import { modelAcceptsImages } from "../../core/providers/model-caps.js";
import { newSessionState, readState, writeState, type SessionState } from "../../core/session-state.js";
import { builtinHandlers } from "../../tools/registry.js";
import { repoRoot, runScenario } from "../support/loop-harness.js";

const temps: string[] = [];
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

function chordToolset(model?: { provider: string; id: string }) {
  const registry = builtinHandlers();
  const profile = loadProfile(join(repoRoot, "profiles"), "chord");
  checkProfile(profile, registry, "minimal");
  return activateTools(profile, registry, defaultConfig(), { topLevel: true, ...(model ? { model } : {}) });
}

describe("which models are offered view_image", () => {
  it.each([
    ["anthropic", "claude-sonnet-4-5", true],
    ["anthropic", "claude-3-5-haiku-latest", true],
    ["anthropic", "claude-opus-4-1", true],
    ["anthropic", "claude-2.1", false],
    ["openai", "gpt-5", true],
    ["openai", "gpt-4o-mini", true],
    ["openai", "gpt-4.1", true],
    ["openai", "o3", true],
    ["openai", "o4-mini", true],
    ["openai", "o3-mini", false],
    ["openai", "gpt-4o-audio-preview", false],
    ["openai", "gpt-3.5-turbo", false],
    ["openai-chat", "gpt-4o", false],
    ["openai-chat", "llava", false],
    ["scripted", "scripted", false],
    ["scripted", "scripted-vision", true],
  ] as const)("%s %s → %s", (provider, id, yes) => {
    expect(modelAcceptsImages(provider, id)).toBe(yes);
    expect(chordToolset({ provider, id }).names.has("view_image")).toBe(yes);
  });

  it("is not offered when the model is unknown", () => {
    expect(chordToolset().names.has("view_image")).toBe(false);
  });

  it("describes path and label to the model", () => {
    const spec = chordToolset({ provider: "anthropic", id: "claude-sonnet-4-5" }).tools.get("view_image")!.spec;
    expect(spec.parameters).toMatchObject({ required: ["path"], properties: { path: { type: "string" }, label: { type: "string" } } });
    expect(spec.description).toMatch(/HEIC\/HEIF, AVIF and SVG are not supported/);
  });
});

describe("an image through the loop", () => {
  it("reaches the history with its bytes while events name the saved file", async () => {
    const cwd = tempDir("yuj-img-cwd-");
    const png = await sharp({ create: { width: 64, height: 32, channels: 3, background: { r: 200, g: 10, b: 10 } } }).png().toBuffer();
    writeFileSync(join(cwd, "red.png"), png);
    const run = await runScenario(
      {
        turns: [
          { tool_calls: [{ id: "call_v", name: "view_image", arguments: { path: "red.png", label: "the red one" } }] },
          { text: "It is red." },
        ],
      },
      { cwd, toolset: chordToolset({ provider: "scripted", id: "scripted-vision" }) },
    );
    expect(run.outcome.reason).toBe("answered");

    const tool = run.history.find((h) => h.role === "tool") as Extract<HistoryItem, { role: "tool" }>;
    expect(tool.isError).toBe(false);
    expect(tool.text).toContain('Loaded image "the red one" into context.\npath: red.png\n');
    expect(tool.images).toHaveLength(1);
    const image = tool.images![0]!;
    expect(image).toMatchObject({ mediaType: "image/png", label: "the red one", file: "images/call_v-0.png" });

    const result = run.events.find((e) => e.type === "tool_result");
    expect(result).toMatchObject({
      type: "tool_result",
      images: [{ mediaType: "image/png", label: "the red one", bytes: Buffer.byteLength(image.data, "base64") }],
    });
    const file = (result as { images: Array<{ file: string }> }).images[0]!.file;
    temps.push(join(file, "..", ".."));
    expect(file.endsWith(join("images", "call_v-0.png"))).toBe(true);
    expect(readFileSync(file).toString("base64")).toBe(image.data);
    // No event carries the bytes.
    expect(JSON.stringify(run.events)).not.toContain(image.data.slice(0, 40));
  });
});

describe("session state with images", () => {
  it("stores the file name, not the bytes, and reads the bytes back", () => {
    const dir = tempDir("yuj-img-state-");
    const data = Buffer.from("not really a png, but bytes all the same").toString("base64");
    writeFileSync(join(dir, "kept.png"), Buffer.from(data, "base64"));
    const history: HistoryItem[] = [
      {
        role: "tool",
        callId: "c1",
        name: "view_image",
        text: "Image loaded",
        isError: false,
        images: [
          { mediaType: "image/png", data, label: "kept", file: "kept.png" },
          { mediaType: "image/png", data, label: "gone", file: "missing.png" },
          { mediaType: "image/jpeg", data, label: "unsaved" },
        ],
      },
    ];
    const state: SessionState = { ...newSessionState({ sessionId: "s", cwd: dir, task: "t", settings: { configFiles: [] } }), history };
    writeState(dir, state);
    const text = readFileSync(join(dir, "state.json"), "utf8") + readFileSync(join(dir, "history.jsonl"), "utf8");
    // Only the image that has no saved copy keeps its bytes in the files.
    expect(text.split(data).length - 1).toBe(1);
    expect(existsSync(join(dir, "state.json"))).toBe(true);
    const back = readState(dir)!.history[0] as Extract<HistoryItem, { role: "tool" }>;
    expect(back.images).toEqual([
      { mediaType: "image/png", data, label: "kept", file: "kept.png" },
      { mediaType: "image/jpeg", data, label: "unsaved" },
    ]);
  });
});
