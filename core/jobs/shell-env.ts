// The environment of every process yuj starts for the model: commands in the
// foreground and the background, the interactive terminal, the formatter,
// ripgrep. It is built from yuj's own environment by a policy, so a secret is
// never handed to a command in the first place: redacting a value from the
// output cannot work once a command can slice, fold, encode or reverse it.
//
// Dropped by default:
//   - every variable whose name contains KEY, SECRET, TOKEN, PASSWORD, PASSWD,
//     CREDENTIAL or AUTH (not AUTHOR), in any case: the names whose values the
//     redactor hides too;
//   - the provider variables, ANTHROPIC_* and OPENAI_*;
//   - the variable yuj reads its API key from ([provider].api_key_env), whatever its name.
// `[shell_env]` adjusts it: `include` keeps variables the defaults would drop,
// `exclude` drops more (and wins over include), `set` adds or replaces values.

import type { Env } from "../paths.js";
import { SECRET_NAME } from "../redact.js";

/** The provider SDKs' variables: keys, base URLs, organisation ids. */
const PROVIDER_PATTERNS = ["ANTHROPIC_*", "OPENAI_*"] as const;

/** The variables the provider adapters read their key from when no other is named. */
const DEFAULT_KEY_VARS = ["ANTHROPIC_API_KEY", "OPENAI_API_KEY"] as const;

export interface ShellEnvPolicy {
  /** Globs (`*`, `?`, any case) of names to keep even though a default rule drops them. */
  include: readonly string[];
  /** Globs of names to drop as well; they win over `include`. */
  exclude: readonly string[];
  /** Values set last, over anything inherited. */
  set: Readonly<Record<string, string>>;
  /**
   * The variable the API key comes from. Only an `include` entry that names it
   * exactly (no glob) keeps it: a broad pattern must not let the key through.
   */
  apiKeyEnv?: string;
}

const DEFAULT_POLICY: ShellEnvPolicy = { include: [], exclude: [], set: {} };

/** A glob over variable names, matched whole and ignoring case. */
function nameGlob(pattern: string): RegExp {
  const body = pattern.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".");
  return new RegExp(`^${body}$`, "i");
}

const isGlob = (pattern: string) => /[*?]/.test(pattern);

/** Why the default rules drop `name`, or undefined when they keep it. */
function defaultDrop(name: string, keyVars: ReadonlySet<string>): "key" | "secret" | undefined {
  if (keyVars.has(name)) return "key";
  if (SECRET_NAME.test(name) || PROVIDER_PATTERNS.some((p) => nameGlob(p).test(name))) return "secret";
  return undefined;
}

/** The environment a command gets: `source` filtered by the policy, then `set`. */
export function commandEnv(source: Env, policy: ShellEnvPolicy = DEFAULT_POLICY): Record<string, string> {
  const include = policy.include.map((p) => ({ p, re: nameGlob(p) }));
  const exclude = policy.exclude.map(nameGlob);
  const keyVars = new Set<string>([...DEFAULT_KEY_VARS, ...(policy.apiKeyEnv ? [policy.apiKeyEnv] : [])]);
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(source)) {
    if (value === undefined) continue;
    if (exclude.some((re) => re.test(name))) continue;
    const why = defaultDrop(name, keyVars);
    if (why === "key" && !include.some((i) => !isGlob(i.p) && i.p === name)) continue;
    if (why === "secret" && !include.some((i) => i.re.test(name))) continue;
    out[name] = value;
  }
  return { ...out, ...policy.set };
}

/** The policy the configuration describes. */
export function policyFromConfig(config: {
  shell_env: { include: string[]; exclude: string[]; set: Record<string, string> };
  provider: { api_key_env?: string | undefined };
}): ShellEnvPolicy {
  const { include, exclude, set } = config.shell_env;
  return { include, exclude, set, ...(config.provider.api_key_env ? { apiKeyEnv: config.provider.api_key_env } : {}) };
}
