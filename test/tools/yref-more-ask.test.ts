// ask_user in one model response with other calls, through the real loop and
// a scripted model, in a headless session that pauses for the answer.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { HistoryItem } from "../../core/history.js";
import { runScenario } from "../support/loop-harness.js";

const toolTexts = (history: readonly HistoryItem[]) => history.flatMap((h) => (h.role === "tool" ? [h.text] : []));

const edit = { name: "edit", arguments: { path: "src/greet.js", old_str: "Hello", new_str: "Hi" } };
const NOT_RUN =
  "ERROR: not run: the model asked the operator a question earlier in the same response; call it again after the answer if it is still needed";

describe("ask_user beside other calls", () => {
  it("a question pauses the run before a sibling edit, which does not run", async () => {
    const run = await runScenario(
      { turns: [{ tool_calls: [{ name: "ask_user", arguments: { question: "Which greeting?" } }, edit] }, { text: "must not be requested" }] },
      { pauseForAnswer: true },
    );
    expect(run.outcome).toMatchObject({ reason: "input_required", question: { question: "Which greeting?" } });
    expect(toolTexts(run.history)).toEqual([NOT_RUN]);
    expect(readFileSync(join(run.cwd, "src/greet.js"), "utf8")).toContain('"Hello, "');
  });

  it("a second question in the same response is not asked, and is told the session's one question is spent", async () => {
    const run = await runScenario(
      {
        turns: [
          {
            tool_calls: [
              { name: "ask_user", arguments: { question: "First?" } },
              { name: "ask_user", arguments: { question: "Second?" } },
              edit,
            ],
          },
          { text: "stopping" },
        ],
      },
      { pauseForAnswer: true, oneQuestion: true },
    );
    expect(run.outcome).toMatchObject({ reason: "input_required", question: { question: "First?" } });
    expect(toolTexts(run.history)).toEqual([
      "ERROR: not run: an earlier call in the same response asked the operator this session's one clarification question; decide from its answer and what the repository shows",
      NOT_RUN,
    ]);
    expect(readFileSync(join(run.cwd, "src/greet.js"), "utf8")).toContain('"Hello, "');
  });

  it("where questions are not limited (the Chord surface), a second question waits for the answer like any later call", async () => {
    const run = await runScenario(
      {
        turns: [
          { tool_calls: [{ name: "ask_user", arguments: { question: "First?" } }, { name: "ask_user", arguments: { question: "Second?" } }] },
          { text: "stopping" },
        ],
      },
      { pauseForAnswer: true },
    );
    expect(run.outcome).toMatchObject({ reason: "input_required", question: { question: "First?" } });
    expect(toolTexts(run.history)).toEqual([NOT_RUN]);
  });
});
