// An operating-system error as the model reads it: node's message without
// the absolute path it names (`EROFS: read-only file system, open
// '/abs/.file.1.tmp'` → `EROFS: read-only file system`). The caller says
// which file failed, by the path the model gave; the temporary name and the
// host's absolute path tell it nothing it can act on.

export function fsErrorText(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.replace(/, [a-z]+ '[^]*$/, "");
}
