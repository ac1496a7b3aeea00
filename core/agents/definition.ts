// An agent definition: the file that says how a child session runs — its
// model, the tools it may use, its system prompt, its turn limit, whether it
// may change files and in which workspace. Written as TOML or as Markdown
// whose front matter holds the fields and whose body is the system prompt.

import { parse as parseToml, TomlError } from "smol-toml";
import { z } from "zod";
import { flattenAgentTable } from "./agent-table.js";
import { parseFrontMatter } from "./front-matter.js";

const NAME = /^[a-z0-9][a-z0-9_-]*$/;

const definitionSchema = z.strictObject({
  name: z.string().regex(NAME, "a lower-case name of letters, digits, - and _").optional(),
  description: z.string().trim().min(1, "a non-empty description"),
  mode: z.enum(["main", "subagent"]).default("subagent"),
  model: z.string().trim().min(1, "a model id").optional(),
  tools: z.array(z.string().min(1, "a tool name")).optional(),
  system_prompt: z.string().trim().min(1, "a non-empty system prompt").optional(),
  max_turns: z.number().int("a whole number").positive("a positive whole number").optional(),
  read_only: z.boolean().default(true),
  workspace: z.enum(["shared", "isolated"]).default("shared"),
});

export interface AgentDefinition {
  name: string;
  description: string;
  mode: "main" | "subagent";
  model?: string;
  /** Exposed tool names the agent may use; absent means every tool its read_only status allows. */
  tools?: string[];
  systemPrompt?: string;
  maxTurns?: number;
  readOnly: boolean;
  workspace: "shared" | "isolated";
  /** The file it was read from. */
  file: string;
}

/** A definition file that cannot be used: names the file and, when known, the field. */
export class AgentFileError extends Error {
  override name = "AgentFileError";
}

/** Reads one definition from its text; `file` ends in .toml or .md. */
export function parseAgentFile(file: string, text: string, stem: string): AgentDefinition {
  const read = file.endsWith(".md") ? { fields: markdownFields(file, text) } : flattenAgentTable(file, tomlFields(file, text), stem);
  if ("error" in read) throw new AgentFileError(`agent file ${file}: ${read.error}`);
  const raw = read.fields;
  // Claude Code and Chord name the prompt `prompt` in some files; both spellings mean the same.
  if (raw.prompt !== undefined && raw.system_prompt === undefined) {
    raw.system_prompt = raw.prompt;
    delete raw.prompt;
  }
  if (typeof raw.tools === "string") raw.tools = raw.tools.split(",").map((t) => t.trim()).filter((t) => t);
  if (raw.mode === "sub_agent" || raw.mode === "sub") raw.mode = "subagent";
  const parsed = definitionSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.join(".") || "(file)";
    const what = issue.code === "unrecognized_keys" ? `unknown field ${issue.keys.join(", ")}; the fields are ${Object.keys(definitionSchema.shape).join(", ")}` : issue.message;
    throw new AgentFileError(`agent file ${file}: field ${field}: ${what}`);
  }
  const d = parsed.data;
  if (d.name !== undefined && d.name !== stem) {
    throw new AgentFileError(`agent file ${file}: field name: "${d.name}" differs from the file name "${stem}"; make them the same or drop the field`);
  }
  if (d.workspace === "isolated" && d.read_only) {
    throw new AgentFileError(`agent file ${file}: field workspace: "isolated" is for agents that write; set read_only = false or use workspace = "shared"`);
  }
  return {
    name: stem,
    description: d.description,
    mode: d.mode,
    readOnly: d.read_only,
    workspace: d.workspace,
    file,
    ...(d.model !== undefined ? { model: d.model } : {}),
    ...(d.tools !== undefined ? { tools: d.tools } : {}),
    ...(d.system_prompt !== undefined ? { systemPrompt: d.system_prompt } : {}),
    ...(d.max_turns !== undefined ? { maxTurns: d.max_turns } : {}),
  };
}

function tomlFields(file: string, text: string): Record<string, unknown> {
  try {
    return parseToml(text) as Record<string, unknown>;
  } catch (err) {
    const why = err instanceof TomlError ? `line ${err.line}: ${err.message.split("\n")[0]}` : String(err);
    throw new AgentFileError(`agent file ${file}: not valid TOML (${why})`);
  }
}

function markdownFields(file: string, text: string): Record<string, unknown> {
  const fm = parseFrontMatter(text);
  if ("error" in fm) throw new AgentFileError(`agent file ${file}: ${fm.error}`);
  const body = fm.body.trim();
  return body ? { ...fm.fields, system_prompt: body } : fm.fields;
}
