// The session store and the loop's part in it: atomic saves after every
// step, older state files still readable, interrupted calls closed without
// re-running anything, and ask_user ending a headless run for an answer.

import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { HistoryItem } from "../../core/history.js";
import { closeInterruptedCalls, INTERRUPTED_TEXT, placeLateResult } from "../../core/interrupted.js";
import { newSessionState, readMeta, readState, writeState } from "../../core/session-state.js";
import { StateWriteError } from "../../core/storage-error.js";
import { assertValidHistory, runScenario } from "../support/loop-harness.js";

const call = (id: string, name = "bash") => ({ id, name, args: "{}" });
const result = (callId: string, text = "ok"): HistoryItem => ({ role: "tool", callId, name: "bash", text, isError: false });

describe("closeInterruptedCalls", () => {
  it("gives each call without a result an interrupted error, in its turn, and touches nothing saved", () => {
    const history: HistoryItem[] = [
      { role: "user", text: "task" },
      { role: "assistant", text: "", toolCalls: [call("a"), call("b")] },
      result("a"),
      { role: "user", text: "notice" },
      { role: "assistant", text: "", toolCalls: [call("c"), call("d")] },
    ];
    expect(closeInterruptedCalls(history, new Set(["d"]))).toEqual(["b", "c"]);
    expect(history.map((h) => (h.role === "tool" ? `${h.callId}:${h.text === INTERRUPTED_TEXT ? "int" : h.text}` : h.role))).toEqual([
      "user", "assistant", "a:ok", "b:int", "user", "assistant", "c:int",
    ]);
    expect(closeInterruptedCalls(history, new Set(["d"]))).toEqual([]);
  });

  it("places a late result (an answer) in call order within its turn", () => {
    const history: HistoryItem[] = [
      { role: "assistant", text: "", toolCalls: [call("a"), call("q", "ask_user"), call("z")] },
      result("a"),
      result("z", "not run"),
    ];
    placeLateResult(history, { role: "tool", callId: "q", name: "ask_user", text: "answer", isError: false });
    expect(history.map((h) => (h.role === "tool" ? h.callId : h.role))).toEqual(["assistant", "a", "q", "z"]);
    assertValidHistory(history);
  });
});

describe("the state files", () => {
  const dir = () => mkdtempSync(join(tmpdir(), "yuj-store-"));

  it("are written whole, with the metadata beside the state, and nothing temporary left", () => {
    const d = dir();
    const state = newSessionState({ sessionId: "20260101-000000-abcdef", cwd: "/p", task: "fix it\nplease", settings: { configFiles: [] } });
    state.history.push({ role: "user", text: "fix it" });
    writeState(d, state);
    expect(readdirSync(d).sort()).toEqual(["history.jsonl", "session.json", "state.json"]);
    expect(readState(d)).toEqual(state);
    expect(readMeta(d)).toMatchObject({ id: "20260101-000000-abcdef", cwd: "/p", status: "running", title: "fix it" });
  });

  it("fail loudly, naming the file, when they cannot be written", () => {
    const d = dir();
    mkdirSync(join(d, "state.json", "blocker"), { recursive: true });
    const state = newSessionState({ sessionId: "s", cwd: "/p", task: "t", settings: { configFiles: [] } });
    expect(() => writeState(d, state)).toThrow(StateWriteError);
    expect(() => writeState(d, state)).toThrow(new RegExp(`could not save the session to ${join(d, "state.json")}: E`));
    // The conversation log was written; state.json (a directory here) was not replaced.
    expect(readdirSync(d).sort()).toEqual(["history.jsonl", "state.json"]);
  });

  it("read sessions saved before the status rename (version 1)", () => {
    const d = dir();
    const v1 = {
      version: 1, sessionId: "20250102-030405-zzzzzz", cwd: "/p", status: "completed", task: "t",
      settings: { configFiles: [] }, history: [], sessionRules: [],
      usage: { inputTokens: 1, outputTokens: 2, cachedTokens: 0 }, lastSeq: 9, updatedAt: "2025-01-02T03:05:00.000Z",
    };
    writeFileSync(join(d, "state.json"), JSON.stringify(v1));
    expect(readState(d)).toMatchObject({ version: 2, status: "done", createdAt: "2025-01-02T03:04:05.000Z", todos: [], jobs: [], lastSeq: 9 });
    expect(readMeta(d)).toMatchObject({ id: "20250102-030405-zzzzzz", status: "done" });
    writeFileSync(join(d, "state.json"), JSON.stringify({ ...v1, status: "cancelled" }));
    expect(readState(d)!.status).toBe("paused");
  });
});

describe("the loop, for the session store", () => {
  it("reports every completed step, each with the history valid but for the calls still running", async () => {
    const steps: string[] = [];
    const run = await runScenario(
      {
        turns: [
          { tool_calls: [{ name: "bash", arguments: { cmd: "echo a" } }, { name: "write", arguments: { path: "x.txt", content: "x" } }] },
          { tool_calls: [{ name: "done", arguments: { message: "ok" } }] },
        ],
      },
      { onStep: (h) => steps.push(h.map((i) => (i.role === "tool" ? `tool:${i.name}` : i.role)).join(",")) },
    );
    expect(run.outcome.reason).toBe("done");
    expect(steps).toEqual([
      "user",
      "user,assistant",
      "user,assistant,tool:bash",
      "user,assistant,tool:bash,tool:write",
      "user,assistant,tool:bash,tool:write,assistant",
      "user,assistant,tool:bash,tool:write,assistant,tool:done",
    ]);
  });

  it("ends a headless run on ask_user: input_required, later calls not run, the question's call left for the answer", async () => {
    const run = await runScenario(
      {
        turns: [
          {
            tool_calls: [
              { name: "bash", arguments: { cmd: "sh -c 'echo before' > before.txt" } },
              { name: "ask_user", arguments: { question: "Which DB?" } },
              { name: "bash", arguments: { cmd: "sh -c 'echo after' > after.txt" } },
            ],
          },
          { tool_calls: [{ name: "done", arguments: {} }] },
        ],
      },
      { pauseForAnswer: true },
    );
    expect(run.outcome).toMatchObject({ reason: "input_required", message: "Which DB?", question: { callId: "call_0_1", question: "Which DB?" } });
    expect(existsSync(join(run.cwd, "before.txt"))).toBe(true);
    expect(existsSync(join(run.cwd, "after.txt"))).toBe(false);
    expect(run.events.filter((e) => e.type === "request_sent")).toHaveLength(1);
    expect(run.events.find((e) => e.type === "question_asked")).toMatchObject({ callId: "call_0_1", question: "Which DB?" });
    expect(run.events.some((e) => e.type === "tool_result" && e.callId === "call_0_1")).toBe(false);
    const results = run.history.filter((h) => h.role === "tool").map((h) => [h.callId, h.text.slice(0, 13)]);
    expect(results).toEqual([["call_0_0", ""], ["call_0_2", "ERROR: not ru"]].map(([id, t]) => [id, t === "" ? expect.any(String) : t]));
    expect(readFileSync(join(run.cwd, "before.txt"), "utf8")).toBe("before\n");
  });
});
