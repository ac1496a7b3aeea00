// The whole configuration: every key yuj reads, validated with zod. Objects
// are strict: an unknown key is an error that names it (and a key of a
// feature not implemented yet says so: not-supported.ts). Sections use
// `prefault({})` so their inner defaults apply when a file omits the section.

import { z } from "zod";
import { lspSection } from "../lsp/config.js";
import { mcpSection } from "../mcp/config.js";
import { hooksSection } from "../hooks/config.js";
import { predicateProblem } from "../when-predicate.js";

/** The User-Agent web_fetch sends unless [web_fetch].user_agent names another. */
export const WEB_FETCH_USER_AGENT = "yuj-web-fetch/1 (a terminal coding agent)";

const section = <T extends z.ZodRawShape>(shape: T) => z.strictObject(shape).prefault(() => ({}) as never);
const posInt = z.number().int().positive();
const nonNegInt = z.number().int().nonnegative();
const ratio = z.number().min(0).max(1);

export const PROVIDER_NAMES = ["anthropic", "openai", "openai-chat", "scripted"] as const;
export const EDIT_FORMATS = ["exact", "apply_patch", "udiff", "whole"] as const;
/** The sets of tool descriptions a profile ships (tool_descriptions/<mode>/). */
export const TOOL_DESC_MODES = ["minimal"] as const;

const providerSection = section({
  name: z.enum(PROVIDER_NAMES).optional(),
  model: z.string().min(1).optional(),
  base_url: z.url().optional(),
  /** Name of the environment variable that holds the API key. */
  api_key_env: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "an environment variable name").optional(),
  /** Scenario file for the scripted provider. */
  scenario: z.string().min(1).optional(),
  max_output_tokens: posInt.default(8192),
  max_retries: nonNegInt.default(4),
  request_timeout_s: posInt.default(600),
});

const loopSection = section({
  max_turns: posInt.default(200),
  done_guard_enabled: z.boolean().default(false),
  done_require_mutation: z.boolean().default(false),
  done_require_verify: z.boolean().default(false),
  plan_mode: z.enum(["off", "required"]).default("off"),
  plan_max_turns: posInt.default(30),
  /** The run stops when this many calls in a row are one call (same tool, same arguments); 0 (the default): never. */
  duplicate_abort: nonNegInt.default(0),
  /** After this many failed calls in a row the next request carries a nudge to step back; 0 (the default): never. */
  error_nudge_threshold: nonNegInt.default(0),
  /** `yuj measure`: sessions per task at most, the first and its resumes, before the task counts as not completed. */
  max_sessions: posInt.default(10),
  /** Loop mode (/loop on): continuation requests at most, the first included, before the loop stops without a report. */
  max_iterations: posInt.default(10),
});

const runTestsSection = section({
  enabled: z.boolean().default(false),
  timeout: posInt.default(240),
  structured_output: z.boolean().default(true),
  assertion_context_lines: nonNegInt.default(5),
  assertion_context_max: nonNegInt.default(3),
});

const toolsSection = section({
  edit_format: z.enum(EDIT_FORMATS).optional(),
  /** Seconds one foreground bash command may run; 0 sets no ceiling, as in the reference. */
  bash_timeout: z.number().nonnegative().finite().default(120),
  grep_timeout: posInt.default(30),
  search_pagination_enabled: z.boolean().default(true),
  grep_max_matches_per_page: posInt.default(25),
  glob_max_matches_per_page: posInt.default(25),
  glob_max_listed_paths: nonNegInt.default(50),
  glob_refuse_unscoped_recursive: z.boolean().default(true),
  sink_head_bytes: nonNegInt.default(1000),
  sink_tail_bytes: nonNegInt.default(1000),
  edit_fuzzy_cascade_enabled: z.boolean().default(false),
  edit_candidate_count: nonNegInt.default(3),
  strip_ansi: z.boolean().default(true),
  collapse_blank_lines: z.boolean().default(true),
  collapse_duplicate_lines: z.boolean().default(true),
  /** Runs of lines that differ only in their numbers collapse to `[×N similar lines]` once output is over half its bound. */
  collapse_similar_lines: z.boolean().default(true),
  /**
   * Older switch, read only when `[sandbox].mode` is unset: false means mode
   * "off"; true means "on" with sandbox_required = true, else "auto".
   */
  sandbox_bash: z.boolean().optional(),
  /** With sandbox_bash = true: refuse to run commands when bwrap cannot start. */
  sandbox_required: z.boolean().default(true),
  /** The bubblewrap binary: a path, or a name looked up on PATH. Unset: `bwrap` on PATH. */
  bwrap_bin: z.string().min(1).optional(),
  think_enabled: z.boolean().default(false),
  think_keep_turns: nonNegInt.default(4),
  background_enabled: z.boolean().default(false),
  /** Background commands that may run at once; a start past it is refused until one ends or is killed. */
  background_max_procs: posInt.default(4),
  /** Seconds one bash_poll may wait for new output, whatever timeout_s it asks for. */
  background_poll_timeout: z.number().nonnegative().finite().default(300),
  terminal_enabled: z.boolean().default(false),
  /** Seconds one interactive terminal may live before yuj stops it (reason=lifetime_timeout). */
  terminal_max_lifetime: z.number().positive().default(900),
  /** Characters one terminal_io input may have. */
  terminal_max_input_chars: posInt.default(16_384),
  /** Seconds terminal_io waits for output when the call names no timeout_s. */
  terminal_read_timeout: z.number().nonnegative().default(5),
  todos_enabled: z.boolean().default(false),
  /** Offers task(agent, prompt): named agents run as child sessions. */
  task_enabled: z.boolean().default(false),
  /** How deep children may nest: 1 lets the top-level session start children that start none. */
  task_max_depth: posInt.default(1),
  todos_max_items: posInt.default(20),
  checkpoint_enabled: z.boolean().default(false),
  notebook_edit_enabled: z.boolean().default(false),
  structural_enabled: z.boolean().default(false),
  ast_search_enabled: z.boolean().default(false),
  /** Repository-wide list_definitions keeps at most this many rows (the total is still counted). */
  ast_search_max_rows: posInt.default(1000),
  bash_redirect_read_side: z.boolean().default(false),
  schema_validation: z.enum(["off", "reject"]).default("off"),
  /**
   * Code mode: the request carries list_functions, get_function_details,
   * exec_cell and done (and ask_user at top level) instead of the native
   * tools; the model runs Python cells that call read, grep, glob,
   * list_definitions and bash.
   */
  code_mode: z.boolean().default(false),
  /** Seconds one exec_cell may run, inner calls included; then the cell and every process it started are killed. */
  code_cell_timeout: posInt.default(120),
  /** Deferred loading: the first request carries the profile's active_default tools and load_tools; load_tools adds more. */
  lazy_loading_enabled: z.boolean().default(false),
  /** Deferred loading's first tools, by exposed name, in place of the profile's [capacity].active_default (the reference's key). */
  active_default: z.array(z.string().min(1)).optional(),
  stale_file: z.enum(["off", "warn", "block"]).default("off"),
  run_tests: runTestsSection,
  list_definitions: section({ enabled: z.boolean().default(false) }),
});

/** The smallest output cap: it must hold more than a preview's head and tail. */
const MIN_JOB_LOG_BYTES = 64 * 1024;

const outputSection = section({
  max_output_chars: posInt.default(80000),
  truncate_head_ratio: ratio.default(0.4),
  /**
   * Bytes of one command's (or terminal's) output kept on disk. Past it the
   * first half and the newest output are kept, and reads say how much was dropped.
   */
  max_job_log_bytes: z.number().int().min(MIN_JOB_LOG_BYTES).default(64 * 1024 * 1024),
});

// The environment of every command, terminal and formatter yuj starts
// (core/jobs/shell-env.ts). Secret-looking and provider variables are dropped
// by default; these adjust that.
const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "an environment variable name");
const envPattern = z
  .string()
  .regex(/^[A-Za-z0-9_*?]+$/, "a variable name or a glob of one (letters, digits, _, * and ?)");
const shellEnvSection = section({
  /** Keep these (globs) although a default rule drops them; the API key variable only when named exactly. */
  include: z.array(envPattern).default([]),
  /** Drop these (globs) as well; wins over include. */
  exclude: z.array(envPattern).default([]),
  /** Set these values last. */
  set: z.record(envName, z.string()).default({}),
});

// Runs after a successful edit/write/apply_patch/udiff/notebook_edit/
// structural_edit of a listed file (tools/guards/formatter.ts); its report is
// appended to that tool's result. Not a model tool, and off by default.
const formatterSection = section({
  /**
   * Argument vector, run without a shell in the project root (the task
   * directory); every `{path}` is replaced by the changed file's absolute
   * path. Empty: no formatter.
   */
  command: z.array(z.string()).default([]),
  /** Extensions of the files to format, with or without the dot (".ts", "py"), any case. Empty: none. */
  extensions: z.array(z.string()).default([]),
  /** Past this the formatter's process group is killed and the model's edit stays as it is. */
  timeout_s: posInt.default(10),
});

// Commands run after a successful change to a file (tools/guards/post-edit-check.ts),
// through the session's command runner: sandboxed and with the filtered
// environment, like the model's own commands. Off by default.
const postEditCheck = z.strictObject({
  /** Named in the results, the notices and a block's error. */
  name: z.string().min(1),
  /** Which changes run it: "edit" changes an existing file (edit, patch, notebook, structural), "write" writes a whole file. */
  trigger: z.enum(["edit", "write", "edit|write", "both"]).default("edit|write"),
  /**
   * A glob over the changed file's path relative to the project; without a "/" it matches the file name.
   * "" matches every file, and an expression over `path` and `ext` (`ext == '.py'`), the reference's form, is read too.
   */
  when: z
    .string()
    .default("*")
    .superRefine((when, ctx) => {
      const problem = predicateProblem(when);
      if (problem) ctx.addIssue({ code: "custom", params: { ownWords: true }, message: `not a glob, and not an expression yuj reads: ${problem}` });
    }),
  /** A shell command; every `{path}` becomes the changed file's path, shell-quoted. */
  cmd: z.string().min(1),
  /** On a failing check: append its output to the result, warn (append it and show a notice), or block (undo the change). */
  on_fail: z.enum(["append", "warn", "block"]).default("append"),
  /** Seconds; overrides [post_edit_check].timeout for this check. */
  timeout: posInt.optional(),
});

const postEditCheckSection = section({
  enabled: z.boolean().default(false),
  /** Seconds a check may run; past it the check's process group is killed and the check counts as failed. */
  timeout: posInt.default(10),
  checks: z.array(postEditCheck).default([]),
});

export const PERMISSION_ACTIONS = ["allow", "ask", "deny"] as const;

export const permissionRule = z.strictObject({
  tool: z.string().min(1),
  pattern: z.string().optional(),
  action: z.enum(PERMISSION_ACTIONS),
});

export const configSchema = z.strictObject({
  /** The tool surface: profiles/<name>; "_base" is the Yuj surface. */
  profile: z.string().min(1).default("_base"),
  provider: providerSection,
  loop: loopSection,
  tools: toolsSection,
  lsp: lspSection,
  output: outputSection,
  shell_env: shellEnvSection,
  context: section({
    digest_compaction_safety_margin: ratio.default(0.05),
    digest_keep_recent_turns: posInt.default(8),
  }),
  model: section({
    context_window: posInt.optional(),
    context_fill_ratio: ratio.default(0.95),
    /** The share of the context window kept free for the reply; when set, compaction fills up to 1 minus this instead of context_fill_ratio. */
    max_tokens_fraction: ratio.optional(),
  }),
  formatter: formatterSection,
  post_edit_check: postEditCheckSection,
  sandbox: section({
    /**
     * "auto" (the default when unset): bubblewrap when it exists and starts,
     * else unsandboxed with a notice. "on": required, no command runs
     * without it. "off": none. Unset defers to the older [tools] keys.
     */
    mode: z.enum(["auto", "on", "off"]).optional(),
    /** Let sandboxed commands use the host network (it is unshared by default). */
    network: z.boolean().default(false),
    /** Pass the host's Docker socket to sandboxed commands: that is host access (root, in effect). */
    docker: z.boolean().default(false),
    /** Absolute paths, `~/` paths or globs hidden from sandboxed commands; `optional:` may be missing. */
    unreadable_paths: z.array(z.string()).default([]),
  }),
  experiment: section({ tool_desc: z.enum(TOOL_DESC_MODES).default("minimal") }),
  permissions: section({
    rules: z.array(permissionRule).default([]),
    /** Skip ordinary asks (never handoff, delegate, cancel, done). */
    yolo: z.boolean().default(false),
  }),
  mcp: mcpSection,
  hooks: hooksSection,
  /** Delegated workers on the Chord surface (delegate). */
  orchestration: section({
    /** Workers live at once (running, or parked waiting for their owner); a delegate beyond is refused. */
    max_live_runtimes: posInt.default(10),
    /** Model requests in flight at once across the main agent and its workers; more wait their turn. */
    max_active_llm_requests: posInt.default(10),
    /** How deep delegation nests: 1 lets only the main agent delegate; 2 lets its workers delegate too. */
    max_depth: posInt.default(2),
  }),
  skills: section({ paths: z.array(z.string()).default([]) }),
  /** The work tree recorded on private refs (refs/yuj/<session>/<n>) so the operator can rewind files with the conversation. */
  workspace_checkpoints: section({
    enabled: z.boolean().default(true),
    /** A finished (done or failed) session's checkpoints are deleted this many days after its last update, when a later session starts. */
    prune_after_days: posInt.default(7),
  }),
  compat: section({
    /** Tools the provider runs itself, declared in every request: "web_search" (Anthropic Messages, OpenAI Responses). */
    hosted_tools: z.array(z.enum(["web_search"])).default([]),
  }),
  web_search: section({
    /** Results only from these domains (e.g. "docs.python.org"); empty: any. */
    allowed_domains: z.array(z.string().min(1)).default([]),
    /** Never results from these domains; Anthropic only, and not together with allowed_domains. */
    blocked_domains: z.array(z.string().min(1)).default([]),
    /** Searches per model request at most (Anthropic only); unset: the provider's default. */
    max_uses: posInt.optional(),
  }).refine((w) => w.allowed_domains.length === 0 || w.blocked_domains.length === 0, {
    message: "set allowed_domains or blocked_domains, not both: the provider takes one list",
  }),
  web_fetch: section({
    /** Offers web_fetch on the Yuj surface (Chord's always has it). */
    enabled: z.boolean().default(false),
    /** Blank (only white space): the default, as Chord falls back to its own. */
    user_agent: z.string().min(1).default(WEB_FETCH_USER_AGENT),
    /** An http:// proxy; "" connects directly; unset uses HTTPS_PROXY / HTTP_PROXY from the environment. */
    proxy: z.string().regex(/^(|http:\/\/[^\s/]+\/?)$/, "an http://host:port proxy URL, or \"\" for a direct connection").optional(),
    /** Bytes of body read at most (after decompression); the rest is cut. */
    max_bytes: posInt.default(5 * 1024 * 1024),
    max_redirects: nonNegInt.default(5),
  }),
}).superRefine((config, ctx) => {
  // Two compact surfaces, each replacing the tool list its own way: one at a time.
  if (config.tools.code_mode && config.tools.lazy_loading_enabled) {
    ctx.addIssue({
      code: "custom",
      path: ["tools", "code_mode"],
      params: { acrossKeys: true },
      message:
        "tools.code_mode and tools.lazy_loading_enabled are both true: code mode and deferred tool loading are alternative compact surfaces; set one of them to false",
    });
  }
});

export type Config = z.infer<typeof configSchema>;

/** The configuration with every default applied and nothing set. */
export function defaultConfig(): Config {
  return configSchema.parse({});
}
