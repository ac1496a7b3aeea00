// The model a session's next run uses, and the tools that go with it (some
// tools depend on the model). A switch changes what the next run is given,
// never a run in flight.

import type { Emit } from "../events.js";
import type { ActiveToolset } from "../profiles/activate.js";
import type { Provider } from "../providers/types.js";

export interface ModelChoice {
  model(): string;
  /** `loop`: the tools while loop mode is on (they include the one that asks to leave it). */
  toolset(loop?: boolean): ActiveToolset;
  /** Without an id: a notice naming the current model and the ones the provider offers. */
  switchTo(id: string | undefined): Promise<void>;
}

export function createModelChoice(opts: {
  provider: Provider;
  model: string;
  toolset: ActiveToolset;
  toolsetFor?: (model: string, opts?: { loopRunning?: boolean }) => ActiveToolset;
  emit: Emit;
}): ModelChoice {
  let model = opts.model;
  let toolset = opts.toolset;
  // Built when a loop first needs it, again after a switch.
  let loopToolset: ActiveToolset | undefined;
  const { provider, emit } = opts;
  return {
    model: () => model,
    toolset(loop = false) {
      if (!loop || !opts.toolsetFor) return toolset;
      loopToolset ??= opts.toolsetFor(model, { loopRunning: true });
      return loopToolset;
    },
    async switchTo(id) {
      if (!id) {
        emit({ type: "notice", level: "info", text: `Model: ${model} on ${provider.name}.${await offered(provider)} Switch with /model NAME.` });
        return;
      }
      if (id === model) {
        emit({ type: "notice", level: "info", text: `Already using ${model}.` });
        return;
      }
      try {
        toolset = opts.toolsetFor ? opts.toolsetFor(id) : toolset;
      } catch (err) {
        emit({ type: "notice", level: "warning", text: `Cannot switch to ${id}: ${(err as Error).message}` });
        return;
      }
      const previous = model;
      model = id;
      loopToolset = undefined;
      emit({ type: "model_switched", model: id, previous });
    },
  };
}

async function offered(provider: Provider): Promise<string> {
  if (!provider.listModels) return "";
  try {
    const ids = await provider.listModels(AbortSignal.timeout(15_000));
    return ids.length ? ` ${provider.name} offers: ${ids.sort().join(", ")}.` : "";
  } catch (err) {
    return ` (the model list is unavailable: ${(err as Error).message})`;
  }
}
