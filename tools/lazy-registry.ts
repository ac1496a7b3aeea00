// The handler registry of a run from the bundle: each handler stands as what
// the build described of it (tools/describe-handlers.ts), and its module is
// loaded when a call of it first needs the code (its card, its run), or all
// at once by `loadAll`. A start-up then evaluates no handler module: the
// first request needs only the tools' schemas, described already.

import { HandlerNotLoaded, type ToolHandler, type ToolRegistry } from "../core/tool-types.js";
import type { Described } from "./describe-handlers.js";

type Loader = () => Promise<ToolHandler>;

export interface LazyRegistry {
  registry: ToolRegistry;
  /** Loads every handler's code (a run that may use any handler before a model's call names it). */
  loadAll(): Promise<void>;
}

/** `described[i]` is the handler `loaders[i]` loads. */
export function lazyRegistry(described: readonly Described[], loaders: readonly Loader[]): LazyRegistry {
  if (described.length !== loaders.length) throw new Error("the described tool handlers do not match the loaders: rebuild");
  const registry = new Map<string, ToolHandler>();
  described.forEach((d, i) => {
    const h = lazyHandler(d, loaders[i]!);
    if (registry.has(h.id)) throw new Error(`two tool handlers share the id "${h.id}"; each handler needs its own id`);
    registry.set(h.id, h);
  });
  return { registry, loadAll: async () => void (await Promise.all([...registry.values()].map((h) => h.load!()))) };
}

function lazyHandler(d: Described, loader: Loader): ToolHandler {
  const id = d.fields.id as string;
  let real: ToolHandler | undefined;
  let loading: Promise<void> | undefined;
  const loaded = (): ToolHandler => {
    if (!real) throw new HandlerNotLoaded(id);
    return real;
  };
  const call = (of: () => object, name: string) => (...args: unknown[]) => (of() as Record<string, (...a: unknown[]) => unknown>)[name]!(...args);
  const view: Record<string, unknown> = { ...(d.fields.view as object) };
  for (const name of d.viewFns) view[name] = call(() => loaded().view, name);
  const h: Record<string, unknown> = { ...d.fields, view };
  for (const name of d.sets) h[name] = new Set(d.fields[name] as unknown[]);
  for (const name of d.fns) h[name] = call(loaded, name);
  h.run = call(loaded, "run");
  h.load = () =>
    (loading ??= loader().then((got) => {
      if (got.id !== id) throw new Error(`tool handler ${id}: its module holds ${got.id}; rebuild`);
      real = got;
    }));
  h.declared = { params: d.params, jsonSchema: () => JSON.parse(d.jsonSchema) as Record<string, unknown> };
  Object.defineProperty(h, "schema", { get: () => loaded().schema, enumerable: true });
  return h as unknown as ToolHandler;
}
