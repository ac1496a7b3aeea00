// What a tool call looks like to the person watching: structured data the
// views render by kind (components/cards, the headless transcript, `yuj
// show`), never by tool name and never from the text the model is sent.
// A handler's result carries one (ToolResult.display), its view may build one
// from the arguments before the call runs (ToolView.preview), and the events
// carry them (tool_call_finished.preview, tool_result.display).
//
// Every kind is plain JSON, so traces hold them as they are. Kinds are few on
// purpose: a new tool picks the closest; a new kind is added only when no
// existing one can show what the tool did.

import { z } from "zod";

const int = () => z.number().int();

export const todoStatusSchema = z.enum(["pending", "in_progress", "completed", "cancelled", "blocked"]);

export const todoItemSchema = z.strictObject({
  id: z.string().optional(),
  description: z.string(),
  status: todoStatusSchema,
  activeForm: z.string().optional(),
});

const diffFile = z.strictObject({
  path: z.string(),
  op: z.enum(["add", "update", "delete", "move"]),
  movedTo: z.string().optional(),
  hunks: z.string().describe("Unified diff hunks (`@@ -a,b +c,d @@` and their lines), with the file's line numbers"),
});

const question = z.strictObject({
  question: z.string(),
  header: z.string().optional(),
  options: z.array(z.string()).optional(),
  multiple: z.boolean().optional(),
  answer: z.string().optional(),
});

const displayKinds = [
  z.strictObject({ kind: z.literal("text"), text: z.string() }).describe("Plain text, shown as it is"),
  z.strictObject({ kind: z.literal("markdown"), text: z.string() }).describe("Prose the view renders as Markdown"),
  z
    .strictObject({
      kind: z.literal("command"),
      command: z.string(),
      output: z.string().describe("What the person is shown of the output (status notes included)"),
      status: z.enum(["running", "exited", "timed_out", "killed", "background", "refused"]),
      exitCode: int().nullable().optional(),
      jobId: z.string().optional(),
      fullOutputPath: z.string().optional().describe("Where the whole output is, when the shown output was cut"),
    })
    .describe("A command and what it printed"),
  z
    .strictObject({
      kind: z.literal("file"),
      path: z.string(),
      startLine: int().positive().describe("1-based number of the first line"),
      lines: z.array(z.string()),
      totalLines: int().nonnegative().optional(),
      notes: z.array(z.string()).optional().describe("What the person should know about the lines shown (cut, empty, past the end)"),
    })
    .describe("Lines of a file as read"),
  z
    .strictObject({ kind: z.literal("diff"), files: z.array(diffFile), note: z.string().optional().describe("What else to know (how the change was placed)") })
    .describe("What a change did to files, with line numbers"),
  z
    .strictObject({ kind: z.literal("replace"), path: z.string(), before: z.string(), after: z.string() })
    .describe("A replacement as asked for, before its place in the file is known"),
  z
    .strictObject({ kind: z.literal("write"), path: z.string(), bytes: int().nonnegative(), lines: z.array(z.string()), totalLines: int().nonnegative() })
    .describe("A whole file as it will be written: its first lines"),
  z.strictObject({ kind: z.literal("patch"), text: z.string() }).describe("A patch as sent (V4A envelope or unified diff)"),
  z
    .strictObject({
      kind: z.literal("matches"),
      matches: z.array(z.strictObject({ path: z.string(), line: int().optional(), text: z.string().optional() })),
      total: int().nonnegative(),
      page: int().positive().optional(),
      nextPage: int().nonnegative().optional().describe("The next page, 0 when this is the last"),
      hint: z.string().optional(),
    })
    .describe("Search matches"),
  z
    .strictObject({
      kind: z.literal("paths"),
      paths: z.array(z.string()),
      total: int().nonnegative(),
      page: int().positive().optional(),
      nextPage: int().nonnegative().optional(),
      hint: z.string().optional(),
    })
    .describe("Files found or acted on"),
  z.strictObject({ kind: z.literal("todos"), todos: z.array(todoItemSchema) }).describe("The todo list"),
  z.strictObject({ kind: z.literal("questions"), items: z.array(question) }).describe("Questions to the operator and their answers"),
] as const;

export const toolDisplaySchema = z.discriminatedUnion("kind", displayKinds);

export type ToolDisplay = z.infer<typeof toolDisplaySchema>;
export type DisplayOf<K extends ToolDisplay["kind"]> = Extract<ToolDisplay, { kind: K }>;

/** How a tool's card is laid out, whatever the call. */
export const toolCardSchema = z.strictObject({
  card: z
    .enum(["foldable", "expanded", "control"])
    .describe("foldable: a listing that folds; expanded: always open (changes, questions); control: a long report streamed"),
  controlField: z.string().optional().describe("control cards: the argument that holds the report"),
});

export type ToolCardLayout = z.infer<typeof toolCardSchema>;
