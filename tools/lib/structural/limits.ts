// Limits shared by the directory searches; a module of its own so the search
// workers, which need only this, load nothing else with it.

/** A directory search skips files larger than this (minified bundles, generated code). */
export const MAX_SEARCHED_FILE_BYTES = 2 * 1024 * 1024;
