import { afterEach, describe, expect, it } from "vitest";
import stripAnsi from "strip-ansi";
import type { EventOf } from "../../core/events.js";
import { QuestionPrompt } from "../../components/prompts/QuestionPrompt.js";
import { mount, press, rerender, unmountAll } from "../support/ink-act.js";

// A short pause, then one turn of the check phase: a slow render can make
// the timer fire before React's effects (which re-subscribe the key handler) ran.
const frame = (r: { lastFrame(): string | undefined }) => stripAnsi(r.lastFrame() ?? "");

function question(over: Partial<EventOf<"question_asked">> = {}): EventOf<"question_asked"> {
  return {
    seq: 3,
    ts: "2026-01-01T00:00:00.000Z",
    sessionId: "s",
    agentId: "main",
    type: "question_asked",
    callId: "q1",
    question: "Which database?",
    ...over,
  };
}

const OPTIONS = [
  { label: "Postgres", description: "the usual" },
  { label: "SQLite" },
  { label: "MySQL" },
];

async function setup(q: EventOf<"question_asked">) {
  const answers: string[] = [];
  const r = await mount(<QuestionPrompt question={q} width={70} onAnswer={(a) => answers.push(a)} />);
  const type = (...chunks: string[]) => press(r, ...chunks);
  return { r, answers, type };
}

afterEach(unmountAll);

describe("QuestionPrompt", () => {
  it("takes free text when there are no options", async () => {
    const { r, answers, type } = await setup(question({ header: "DB" }));
    expect(frame(r)).toContain("DB");
    expect(frame(r)).toContain("Which database?");
    expect(frame(r)).toContain("[Enter] Submit");
    await type("\r");
    expect(answers).toEqual([]);
    await type("Postgres", "\n", "with pgvector", "\r");
    expect(answers).toEqual(["Postgres\nwith pgvector"]);
  });

  it("selects one option with the arrows and Enter", async () => {
    const { r, answers, type } = await setup(question({ options: OPTIONS }));
    expect(frame(r)).toContain("› 1. Postgres — the usual");
    expect(frame(r)).toContain("[Enter] Select");
    await type("\x1b[B", "\x1b[B", "\x1b[A");
    expect(frame(r)).toContain("› 2. SQLite");
    await type("\r", "\r");
    expect(answers).toEqual(["SQLite"]);
  });

  it("toggles several options with Space and submits them in order", async () => {
    const { r, answers, type } = await setup(question({ options: OPTIONS, multiple: true }));
    expect(frame(r)).toContain("[Space] Toggle");
    await type("\x1b[B", "\x1b[B", " ", "\x1b[A", "\x1b[A", " ", "\x1b[B", " ", " ");
    expect(frame(r)).toContain("[x] Postgres");
    expect(frame(r)).toContain("[ ] SQLite");
    expect(frame(r)).toContain("[x] MySQL");
    await type("\r");
    expect(answers).toEqual(["Postgres, MySQL"]);
  });

  it("Tab switches to a custom answer and back", async () => {
    const { r, answers, type } = await setup(question({ options: OPTIONS }));
    await type("\t");
    expect(frame(r)).toContain("[Tab/Esc] Back to options");
    expect(frame(r)).not.toContain("Postgres");
    await type("\t");
    expect(frame(r)).toContain("Postgres");
    await type("\t", "DuckDB", "\r");
    expect(answers).toEqual(["DuckDB"]);
  });

  it("a new question starts with a fresh choice", async () => {
    const answers: string[] = [];
    const r = await mount(<QuestionPrompt question={question({ options: OPTIONS })} width={70} onAnswer={(a) => answers.push(a)} />);
    await press(r, "\x1b[B");
    await rerender(r, <QuestionPrompt question={question({ callId: "q2", options: OPTIONS })} width={70} onAnswer={(a) => answers.push(a)} />);
    await press(r, "\r");
    expect(answers).toEqual(["Postgres"]);
  });
});
