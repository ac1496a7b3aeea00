// The key a delegation is compared by when the caller gave no
// semantic_task_key: the description's opening words, lower-cased, without
// punctuation. Two wordings of one deliverable usually share it, but so may
// two different tasks with one preamble, so a match is only a probable
// duplicate (a hint on a started task), never a refusal.

/** How many opening words the derived key keeps. */
const KEY_WORDS = 12;

export function derivedTaskKey(description: string): string {
  const words = description
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]+/gu, " ")
    .split(/\s+/)
    .filter((w) => w !== "");
  return words.slice(0, KEY_WORDS).join(" ");
}
