// Chord `complete` (worker side): closes the delegated task with a summary
// and structured details; a result (inline, or a saved result's reference)
// is checked against the task's result contract first, and each listed
// artifact against its file. Accepted, it ends the worker's run and raises
// AGENT COMPLETE for its owner.

import { z } from "zod";
import { CONVERSES, fail, type ToolHandler } from "../../core/tool-types.js";
import { artifactRefsProblem } from "../lib/chord/artifact-refs.js";

const list = z.array(z.string()).optional();

export const completeSchema = z.object({
  summary: z.string().trim().min(1, "summary must say what was done"),
  files_changed: list,
  verification_run: list,
  remaining_limitations: list,
  known_risks: list,
  follow_up_recommended: list,
  artifacts: z
    .array(
      z.object({
        id: z.string().optional(),
        type: z.string().optional(),
        rel_path: z.string().optional(),
        path: z.string().optional(),
        description: z.string().optional(),
        mime_type: z.string().optional(),
        size_bytes: z.number().int().nonnegative().optional(),
        sha256: z.string().optional(),
      }),
    )
    .optional(),
  result_type: z.string().optional(),
  result: z.record(z.string(), z.unknown()).optional(),
  result_ref: z
    .object({ id: z.string(), result_type: z.string(), rel_path: z.string(), sha256: z.string(), size_bytes: z.number().int().nonnegative() })
    .optional(),
});

export const completeTool: ToolHandler<typeof completeSchema> = {
  id: "complete",
  schema: completeSchema,
  effects: CONVERSES,
  view: { card: "control", controlField: "summary" },
  async run(args, ctx) {
    if (!ctx.orchestration) return fail("complete is not available in this session: it closes a delegated task");
    if (args.result !== undefined && args.result_ref !== undefined) return fail("complete refused: give result or result_ref, not both");
    if (args.artifacts?.length) {
      const problem = await artifactRefsProblem(ctx.services.fs, ctx.orchestration.artifacts.sessionDir, args.artifacts);
      if (problem) return fail(`complete refused: ${problem}. Fix the artifacts list (copy the reference save_artifact returned) and call complete again.`);
    }
    return ctx.orchestration.complete({
      summary: args.summary,
      ...(args.files_changed ? { filesChanged: args.files_changed } : {}),
      ...(args.verification_run ? { verificationRun: args.verification_run } : {}),
      ...(args.remaining_limitations ? { remainingLimitations: args.remaining_limitations } : {}),
      ...(args.known_risks ? { knownRisks: args.known_risks } : {}),
      ...(args.follow_up_recommended ? { followUpRecommended: args.follow_up_recommended } : {}),
      ...(args.artifacts ? { artifacts: args.artifacts } : {}),
      ...(args.result !== undefined ? { result: args.result } : {}),
      ...(args.result_ref ? { resultRef: args.result_ref } : {}),
    });
  },
};
