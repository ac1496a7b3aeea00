// The one size limit of the file tools: a tool that must hold a whole file in
// memory (to edit it, patch it, or show all of it) refuses a larger one before
// reading a byte of it, and says what to use instead. Paged reads and grep
// stream, so they have no such limit.

export const MAX_LOADED_FILE_BYTES = 50 * 1024 * 1024;

export const tooLarge = (size: number): boolean => size > MAX_LOADED_FILE_BYTES;

/** "(N bytes, max M)", the part every refusal shares. */
export const sizeAndLimit = (size: number): string => `(${size} bytes, max ${MAX_LOADED_FILE_BYTES})`;

/** The Yuj tools' refusal to load a file for a change. */
export const tooLargeToChange = (verb: string, shown: string) => (size: number): string =>
  `ERROR: cannot ${verb} ${shown}: the file is too large ${sizeAndLimit(size)} to load for a change; ` +
  "change it with bash (sed, or a script that streams it) instead";
