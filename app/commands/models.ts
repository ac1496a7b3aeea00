// `yuj models`: the model ids the configured provider offers.

import { ignoredBy, ignoredNotice } from "../../core/config/project-trust.js";
import { oneLine, safeText } from "../../core/text/safe.js";
import type { ParsedArgs } from "../args.js";
import { FatalError } from "../errors.js";
import { buildProvider, requireProvider, resolveSession } from "../session.js";

export async function modelsCommand(args: ParsedArgs): Promise<number> {
  const resolved = resolveSession({ args, cwd: process.cwd(), env: process.env, topLevel: true });
  if (ignoredBy(resolved.projectTrust).length) process.stderr.write(`yuj: ${safeText(ignoredNotice(resolved.projectTrust!))}\n`);
  const choice = requireProvider(resolved);
  const provider = await buildProvider(choice, resolved.config);
  if (!provider.listModels) throw new FatalError(`${choice.name} cannot list its models`);
  let models: string[];
  try {
    models = await provider.listModels(AbortSignal.timeout(30_000));
  } catch (err) {
    throw new FatalError(`cannot list models: ${(err as Error).message}`, 1);
  }
  // The ids come from the provider's server: one safe line each.
  for (const id of models.sort()) process.stdout.write(`${oneLine(id)}${id === choice.model ? "  (configured)" : ""}\n`);
  return 0;
}
