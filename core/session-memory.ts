// What a session remembers in this process between tool calls (which files
// the model has seen whole, how often it polled a job without waiting) and
// nothing on disk records. It belongs to one session object: two sessions
// in one process — a parent and the agents it starts, each with its own
// controller — never see each other's, even when they share a project or a
// session folder, and a session opened again starts as a new process would.
//
// A tool declares what it keeps with a key (a module constant holding only
// how to make the empty value); the value lives in the session's memory.

export interface MemoryKey<T> {
  /** Names the slot when debugging; two keys with one name are still two slots. */
  readonly name: string;
  readonly create: () => T;
}

export function memoryKey<T>(name: string, create: () => T): MemoryKey<T> {
  return { name, create };
}

export interface SessionMemory {
  /** The session's value for `key`, made empty on first use. */
  of<T>(key: MemoryKey<T>): T;
}

export function createSessionMemory(): SessionMemory {
  const slots = new Map<MemoryKey<unknown>, unknown>();
  return {
    of<T>(key: MemoryKey<T>): T {
      if (!slots.has(key)) slots.set(key, key.create());
      return slots.get(key) as T;
    },
  };
}
