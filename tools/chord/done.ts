// Chord `done`: the loop's exit request with the final Markdown
// report. Mounted only while a loop runs (condition `loop_running`), so an
// ordinary session never sees it; the permission rules keep its local
// confirmation (it is never swept aside by YOLO). Yuj's own `done` is
// tools/done.ts: optional message, always present.

import { z } from "zod";
import { CONVERSES, fail, ok, type ToolHandler } from "../../core/tool-types.js";

export const chordDoneSchema = z.object({
  report: z.string().min(1),
});

export const chordDoneTool: ToolHandler<typeof chordDoneSchema> = {
  id: "chord_done",
  schema: chordDoneSchema,
  effects: CONVERSES,
  // A finish call runs alone, after the calls before it, so nothing of the response runs past the exit.
  role: "finish",
  view: { card: "control", controlField: "report" },
  async run(args) {
    const report = args.report.trim();
    if (report === "") return fail("missing required argument: report");
    // The count is of UTF-8 bytes, as Chord's own count is (its "chars" are bytes).
    const result = ok(`Done requested: report received (${Buffer.byteLength(report)} chars)`);
    result.finish = { message: report };
    return result;
  },
};
