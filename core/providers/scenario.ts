// Scripted model scenarios: what a model says, turn by turn. The scripted
// provider replays them offline; the test SSE server renders the same file in
// each provider's wire format, so one scenario checks every adapter.

import { readFileSync } from "node:fs";
import { z } from "zod";

const scenarioToolCall = z.strictObject({
  /** Call id; generated from the turn and position when absent. */
  id: z.string().optional(),
  name: z.string().min(1),
  /** An object is sent as its JSON text; a string is sent verbatim (even if malformed). */
  arguments: z.union([z.record(z.string(), z.unknown()), z.string()]).default({}),
});

const scenarioTurn = z.strictObject({
  text: z.string().default(""),
  tool_calls: z.array(scenarioToolCall).default([]),
  usage: z
    .strictObject({
      input: z.number().int().nonnegative().default(0),
      output: z.number().int().nonnegative().default(0),
      cached: z.number().int().nonnegative().default(0),
    })
    .optional(),
});

const agentScript = z.strictObject({
  fallback_text: z.string().default("(the scripted scenario has no more turns)"),
  turns: z.array(scenarioTurn).min(1),
});

const scenarioSchema = z.strictObject({
  description: z.string().default(""),
  /** Text the scripted provider answers with once the turns run out. */
  fallback_text: z.string().default("(the scripted scenario has no more turns)"),
  turns: z.array(scenarioTurn).min(1),
  /**
   * Delegated workers' own turns, by task id (`task-1`) or by role
   * (`builder`); the task id wins. A worker named by neither plays `turns`
   * with the main agent.
   */
  agents: z.record(z.string(), agentScript).optional(),
});

export type Scenario = z.infer<typeof scenarioSchema>;
export type ScenarioTurn = z.infer<typeof scenarioTurn>;
export type ScenarioToolCall = z.infer<typeof scenarioToolCall>;

export function parseScenario(json: unknown, source = "scenario"): Scenario {
  const parsed = scenarioSchema.safeParse(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const where = first && first.path.length ? first.path.join(".") : "(root)";
    throw new Error(`${source}: invalid scenario at ${where}: ${first?.message ?? "unknown error"}`);
  }
  return parsed.data;
}

export function loadScenario(file: string): Scenario {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    throw new Error(`cannot read scenario ${file}: ${(err as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new Error(`scenario ${file} is not valid JSON: ${(err as Error).message}`);
  }
  return parseScenario(json, file);
}

/** The wire text of a scenario call's arguments. */
export function callArgumentsText(call: ScenarioToolCall): string {
  return typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments);
}

/** The call id of a scenario call: explicit, or derived from its place. */
export function callId(call: ScenarioToolCall, turn: number, index: number): string {
  return call.id ?? `call_${turn}_${index}`;
}

/** Splits text into small pieces, as streaming APIs deliver it. */
export function chunkText(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces;
}
