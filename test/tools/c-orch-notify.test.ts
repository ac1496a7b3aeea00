// Chord notify and escalate against the reference's own tests of them,
// through the built `yuj` with a real worker: a reply needs a target; a
// worker may not name one; the main agent must; a plain targeted message
// takes message and kind only; subtype and correlation_id are limited to
// 256 bytes and the payload to 32 KiB; labels are trimmed; and escalate's
// schema requires exactly [kind, reason].

import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../core/config/schema.js";
import { activateTools } from "../../core/profiles/activate.js";
import { loadProfile } from "../../core/profiles/load.js";
import { builtinHandlers } from "../../tools/registry.js";
import { isolatedEnv, runCli } from "../support/cli.js";
import { delegationProject, rowsOf, sessionDirOf, storeRows, workerHistory } from "../support/delegation.js";
import { repoRoot } from "../support/loop-harness.js";

const n = (args: Record<string, unknown>) => ({ name: "notify", arguments: args });
const LIMIT = "notify refused: structured message metadata exceeds size limit";

describe("chord notify: the forms a role may send, in the reference's words", () => {
  it("the main agent's and a worker's refused forms, the size limits, and trimmed labels", async () => {
    const big = { blob: "x".repeat(32 * 1024) };
    const cwd = delegationProject(
      {
        turns: [
          { tool_calls: [{ name: "delegate", arguments: { description: "write a.txt", agent_type: "builder", expected_write_scope: { files: ["a.txt"] } } }] },
          {
            tool_calls: [
              n({ message: "hello" }),
              n({ message: "answer", message_type: "response", correlation_id: "c-1" }),
              n({ target_task_id: "task-1", message: "continue", message_type: "notice" }),
              n({ target_task_id: "task-1", message: "continue", subtype: "x".repeat(257) }),
            ],
          },
          { text: "done" },
        ],
        agents: {
          "task-1": {
            turns: [
              {
                tool_calls: [
                  n({ target_task_id: "task-1", message: "to myself" }),
                  n({ message: "answer", message_type: "response", correlation_id: "c-1" }),
                  n({ message: "too long", correlation_id: "é".repeat(129) }),
                  n({ message: "too big", payload: big }),
                  n({ message: "  contract changed ", kind: "  progress ", message_type: "notice", subtype: " api_contract ", correlation_id: " corr-1 ", payload: { version: 2 } }),
                  n({ message: "blank labels", kind: "   ", subtype: " " }),
                ],
              },
              { tool_calls: [{ name: "complete", arguments: { summary: "nothing to do" } }] },
            ],
          },
        },
      },
      // At max_depth 1 the worker delegates nothing, so it has no target of its own to name.
      { toml: '[sandbox]\nmode = "off"\n[orchestration]\nmax_depth = 1\n' },
    );
    const env = isolatedEnv();
    const res = await runCli(["code", "go", "--config", "chord.toml", "--output", "jsonl"], { cwd, env, timeoutMs: 90_000 });
    expect(res.code, res.stderr).toBe(0);
    const mains = rowsOf(res.stdout).filter((r) => r.type === "tool_result" && r.name === "notify");
    expect(mains.map((r) => [r.ok, r.modelText])).toEqual([
      [false, "notify refused: target_task_id is required in this context: the main agent has no owner to update; give target_task_id to message a worker"],
      [false, "notify refused: message_type=response requires target_task_id and correlation_id: a reply goes to the worker whose request it answers"],
      [false, "notify refused: plain targeted notify accepts message and kind; structured replies require message_type=response and correlation_id, without subtype or payload"],
      [false, `${LIMIT}: subtype is 257 bytes (at most 256)`],
    ]);
    const worker = workerHistory(sessionDirOf(env), "task-1").filter((h) => h.role === "tool" && h.name === "notify");
    expect(worker.map((h) => [h.isError ?? false, h.text])).toEqual([
      [true, "notify refused: target_task_id is not available in this role: a worker can only notify its owner; omit target_task_id"],
      [true, "notify refused: message_type=response requires target_task_id and correlation_id: a reply goes to the worker whose request it answers"],
      [true, `${LIMIT}: correlation_id is 258 bytes (at most 256)`],
      [true, `${LIMIT}: payload is ${JSON.stringify(big).length} bytes of JSON (at most 32768, 32 KiB)`],
      [false, "Owner coordination chain has been notified. Continue working."],
      [false, "Owner coordination chain has been notified. Continue working."],
    ]);
    const sent = storeRows(sessionDirOf(env)).filter((r) => r.t === "msg" && r.msg.from === "task-1" && r.msg.to === "main" && r.msg.type !== "completion");
    expect(sent.map((r) => r.msg)).toEqual([
      { to: "main", from: "task-1", type: "notice", text: "contract changed", kind: "progress", subtype: "api_contract", correlationId: "corr-1", payload: { version: 2 }, id: "m-1" },
      { to: "main", from: "task-1", type: "progress", text: "blank labels", id: "m-2" },
    ]);
  }, 120_000);
});

describe("chord notify: a message's kind as its target reads it", () => {
  it("a reply with kind reaches the parked worker led by [kind], as the reference queues it", async () => {
    const waitEscalation = {
      name: "shell",
      arguments: {
        description: "wait",
        command: `for i in $(seq 1 400); do grep -q '"type":"request"' "$XDG_STATE_HOME"/yuj/sessions/*/orchestration.jsonl && exit 0; sleep 0.05; done; exit 1`,
      },
    };
    const cwd = delegationProject(
      {
        turns: [
          { tool_calls: [{ name: "delegate", arguments: { description: "write a.txt", agent_type: "builder", expected_write_scope: { files: ["a.txt"] } } }] },
          { tool_calls: [waitEscalation] },
          { tool_calls: [n({ target_task_id: "task-1", message: "use b.txt", message_type: "response", correlation_id: "esc-task-1-1", kind: " decision " })] },
          { text: "done" },
        ],
        agents: {
          "task-1": {
            turns: [
              { tool_calls: [{ name: "escalate", arguments: { kind: "needs_repair", reason: "which file?" } }] },
              { tool_calls: [{ name: "complete", arguments: { summary: "used b.txt" } }] },
            ],
          },
        },
      },
      { toml: '[sandbox]\nmode = "off"\n' },
    );
    const env = isolatedEnv();
    const res = await runCli(["code", "go", "--config", "chord.toml", "--output", "jsonl"], { cwd, env, timeoutMs: 90_000 });
    expect(res.code, res.stderr).toBe(0);
    const reply = rowsOf(res.stdout).find((r) => r.type === "tool_result" && r.name === "notify")!;
    expect(JSON.parse(reply.modelText)).toMatchObject({ task_id: "task-1", message: expect.stringContaining("message delivered") });
    const delivered = workerHistory(sessionDirOf(env), "task-1").filter((h) => h.role === "user" && (h.text ?? "").includes("use b.txt"));
    expect(delivered).toHaveLength(1);
    expect(delivered[0]!.text).toMatch(/^\[yuj\] \[mailbox m-\d+\] from your owner \(main\) \(response, correlation_id esc-task-1-1\):\n\[decision\] use b\.txt$/);
  }, 120_000);
});

describe("chord escalate's schema", () => {
  it("requires exactly [kind, reason], kind one of needs_repair and blocked", () => {
    const profile = loadProfile(join(repoRoot, "profiles"), "chord");
    const tools = activateTools(profile, builtinHandlers(), defaultConfig(), { topLevel: false, model: { provider: "anthropic", id: "claude-sonnet-4" } });
    const spec = tools.specs.find((s) => s.name === "escalate")!;
    const params = spec.parameters as { required: string[]; properties: Record<string, { enum?: string[] }> };
    expect(params.required).toEqual(["kind", "reason"]);
    expect(params.properties.kind!.enum).toEqual(["needs_repair", "blocked"]);
  });
});
