// The published contracts: the JSON Schema of the events (`--output jsonl`)
// and of the operations (`--input jsonl`) is pinned by the files under
// schema/ (a change to either shows up as a change to those files), every
// event a real run emits passes the event schema, and operations that are
// wrong are refused with a message that names what is wrong.

import { describe, expect, it } from "vitest";
import { coreEventSchema } from "../../core/event-schema.js";
import { checkOperation, OPERATION_TYPES, parseOperation } from "../../core/ops.js";
import { jsonSchema, jsonSchemaText } from "../../core/schemas.js";
import { runScenario } from "../support/loop-harness.js";

describe("the published schemas", () => {
  it("are pinned by the files in schema/", async () => {
    await expect(jsonSchemaText("events")).toMatchFileSnapshot("../../schema/events.schema.json");
    await expect(jsonSchemaText("ops")).toMatchFileSnapshot("../../schema/ops.schema.json");
  });

  it("name every event and operation type, each one closed to unknown fields", () => {
    const events = jsonSchema("events") as { oneOf: Array<{ properties: { type: { const: string } }; additionalProperties: boolean; required: string[] }> };
    const types = events.oneOf.map((v) => v.properties.type.const);
    expect(types).toContain("tool_result");
    expect(types).toContain("approval_requested");
    expect(new Set(types).size).toBe(types.length);
    for (const v of events.oneOf) {
      expect(v.additionalProperties).toBe(false);
      expect(v.required).toEqual(expect.arrayContaining(["seq", "ts", "sessionId", "agentId", "type"]));
    }
    const ops = jsonSchema("ops") as { oneOf: Array<{ properties: { type: { const: string } } }> };
    expect(ops.oneOf.map((v) => v.properties.type.const)).toEqual(OPERATION_TYPES);
  });

  it("accept every event of a real run, and refuse an event with a field the schema does not name", async () => {
    const run = await runScenario({
      turns: [
        { text: "Looking.", tool_calls: [{ name: "read", arguments: { path: "src/greet.js" } }, { name: "bash", arguments: { cmd: "echo hi" } }] },
        { tool_calls: [{ name: "write", arguments: { path: "note.txt", content: "x\n" } }] },
        { tool_calls: [{ name: "done", arguments: { message: "finished" } }] },
      ],
    });
    const types = new Set(run.events.map((e) => e.type));
    expect(types).toEqual(new Set(["user_message", "request_sent", "provider_request", "provider_response", "assistant_text_delta", "assistant_message",
      "tool_call_started", "tool_call_args_delta", "tool_call_finished", "usage", "tool_result", "job_started", "job_output", "job_exited",
      "turn_finished", "run_finished"]));
    for (const e of run.events) expect(coreEventSchema.safeParse(JSON.parse(JSON.stringify(e))).error).toBeUndefined();
    const result = run.events.find((e) => e.type === "tool_result")!;
    expect(coreEventSchema.safeParse({ ...result, extra: 1 }).success).toBe(false);
    expect(coreEventSchema.safeParse({ ...result, seq: undefined }).success).toBe(false);
  });
});

describe("an operation", () => {
  it("is read from one line of JSON", () => {
    expect(parseOperation('{"type":"cancel"}')).toEqual({ ok: true, op: { type: "cancel" } });
    expect(parseOperation('{"type":"approval_answer","callId":"c1","decision":"allow_always","scope":"project"}')).toEqual({
      ok: true,
      op: { type: "approval_answer", callId: "c1", decision: "allow_always", scope: "project" },
    });
  });

  it.each([
    ["nope", /^not JSON \(.*\); each line must be one JSON object such as \{"type":"cancel"\}$/],
    ["[1]", /^an operation is a JSON object with a "type"/],
    ['{"text":"hi"}', /^unknown operation \(no "type"\); the types are user_message, approval_answer, question_answer, cancel, kill_job, switch_model, compact, set_main_role, set_yolo, rename_session, edit_message, set_mcp_server, set_loop, loop_answer, list_rules, remove_rule$/],
    ['{"type":"approve"}', /^unknown operation \(type "approve"\); the types are user_message, /],
    ['{"type":"user_message"}', /^user_message: text is missing \(a string\)$/],
    ['{"type":"user_message","text":"   "}', /^user_message: text is empty$/],
    ['{"type":"user_message","text":7}', /^user_message: text must be a string, not 7$/],
    ['{"type":"cancel","now":true}', /^cancel: unknown field now$/],
    ['{"type":"approval_answer","decision":"yes"}', /^approval_answer: decision must be one of "allow_once", "allow_always", "reject", "reject_with_message"$/],
    ['{"type":"approval_answer","decision":"reject_with_message"}', /^approval_answer: message is required with reject_with_message \(what the model is told\)$/],
    ['{"type":"approval_answer","decision":"reject","message":"no"}', /^approval_answer: message goes only with reject_with_message, not reject$/],
    ['{"type":"approval_answer","decision":"allow_once","scope":"project"}', /^approval_answer: scope goes only with allow_always, not allow_once$/],
    ['{"type":"question_answer","answer":""}', /^question_answer: answer is empty$/],
    ['{"type":"kill_job"}', /^kill_job: jobId is missing \(a string\)$/],
  ])("%s is refused, saying what is wrong", (line, problem) => {
    const parsed = parseOperation(line);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.problem).toMatch(problem);
  });

  it("is checked the same way when it arrives as a value", () => {
    expect(checkOperation({ type: "switch_model", model: "" })).toMatchObject({ ok: false, problem: expect.stringMatching(/^switch_model: model/) });
    expect(checkOperation({ type: "switch_model" })).toEqual({ ok: true, op: { type: "switch_model" } });
  });
});
