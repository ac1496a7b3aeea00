// Command-line parsing: one table of options shared by every command, and the
// translation of flags into config overrides (flags are the top config layer).

import { parseArgs } from "node:util";
import { EDIT_FORMATS, PROVIDER_NAMES, TOOL_DESC_MODES } from "../core/config/schema.js";

const COMMANDS = [
  "code", "run", "tool", "setup", "models", "doctor", "demo",
  "approve", "reject", "resume", "rewind", "answer", "sessions", "current", "status", "show", "replay", "trust", "schema", "measure", "help",
] as const;

/** Commands that print a report, not a run: `--output json` is theirs. */
const REPORT_COMMANDS: readonly string[] = ["sessions", "current", "status", "show"];
/** Commands that run a session headless: `--input jsonl` is theirs. */
const INPUT_COMMANDS: readonly string[] = ["code", "resume", "answer"];
type Command = (typeof COMMANDS)[number];

export class UsageError extends Error {
  override name = "UsageError";
}

const OPTIONS = {
  profile: { type: "string" },
  config: { type: "string", multiple: true },
  provider: { type: "string" },
  model: { type: "string" },
  "base-url": { type: "string" },
  "api-key-env": { type: "string" },
  "edit-format": { type: "string" },
  output: { type: "string" },
  input: { type: "string" },
  "max-turns": { type: "string" },
  "plan-mode": { type: "string" },
  prompt: { type: "string", short: "p" },
  yolo: { type: "boolean" },
  loop: { type: "boolean" },
  measure: { type: "boolean" },
  always: { type: "boolean" },
  scope: { type: "string" },
  message: { type: "string", short: "m" },
  resume: { type: "string" },
  "allow-divergence": { type: "boolean" },
  show: { type: "boolean" },
  revoke: { type: "boolean" },
  "keep-jobs": { type: "boolean" },
  "tool-desc": { type: "string" },
  task: { type: "string" },
  "prompt-text": { type: "string" },
  "prompt-file": { type: "string" },
  "max-sessions": { type: "string" },
  "dry-run": { type: "boolean" },
  "resume-message-file": { type: "string" },
  to: { type: "string" },
  undo: { type: "boolean" },
  yes: { type: "boolean" },
  force: { type: "boolean" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "V" },
} as const;

export interface ParsedArgs {
  command: Command | "default";
  positionals: string[];
  profile?: string;
  configFiles: string[];
  provider?: (typeof PROVIDER_NAMES)[number];
  model?: string;
  baseUrl?: string;
  apiKeyEnv?: string;
  editFormat?: (typeof EDIT_FORMATS)[number];
  /** jsonl: a run's events; json: a report command's data. */
  output: "text" | "jsonl" | "json";
  /** `--input jsonl`: operations on stdin, one JSON object a line (a run's operator). */
  input?: "jsonl";
  maxTurns?: number;
  /** --plan-mode: "required" starts every run in the planning phase. */
  planMode?: "off" | "required";
  prompt?: string;
  /** Skip ordinary asks (never the protected tools). */
  yolo?: boolean;
  /** `yuj code --loop`: the task runs in loop mode, done's report confirmed as it comes. */
  loop?: boolean;
  /** A measurement run: every ask is denied, no questions to the user. */
  measure?: boolean;
  /** `yuj approve --always [--scope session|project]`. */
  always?: boolean;
  scope?: "session" | "project";
  /** `yuj reject --message M`. */
  message?: string;
  /** `yuj --resume ID`: open a stored session in the TUI; `true` for a bare `--resume` (pick one). */
  resume?: string | true;
  /** `yuj replay --allow-divergence`: go on past a differing request. */
  allowDivergence?: boolean;
  /** `yuj trust --show` / `yuj trust --revoke`. */
  trustAction?: "show" | "revoke";
  /** A headless run stays until its background jobs finish, instead of stopping them when the run ends. */
  keepJobs?: boolean;
  /** `--tool-desc minimal`: which set of tool descriptions the model is sent ([experiment].tool_desc). */
  toolDesc?: (typeof TOOL_DESC_MODES)[number];
  /** `yuj measure`'s own options. */
  measureRun?: MeasureOptions;
  /** `yuj rewind --to N`: the operator message (1-based) to rewind to. */
  rewindTo?: number;
  /** `yuj rewind --undo`. */
  undo?: boolean;
  /** `yuj rewind --yes`: apply without asking; `--force`: even over files changed outside yuj. */
  yes?: boolean;
  force?: boolean;
  help: boolean;
  version: boolean;
}

/** What `yuj measure RUN_DIR` is told beyond the run's options. */
export interface MeasureOptions {
  /** One task (a repository folder) instead of every RUN_DIR/repos/* with a prompt.txt. */
  task?: string;
  promptText?: string;
  promptFile?: string;
  maxSessions?: number;
  dryRun?: boolean;
  /** `--resume PATH`: a task measured before, continued with the message in `resumeMessageFile`. */
  resume?: string;
  resumeMessageFile?: string;
}

const MEASURE_FLAGS = ["task", "prompt-text", "prompt-file", "max-sessions", "dry-run", "resume-message-file"] as const;

export function parseCommandLine(argv: string[]): ParsedArgs {
  let values: Record<string, string | boolean | string[] | undefined>;
  let positionals: string[];
  const { rest, bareResume } = takeBareResume(argv);
  try {
    ({ values, positionals } = parseArgs({ args: rest, options: OPTIONS, allowPositionals: true, strict: true }));
  } catch (err) {
    throw new UsageError(cleanParseError((err as Error).message));
  }

  let command: ParsedArgs["command"] = "default";
  const first = positionals[0];
  if (first !== undefined && (COMMANDS as readonly string[]).includes(first)) {
    command = first as Command;
    positionals = positionals.slice(1);
  } else if (values.prompt !== undefined || first !== undefined) {
    command = "code"; // `yuj "task"` and `yuj -p "task"` run the task headless
  }
  if (command === "run") command = "code";

  const parsed: ParsedArgs = {
    command,
    positionals,
    configFiles: (values.config as string[] | undefined) ?? [],
    output: "text",
    help: values.help === true,
    version: values.version === true,
  };
  const str = (k: string) => values[k] as string | undefined;
  if (str("profile") !== undefined) parsed.profile = nonEmpty("--profile", str("profile")!);
  if (str("provider") !== undefined) parsed.provider = oneOf("--provider", str("provider")!, PROVIDER_NAMES);
  if (str("model") !== undefined) parsed.model = nonEmpty("--model", str("model")!);
  if (str("base-url") !== undefined) parsed.baseUrl = url("--base-url", str("base-url")!);
  if (str("api-key-env") !== undefined) parsed.apiKeyEnv = envName(str("api-key-env")!);
  if (str("edit-format") !== undefined) parsed.editFormat = oneOf("--edit-format", str("edit-format")!, EDIT_FORMATS);
  if (str("output") !== undefined) {
    const report = REPORT_COMMANDS.includes(command);
    parsed.output = oneOf("--output", str("output")!, report ? (["text", "json"] as const) : (["text", "jsonl"] as const));
  }
  if (str("input") !== undefined) {
    parsed.input = oneOf("--input", str("input")!, ["jsonl"] as const);
    if (!INPUT_COMMANDS.includes(command)) {
      throw new UsageError("--input jsonl goes with yuj code, yuj resume and yuj answer (operations for the run on stdin)");
    }
  }
  if (str("max-turns") !== undefined) parsed.maxTurns = positiveInt("--max-turns", str("max-turns")!);
  if (str("plan-mode") !== undefined) parsed.planMode = oneOf("--plan-mode", str("plan-mode")!, ["off", "required"] as const);
  if (str("prompt") !== undefined) parsed.prompt = str("prompt")!;
  if (values.yolo === true) parsed.yolo = true;
  if (values.loop === true) {
    if (command !== "code") throw new UsageError("--loop goes with yuj code (in the terminal UI: /loop on [TARGET])");
    parsed.loop = true;
  }
  if (values.measure === true) parsed.measure = true;
  if (values.always === true) parsed.always = true;
  if (values["allow-divergence"] === true) parsed.allowDivergence = true;
  if (values.show === true || values.revoke === true) {
    if (command !== "trust") throw new UsageError("--show and --revoke go with yuj trust");
    if (values.show === true && values.revoke === true) throw new UsageError("yuj trust takes --show or --revoke, not both");
    parsed.trustAction = values.show === true ? "show" : "revoke";
  }
  if (values["keep-jobs"] === true) parsed.keepJobs = true;
  rewindOptions(parsed, values);
  if (str("scope") !== undefined) parsed.scope = oneOf("--scope", str("scope")!, ["session", "project"] as const);
  if (str("message") !== undefined) parsed.message = str("message")!;
  if (str("tool-desc") !== undefined) {
    if (command !== "code" && command !== "measure") throw new UsageError("--tool-desc goes with yuj code and yuj measure");
    parsed.toolDesc = oneOf("--tool-desc", str("tool-desc")!, TOOL_DESC_MODES);
  }
  if (command === "measure") {
    parsed.measureRun = measureOptions(values, bareResume);
    return parsed;
  }
  const stray = MEASURE_FLAGS.find((f) => values[f] !== undefined);
  if (stray) throw new UsageError(`--${stray} goes with yuj measure`);
  if (str("resume") !== undefined || bareResume) {
    if (command !== "default") {
      throw new UsageError(`--resume opens a session in the terminal UI (yuj --resume [ID]); headless, continue it with yuj resume ID`);
    }
    parsed.resume = str("resume") !== undefined ? nonEmpty("--resume", str("resume")!) : true;
  }
  return parsed;
}

function measureOptions(values: Record<string, string | boolean | string[] | undefined>, bareResume: boolean): MeasureOptions {
  const str = (k: string) => values[k] as string | undefined;
  const m: MeasureOptions = {};
  if (str("task") !== undefined) m.task = nonEmpty("--task", str("task")!);
  if (str("prompt-text") !== undefined) m.promptText = nonEmpty("--prompt-text", str("prompt-text")!);
  if (str("prompt-file") !== undefined) m.promptFile = nonEmpty("--prompt-file", str("prompt-file")!);
  if (m.promptText !== undefined && m.promptFile !== undefined) throw new UsageError("yuj measure takes --prompt-text or --prompt-file, not both");
  if (str("max-sessions") !== undefined) m.maxSessions = positiveInt("--max-sessions", str("max-sessions")!);
  if (values["dry-run"] === true) m.dryRun = true;
  if (bareResume) throw new UsageError("yuj measure --resume needs the task's folder: --resume PATH --resume-message-file FILE");
  if (str("resume") !== undefined) m.resume = nonEmpty("--resume", str("resume")!);
  if (str("resume-message-file") !== undefined) m.resumeMessageFile = nonEmpty("--resume-message-file", str("resume-message-file")!);
  if ((m.resume === undefined) !== (m.resumeMessageFile === undefined)) {
    throw new UsageError("yuj measure takes --resume PATH and --resume-message-file FILE together: the task to continue and the message it continues with");
  }
  if (m.resume !== undefined && m.task !== undefined) throw new UsageError("yuj measure --resume PATH names the task already; leave out --task");
  return m;
}

/** --to, --undo, --yes and --force are yuj rewind's. */
function rewindOptions(parsed: ParsedArgs, values: Record<string, string | boolean | string[] | undefined>): void {
  const given = ["to", "undo", "yes", "force"].filter((k) => values[k] !== undefined);
  if (given.length === 0) return;
  if (parsed.command !== "rewind") throw new UsageError(`--${given[0]} goes with yuj rewind: yuj rewind [ID] [--to N | --undo] [--yes] [--force]`);
  if (typeof values.to === "string") parsed.rewindTo = positiveInt("--to", values.to);
  if (values.undo === true) parsed.undo = true;
  if (values.yes === true) parsed.yes = true;
  if (values.force === true) parsed.force = true;
}

/**
 * `--resume` takes an optional value, which parseArgs cannot express: a
 * `--resume` that is last or followed by another option is taken out here
 * and means "pick the session". `--resume ID` and `--resume=ID` are left as
 * they are; so is anything after `--`.
 */
function takeBareResume(argv: string[]): { rest: string[]; bareResume: boolean } {
  const rest: string[] = [];
  let bareResume = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") {
      rest.push(...argv.slice(i));
      break;
    }
    const next = argv[i + 1];
    if (arg === "--resume" && (next === undefined || next.startsWith("-"))) bareResume = true;
    else rest.push(arg);
  }
  return { rest, bareResume };
}

/** Flags as a config layer, in the config file's shape. */
export function flagOverrides(args: ParsedArgs): Record<string, unknown> {
  const provider: Record<string, unknown> = {};
  if (args.provider) provider.name = args.provider;
  if (args.model) provider.model = args.model;
  if (args.baseUrl) provider.base_url = args.baseUrl;
  if (args.apiKeyEnv) provider.api_key_env = args.apiKeyEnv;
  const out: Record<string, unknown> = {};
  if (Object.keys(provider).length) out.provider = provider;
  if (args.editFormat) out.tools = { edit_format: args.editFormat };
  if (args.toolDesc) out.experiment = { tool_desc: args.toolDesc };
  const loop: Record<string, unknown> = {};
  if (args.maxTurns) loop.max_turns = args.maxTurns;
  if (args.planMode) loop.plan_mode = args.planMode;
  if (Object.keys(loop).length) out.loop = loop;
  if (args.profile) out.profile = args.profile;
  return out;
}

function cleanParseError(message: string): string {
  // node's messages end with advice about "--" that does not fit yuj.
  const first = message.split(". To specify")[0]!.replace(/^Unknown option/, "unknown option");
  return `${first}. Run \`yuj --help\` for the options.`;
}

function oneOf<T extends readonly string[]>(flag: string, value: string, allowed: T): T[number] {
  if (!allowed.includes(value)) {
    throw new UsageError(`${flag} must be one of ${allowed.join(", ")}; got "${value}"`);
  }
  return value as T[number];
}

function nonEmpty(flag: string, value: string): string {
  if (!value.trim()) throw new UsageError(`${flag} needs a value`);
  return value;
}

function url(flag: string, value: string): string {
  try {
    const u = new URL(value);
    if (u.protocol !== "http:" && u.protocol !== "https:") throw new Error();
    return value;
  } catch {
    throw new UsageError(`${flag} must be an http(s) URL, e.g. http://127.0.0.1:8080/v1; got "${value}"`);
  }
}

function envName(value: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(value)) {
    throw new UsageError(`--api-key-env takes the NAME of an environment variable (e.g. MY_API_KEY), not the key itself`);
  }
  return value;
}

function positiveInt(flag: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`${flag} must be a positive integer; got "${value}"`);
  return n;
}
