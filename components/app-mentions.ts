// The files an `@` mention can complete to: the project's list is read once,
// the first time a mention is typed, then ranked against each query.

import { useCallback, useEffect, useRef, useState } from "react";
import { rankFiles } from "../core/project-files.js";

/** Choices listed above the composer. */
const MENTION_CHOICES = 6;

export interface MentionState {
  /** The ranked files for the mention at the cursor (none while a `:N` suffix is typed). */
  choices: readonly string[];
  /** The same ranking for any query: the composer completes with its first. */
  choicesFor(query: string): readonly string[];
  /** The composer reports the mention at its cursor here. */
  onMention(query: string | undefined): void;
}

export function useMentions(listFiles: (() => Promise<readonly string[]>) | undefined): MentionState {
  const [query, setQuery] = useState<string | undefined>(undefined);
  const files = useRef<readonly string[] | undefined>(undefined);
  const [, setLoaded] = useState(0);
  const loading = useRef(false);
  useEffect(() => {
    if (query === undefined || !listFiles || loading.current) return;
    loading.current = true;
    void listFiles().then((list) => {
      files.current = list;
      setLoaded((n) => n + 1);
    });
  }, [query, listFiles]);
  const choicesFor = useCallback((q: string) => (files.current && !q.includes(":") ? rankFiles(files.current, q, MENTION_CHOICES) : []), []);
  return { choices: query === undefined ? [] : choicesFor(query), choicesFor, onMention: setQuery };
}
