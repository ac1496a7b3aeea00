// Chord `question`: structured questions to the user, each
// with a short header and either options to pick (one, or several with
// `multiple`) or, without options, a free-text answer. `questions` is an
// array; a single question object is tolerated. In the TUI each question goes
// through ctx.ask in order; headless, a session that can pause saves the
// questions as one text and ends the run with input_required (the same path
// as ask_user), and anywhere else the call fails with a clear error.

import { z } from "zod";
import { CONVERSES, fail, ok, type ToolDisplay, type ToolHandler } from "../../core/tool-types.js";

// The header's 30 characters are guidance for the model, as Chord words it
// ("aim for 30 characters or fewer"); only a header past 256 bytes, which no
// dialog can show, is refused as too large.
const QUESTION_HEADER_MAX = 30;
const HEADER_MAX_BYTES = 256;
// One call asks a few questions the user can take in at once, each readable
// on a screen; past these bounds the model should split or shorten them.
const QUESTIONS_MAX = 3;
const QUESTION_TEXT_MAX_BYTES = 8192;
const OPTIONS_MAX = 16;

const option = z.object({
  label: z.string().trim().min(1, "label must be a non-empty string"),
  // A label alone is a complete choice: the dialog and the card show labels only.
  description: z.string().optional(),
});

const item = z.object({
  question: z.string().trim().min(1, "question must be a non-empty string"),
  header: z.string().trim().min(1, "header must be a non-empty string"),
  options: z.array(option).optional(),
  multiple: z.boolean().optional(),
});

export const questionSchema = z.object({
  questions: z.union([z.array(item).min(1, "questions must contain at least one question"), item]),
});

type Item = z.infer<typeof item>;

export interface QuestionAnswer {
  header: string;
  question: string;
  answer: string;
}

export const questionTool: ToolHandler<typeof questionSchema> = {
  id: "question",
  schema: questionSchema,
  effects: CONVERSES,
  role: "ask",
  // The question is put to the user anyway: an ask rule adds nothing to confirm.
  permissions: { askAllows: true },
  view: { card: "expanded", preview: (args) => questionsPreview(args.questions) },
  async run(args, ctx) {
    const items: Item[] = Array.isArray(args.questions) ? args.questions : [args.questions];
    if (items.length > QUESTIONS_MAX) return fail(`questions must contain 1 to ${QUESTIONS_MAX} items (got ${items.length}); ask the most important ones first`);
    for (const [i, q] of items.entries()) {
      const oversized = sizeProblem(q);
      if (oversized) return fail(`questions[${i}]: size limit exceeded: ${oversized}`);
      if (q.multiple && !q.options?.length) return fail(`questions[${i}]: multiple needs options to choose from`);
    }
    if (!ctx.ask) {
      if (ctx.pauseForAnswer) return { ok: true, modelText: "", question: items.map(questionText).join("\n\n") };
      return fail("question: nobody can answer in this session (no interactive user); decide from what the repository shows, and name the open question in your final answer");
    }
    const answers: QuestionAnswer[] = [];
    for (const q of items) {
      let answer: string;
      try {
        answer = await ctx.ask({
          callId: ctx.callId,
          question: q.question,
          header: q.header,
          ...(q.options?.length ? { options: q.options } : {}),
          ...(q.multiple ? { multiple: true } : {}),
        });
      } catch {
        return fail(`question cancelled by the user: dismissed without an answer${answers.length ? `; answered before that: ${JSON.stringify({ answers })}` : ""}`);
      }
      answers.push({ header: q.header, question: q.question, answer });
    }
    const shown: ToolDisplay = { kind: "questions", items: items.map((q, i) => ({ ...shownItem(q), answer: answers[i]!.answer })) };
    return ok(JSON.stringify({ answers }), shown);
  },
};

/** What makes one question too large to put to the user, if anything. */
function sizeProblem(q: Item): string | undefined {
  const bytes = Buffer.byteLength(q.question, "utf8");
  if (bytes > QUESTION_TEXT_MAX_BYTES) return `the question is ${bytes} bytes, at most ${QUESTION_TEXT_MAX_BYTES}`;
  const headerBytes = Buffer.byteLength(q.header, "utf8");
  if (headerBytes > HEADER_MAX_BYTES) return `the header is ${headerBytes} bytes, at most ${HEADER_MAX_BYTES} (aim for ${QUESTION_HEADER_MAX} characters or fewer)`;
  const tooLong = q.options?.findIndex((o) => Buffer.byteLength(o.description ?? "", "utf8") > QUESTION_TEXT_MAX_BYTES) ?? -1;
  if (tooLong >= 0) return `options[${tooLong}].description is over ${QUESTION_TEXT_MAX_BYTES} bytes`;
  if ((q.options?.length ?? 0) > OPTIONS_MAX) return `${q.options!.length} options, at most ${OPTIONS_MAX}`;
  return undefined;
}

function shownItem(q: Item): { question: string; header: string; options?: string[]; multiple?: boolean } {
  return {
    question: q.question,
    header: q.header,
    ...(q.options?.length ? { options: q.options.map((o) => o.label) } : {}),
    ...(q.multiple ? { multiple: true } : {}),
  };
}

/** The questions as sent, for the card while they wait (unchecked: only what reads as a question). */
function questionsPreview(given: unknown): ToolDisplay | undefined {
  const list = Array.isArray(given) ? given : given && typeof given === "object" ? [given] : [];
  const items = list.flatMap((q) => {
    const o = (q && typeof q === "object" ? q : {}) as Record<string, unknown>;
    if (typeof o.question !== "string") return [];
    const options = Array.isArray(o.options)
      ? o.options.flatMap((x) => (x && typeof x === "object" && typeof (x as { label?: unknown }).label === "string" ? [(x as { label: string }).label] : []))
      : [];
    return [{ question: o.question, ...(typeof o.header === "string" ? { header: o.header } : {}), ...(options.length ? { options } : {}) }];
  });
  return items.length ? { kind: "questions", items } : undefined;
}

/** One question as plain text, for a session that saves it and waits (headless). */
function questionText(q: Item): string {
  const lines = [`[${q.header}] ${q.question}`];
  if (q.options?.length) {
    lines.push(q.multiple ? "Choose one or more:" : "Choose one:");
    for (const o of q.options) lines.push(`- ${o.label}${o.description ? `: ${o.description}` : ""}`);
  }
  return lines.join("\n");
}
