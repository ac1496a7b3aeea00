// Which model backend to use, with which key, decided from config, flags and
// the environment before anything is written or sent. Every way this can fail
// is a message that says what to set.

import { isAbsolute, resolve } from "node:path";
import type { Config } from "../core/config/schema.js";
import type { Env } from "../core/paths.js";
import type { Provider } from "../core/providers/types.js";
import { FatalError } from "./errors.js";

type ProviderName = "anthropic" | "openai" | "openai-chat" | "scripted";

export interface ProviderChoice {
  name: ProviderName;
  model: string;
  apiKey?: string;
  baseURL?: string;
  /** Scenario file for the scripted provider. */
  scenario?: string;
  /** Pause between the scripted provider's pieces (the demo on a terminal). */
  scriptDelayMs?: number;
  /** Values that must never be written to a trace. */
  secrets: string[];
}

const DEFAULT_MODELS: Record<Exclude<ProviderName, "openai-chat">, string> = {
  anthropic: "claude-sonnet-4-5",
  openai: "gpt-5",
  scripted: "scripted",
};

const KEY_VARS: Record<string, string> = { anthropic: "ANTHROPIC_API_KEY", openai: "OPENAI_API_KEY", "openai-chat": "OPENAI_API_KEY" };

export const NO_PROVIDER_HELP =
  "no model provider is configured. Connect one with\n" +
  "  yuj setup --provider anthropic --model claude-sonnet-4-5   (and export ANTHROPIC_API_KEY)\n" +
  "  yuj setup --provider openai --model gpt-5                  (and export OPENAI_API_KEY)\n" +
  "  yuj setup --provider openai-chat --model MODEL --base-url http://127.0.0.1:8080/v1   (a local server)\n" +
  "or pass --provider/--model, or try the offline demo with `yuj demo`.";

/** The provider the config and environment name, or undefined when none is. */
export function chooseProvider(config: Config, env: Env, cwd: string): ProviderChoice | undefined {
  const p = config.provider;
  let name = p.name as ProviderName | undefined;
  if (!name) {
    if (env.ANTHROPIC_API_KEY) name = "anthropic";
    else if (env.OPENAI_API_KEY) name = "openai";
    else return undefined;
  }

  if (name === "scripted") {
    if (!p.scenario) {
      throw new FatalError("the scripted provider needs a scenario file: set [provider].scenario to a JSON scenario path");
    }
    const scenario = isAbsolute(p.scenario) ? p.scenario : resolve(cwd, p.scenario);
    return { name, model: p.model ?? DEFAULT_MODELS.scripted, scenario, secrets: [] };
  }

  const model = p.model ?? (name === "openai-chat" ? undefined : DEFAULT_MODELS[name]);
  if (!model) {
    throw new FatalError("openai-chat needs a model name: pass --model (the id your server serves) or set [provider].model");
  }

  const keyVar = p.api_key_env ?? KEY_VARS[name]!;
  const apiKey = env[keyVar];
  if (!apiKey && (p.api_key_env || name !== "openai-chat")) {
    throw new FatalError(
      `${name} needs an API key, but ${keyVar} is not set. ` +
        (p.api_key_env
          ? `Export ${keyVar}, or point --api-key-env / [provider].api_key_env at the variable that holds your key.`
          : `Export ${keyVar}=<your key>, or name another variable with --api-key-env VAR.`),
    );
  }
  const choice: ProviderChoice = { name, model, secrets: apiKey ? [apiKey] : [] };
  if (apiKey) choice.apiKey = apiKey;
  // Without a configured URL the SDKs read ANTHROPIC_BASE_URL / OPENAI_BASE_URL themselves.
  if (p.base_url) choice.baseURL = p.base_url;
  return choice;
}

/** Builds the provider; the SDK adapters load only here, on first use. */
export async function createProviderFor(choice: ProviderChoice, config: Config): Promise<Provider> {
  if (choice.name === "scripted") {
    const [{ loadScenario }, { scriptedProvider }] = await Promise.all([
      import("../core/providers/scenario.js"),
      import("../core/providers/scripted.js"),
    ]);
    let scenario;
    try {
      scenario = loadScenario(choice.scenario!);
    } catch (err) {
      throw new FatalError((err as Error).message);
    }
    return scriptedProvider(scenario, { delayMs: choice.scriptDelayMs ?? 0 });
  }
  const { createProvider } = await import("../core/providers/index.js");
  return createProvider({
    name: choice.name,
    model: choice.model,
    maxRetries: config.provider.max_retries,
    requestTimeoutMs: config.provider.request_timeout_s * 1000,
    ...(choice.apiKey === undefined ? {} : { apiKey: choice.apiKey }),
    ...(choice.baseURL === undefined ? {} : { baseURL: choice.baseURL }),
  });
}
