// What Chord's `grep` and `glob` never list, whatever the ignore files say:
// folders that hold version control, caches, virtual environments and build
// output, and (for grep) files whose extension says they are not text. Other
// dot folders (.github, .vscode, .config) are searched like any folder.

/** Folder names left out at any depth. */
export const SKIPPED_DIRS: readonly string[] = [
  ".git", ".svn", ".hg", ".bzr", ".jj", ".sl",
  "__pycache__", ".mypy_cache", ".pytest_cache", ".ruff_cache", ".pyre", ".pytype",
  ".venv", "venv", "env", "node_modules",
  "dist", "build", "target", "out", ".cache", ".idea",
];

/**
 * Extensions (the last one, any case) of files grep does not open: compiled
 * code, libraries, archives, databases, raster images, audio, video, fonts,
 * office documents and git packs. SVG is text and stays searchable.
 */
const BINARY_EXTENSIONS: readonly string[] = [
  "pyc", "pyo", "pyd", "class", "o", "obj", "a", "lib", "node", "wasm",
  "so", "dylib", "dll", "exe", "out", "bin",
  "zip", "tar", "tgz", "gz", "bz2", "tbz", "xz", "txz", "7z", "rar", "jar", "war", "ear", "apk", "ipa", "dmg", "iso", "whl", "egg",
  "db", "sqlite", "sqlite3", "mdb", "dbf",
  "png", "jpg", "jpeg", "gif", "bmp", "tiff", "tif", "webp", "ico", "heic", "heif", "avif", "psd", "ai", "raw",
  "mp3", "wav", "flac", "ogg", "m4a", "aac", "opus",
  "mp4", "mov", "avi", "mkv", "webm", "flv", "wmv", "m4v",
  "ttf", "otf", "woff", "woff2", "eot",
  "pdf", "doc", "docx", "xls", "xlsx", "ppt", "pptx", "odt", "ods", "odp",
  "pack", "idx", "blob",
];

/** Whether a file name's last extension (any case) marks it as not text: `archive.tar.gz` is, `icon.svg` is not. */
export function isBinaryExtension(name: string): boolean {
  const dot = name.lastIndexOf(".");
  return dot >= 0 && BINARY_EXTENSIONS.includes(name.slice(dot + 1).toLowerCase());
}

/** Each letter as a class of both cases, so one glob matches `.PYC` and `.pyc`. */
const anyCase = (s: string) => s.replace(/[a-z]/g, (c) => `[${c}${c.toUpperCase()}]`);

/**
 * ripgrep `--glob` exclusions for the folders and extensions above. They go
 * after the caller's own globs, so they win over an include.
 */
export const CHORD_GREP_EXCLUDES: readonly string[] = [
  ...SKIPPED_DIRS.map((d) => `!${d}`),
  ...BINARY_EXTENSIONS.map((e) => `!*.${anyCase(e)}`),
];
