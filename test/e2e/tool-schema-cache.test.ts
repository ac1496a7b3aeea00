// The built yuj keeps its tools' JSON Schemas between runs: real `yuj code`
// processes against a local provider. A second run sends the very tools the
// first sent, read from the file the first wrote; a file left by another
// build is not believed, and a state directory that cannot hold the file
// changes nothing in the request.

import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { isolatedEnv, runCli } from "../support/cli.js";
import { tempDemoRepo } from "../support/loop-harness.js";
import { startSseServer, type SseServer } from "../support/sse-server.js";
import { parseScenario } from "../../core/providers/scenario.js";

let server: SseServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** One run; the `tools` of the model request it sent. */
async function toolsOfRun(env: Record<string, string>): Promise<Array<{ name: string; input_schema: Record<string, any> }>> {
  server = await startSseServer({ scenario: parseScenario({ turns: [{ text: "Done." }] }) });
  const cwd = tempDemoRepo();
  const r = await runCli(["code", "say done", "--provider", "anthropic", "--model", "m", "--base-url", server.baseUrlFor("anthropic"), "--output", "jsonl"], {
    cwd,
    env: { ...env, ANTHROPIC_API_KEY: "sk-test-000000000" },
  });
  expect(r.stderr).not.toMatch(/error/i);
  expect(r.code).toBe(0);
  const post = server.requests.find((q) => q.method === "POST")!;
  await server.close();
  server = undefined;
  return post.body.tools;
}

const cacheFileOf = (env: Record<string, string>) => path.join(env.XDG_STATE_HOME!, "yuj", "tool-schemas.json");

describe("tool schemas kept between runs of the built yuj", () => {
  it("a second run sends the same tools, from the file the first run wrote", async () => {
    const env = isolatedEnv();
    const first = await toolsOfRun(env);
    const kept = JSON.parse(fs.readFileSync(cacheFileOf(env), "utf8"));
    expect(kept.build).toMatch(/^[0-9a-f]{64}$/);
    expect(Object.keys(kept.schemas).length).toBeGreaterThan(0);
    const second = await toolsOfRun(env);
    expect(second).toEqual(first);

    // The file is what the second run read: an entry changed in it (same build) reaches the request.
    const [id, text] = Object.entries(kept.schemas as Record<string, string>)[0]!;
    const changed = JSON.parse(text);
    changed.properties = { ...changed.properties, planted_param: { type: "string" } };
    fs.writeFileSync(cacheFileOf(env), JSON.stringify({ build: kept.build, schemas: { ...kept.schemas, [id]: JSON.stringify(changed) } }));
    const third = await toolsOfRun(env);
    expect(JSON.stringify(third)).toContain("planted_param");
  });

  it("a file of another build is not believed: the request carries the schemas this build makes", async () => {
    const env = isolatedEnv();
    const truth = await toolsOfRun(env);
    const kept = JSON.parse(fs.readFileSync(cacheFileOf(env), "utf8"));
    const planted = Object.fromEntries(Object.keys(kept.schemas).map((id) => [id, JSON.stringify({ type: "object", properties: { planted_param: { type: "string" } } })]));
    fs.writeFileSync(cacheFileOf(env), JSON.stringify({ build: "0".repeat(64), schemas: planted }));
    const later = await toolsOfRun(env);
    expect(later).toEqual(truth);
    expect(JSON.parse(fs.readFileSync(cacheFileOf(env), "utf8")).build).toBe(kept.build);
  });

  it("a damaged file, or none that can be written, changes nothing in the request", async () => {
    const env = isolatedEnv();
    const truth = await toolsOfRun(env);
    fs.writeFileSync(cacheFileOf(env), "{ damaged");
    expect(await toolsOfRun(env)).toEqual(truth);
    expect(JSON.parse(fs.readFileSync(cacheFileOf(env), "utf8")).build).toMatch(/^[0-9a-f]{64}$/);

    // The file's place is a directory: it can be neither read nor replaced.
    fs.rmSync(cacheFileOf(env));
    fs.mkdirSync(cacheFileOf(env));
    expect(await toolsOfRun(env)).toEqual(truth);
  });
});
