import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../core/config/schema.js";
import { prepareCall } from "../../core/dispatch.js";
import { activateTools } from "../../core/profiles/activate.js";
import { loadProfile } from "../../core/profiles/load.js";
import { builtinHandlers } from "../../tools/registry.js";
import { askUserTool } from "../../tools/yuj/ask_user.js";
import { join } from "node:path";
import { repoRoot } from "../support/loop-harness.js";
import { makeToolContext } from "../support/tool-context.js";

const toolset = (interactive: boolean, opts: { topLevel?: boolean; measurement?: boolean } = {}) =>
  activateTools(loadProfile(join(repoRoot, "profiles"), "_base"), builtinHandlers(), defaultConfig(), {
    topLevel: opts.topLevel ?? true,
    interactive,
    measurement: opts.measurement ?? false,
  });

describe("ask_user", () => {
  it("is offered in top-level sessions, headless or not, never in measurement runs or child agents", () => {
    expect(toolset(true).tools.has("ask_user")).toBe(true);
    expect(toolset(false).tools.has("ask_user")).toBe(true);
    expect(toolset(false, { measurement: true }).tools.has("ask_user")).toBe(false);
    expect(toolset(true, { measurement: true }).tools.has("ask_user")).toBe(false);
    expect(toolset(false, { topLevel: false }).tools.has("ask_user")).toBe(false);
  });

  it("asks the session to pause for the answer where it can, and gives no result of its own", async () => {
    const t = await makeToolContext();
    const r = await askUserTool.run({ question: "Which DB?" }, { ...t.ctx, pauseForAnswer: true });
    expect(r).toMatchObject({ ok: true, modelText: "", question: "Which DB?" });
    await t.cleanup();
  });

  it("accepts exactly {question: non-empty string}, even with schema validation off", () => {
    const ts = toolset(true);
    const config = defaultConfig();
    expect(config.tools.schema_validation).toBe("off");
    const call = (args: string) => prepareCall({ id: "c", name: "ask_user", args }, ts, config);
    expect(call('{"question":"Which DB?"}').ready).toBe(true);
    const extra = call('{"question":"Which DB?","urgent":true}');
    expect(extra.ready === false && extra.text).toBe('ERROR: bad arguments for ask_user: unknown parameter "urgent"; accepted parameters: question');
    const empty = call('{"question":"  "}');
    expect(empty.ready).toBe(false);
  });

  it("returns the operator's answer, and says so when nobody can answer", async () => {
    const t = await makeToolContext();
    expect((await askUserTool.run({ question: "Q?" }, t.ctx)).modelText).toMatch(/^ERROR: ask_user: no operator can answer/);
    const asked: string[] = [];
    const r = await askUserTool.run({ question: "Q?" }, { ...t.ctx, ask: async (q) => (asked.push(q.question), "Postgres") });
    expect(r).toMatchObject({ ok: true, modelText: "The operator answered: Postgres" });
    expect(asked).toEqual(["Q?"]);
    await t.cleanup();
  });
});
