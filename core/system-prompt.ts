// The system prompt: short, ours, the project's own instructions after it,
// then the skills' catalogue.

import type { InstructionFile } from "./instructions.js";
import { toolWithRole, type ActiveToolset } from "./profiles/activate.js";

/** The tools the prompt names, by the roles they play. */
export function promptTools(toolset: Pick<ActiveToolset, "tools">): Pick<PromptContext, "finishTool" | "planExitTool"> {
  const finishTool = toolWithRole(toolset, "finish");
  const planExitTool = toolWithRole(toolset, "plan_exit");
  return { ...(finishTool ? { finishTool } : {}), ...(planExitTool ? { planExitTool } : {}) };
}

export interface PromptContext {
  cwd: string;
  /** The exposed name of the tool that finishes the task, when one is active. */
  finishTool?: string;
  /** The exposed name of the tool that ends the required planning phase, when one is active. */
  planExitTool?: string;
  instructions: InstructionFile[];
  date: string;
  /** The skills' catalogue section, when the skills are read with read (no skill tool). */
  skills?: string;
}

export function buildSystemPrompt(ctx: PromptContext): string {
  const finish = ctx.finishTool
    ? `When the task is complete and checked, call ${ctx.finishTool} with a one-paragraph summary.`
    : "When the task is complete and checked, reply with a short summary.";
  const planning = ctx.planExitTool
    ? "This task starts with a required planning phase: inspect the code, write your plan to .solver/plan.md, " +
      `then call ${ctx.planExitTool} to unlock the implementation tools.`
    : "";
  const parts = [
    `You are yuj, a coding agent pair-programming with a developer in their repository (${ctx.cwd}). ` +
      "Work through the tools: read before you change, keep changes small and in the project's style, " +
      "and check your work by running the relevant tests or commands. Paths are relative to the repository root. " +
      "If something blocks you, say what and why instead of guessing.",
    finish,
    ...(planning ? [planning] : []),
    `Today is ${ctx.date}.`,
  ];
  for (const file of ctx.instructions) {
    parts.push(`# Project instructions from ${file.shown}\n\n${file.text}`);
  }
  if (ctx.skills) parts.push(ctx.skills);
  return parts.join("\n\n");
}
