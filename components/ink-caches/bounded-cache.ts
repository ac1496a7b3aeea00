// A Map that forgets its least recently used entries past a size. Ink keys
// its text measurements by the whole text of a node; in a session that
// streams for hours every frame's text is new, so an unbounded cache grows
// with time rather than with what is on screen.

export interface BoundedCache<V> {
  get(key: string): V | undefined;
  set(key: string, value: V): void;
  readonly size: number;
}

export function boundedCache<V>(limit: number): BoundedCache<V> {
  const map = new Map<string, V>();
  return {
    get(key) {
      const value = map.get(key);
      if (value === undefined) return undefined;
      // Re-inserting moves the key to the young end of the insertion order.
      map.delete(key);
      map.set(key, value);
      return value;
    },
    set(key, value) {
      map.delete(key);
      map.set(key, value);
      if (map.size > limit) map.delete(map.keys().next().value as string);
    },
    get size() {
      return map.size;
    },
  };
}
