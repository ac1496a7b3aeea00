// `yuj setup`: writes the model settings into the user config file.

import { homedir } from "node:os";
import { ConfigError } from "../../core/config/errors.js";
import { writeUserConfig } from "../../core/config/load.js";
import { userConfigPath } from "../../core/paths.js";
import type { ParsedArgs } from "../args.js";
import { UsageError } from "../args.js";
import { FatalError } from "../errors.js";

const KEY_VARS: Record<string, string | undefined> = {
  anthropic: "ANTHROPIC_API_KEY",
  openai: "OPENAI_API_KEY",
  "openai-chat": "OPENAI_API_KEY",
};

export async function setupCommand(args: ParsedArgs): Promise<number> {
  if (!args.provider || !args.model) {
    throw new UsageError(
      "yuj setup needs --provider and --model, e.g. yuj setup --provider anthropic --model claude-sonnet-4-5",
    );
  }
  const provider: Record<string, string> = { name: args.provider, model: args.model };
  if (args.apiKeyEnv) provider.api_key_env = args.apiKeyEnv;
  if (args.baseUrl) provider.base_url = args.baseUrl;
  const file = userConfigPath(process.env, process.env.HOME ?? homedir());
  try {
    writeUserConfig(file, { provider });
  } catch (err) {
    if (err instanceof ConfigError) throw new FatalError(err.message);
    throw err;
  }
  process.stdout.write(`Wrote [provider] to ${file}: ${args.provider} ${args.model}\n`);
  const keyVar = args.apiKeyEnv ?? KEY_VARS[args.provider];
  if (keyVar && !process.env[keyVar] && !(args.provider === "openai-chat" && !args.apiKeyEnv)) {
    process.stdout.write(`Next: export ${keyVar}=<your API key> (yuj reads the key from the environment, never from the file).\n`);
  }
  process.stdout.write(`Check the connection with: yuj doctor\n`);
  return 0;
}
