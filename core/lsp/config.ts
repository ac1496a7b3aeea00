// The [lsp] settings and the language servers yuj knows without being told.
//
// [lsp.servers.NAME] entries merge field by field over the built-in servers
// of the same name, so `[lsp.servers.pyright] enabled = false` turns one off
// and `root_markers = [...]` changes only that. A name yuj does not know must
// give a command and at least one file extension or language id; any server
// that speaks the Language Server Protocol over stdio works.

import * as path from "node:path";
import { z } from "zod";

const posInt = z.number().int().positive();

/** A command written as one string (`"pyright --stdio"`, as the reference accepts) is its words. */
const commandWords = (v: unknown) => (typeof v === "string" ? v.trim().split(/\s+/).filter(Boolean) : v);
/** A list of one written as its only entry (`root_markers = "pyproject.toml"`). */
const listOfOne = (v: unknown) => (typeof v === "string" ? [v] : v);

const serverEntry = z.strictObject({
  /** Argument vector; a bare program name is looked up in yuj's own node_modules/.bin, then on PATH. */
  command: z.preprocess(commandWords, z.array(z.string().min(1)).min(1)).optional(),
  /** File extensions it serves, with or without the dot (".ts", "py"), any case. */
  extensions: z.preprocess(listOfOne, z.array(z.string())).optional(),
  /** LSP language ids it serves ("typescript", "python"); a file's id comes from its extension. */
  languages: z.array(z.string()).optional(),
  /** Files or directories whose presence marks a project root; the nearest one above the file wins. */
  root_markers: z.preprocess(listOfOne, z.array(z.string())).optional(),
  /** Sent as initializationOptions in the initialize request. */
  initialization_options: z.record(z.string(), z.unknown()).optional(),
  enabled: z.boolean().default(true),
});

export type LspServerEntry = z.infer<typeof serverEntry>;

/** A server with every field settled: built-in values, then the user's. */
export interface LspServerConfig {
  name: string;
  command: string[];
  /** Lower case, with the dot. */
  extensions: string[];
  languages: string[];
  rootMarkers: string[];
  initializationOptions: Record<string, unknown>;
}

const TS_EXTENSIONS = [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"];

const BUILTIN_SERVERS: Readonly<Record<string, Omit<LspServerConfig, "name">>> = {
  typescript: {
    command: ["typescript-language-server", "--stdio"],
    extensions: TS_EXTENSIONS,
    languages: ["typescript", "typescriptreact", "javascript", "javascriptreact"],
    rootMarkers: ["tsconfig.json", "jsconfig.json", "package.json"],
    // Its default answers requests from a syntax-only server while the
    // project loads: a definition then stops at the import, references at
    // the file. The full server waits for the project and answers whole.
    initializationOptions: { tsserver: { useSyntaxServer: "never" } },
  },
  pyright: {
    command: ["pyright-langserver", "--stdio"],
    extensions: [".py", ".pyi"],
    languages: ["python"],
    rootMarkers: ["pyrightconfig.json", "pyproject.toml", "setup.py", "setup.cfg", "requirements.txt"],
    initializationOptions: {},
  },
};

const servers = z
  .record(z.string(), serverEntry)
  .superRefine((entries, ctx) => {
    for (const [name, entry] of Object.entries(entries)) {
      if (Object.hasOwn(BUILTIN_SERVERS, name) || !entry.enabled) continue;
      if (entry.command === undefined) ctx.addIssue({ code: "custom", path: [name, "command"], message: "a command is required" });
      if (!entry.extensions?.length && !entry.languages?.length) {
        ctx.addIssue({ code: "custom", path: [name, "languages"], message: "name file extensions or language ids" });
      }
    }
    // A file goes to one server: an extension two of them claim is a mistake to name, not a tie to break.
    const owner = new Map<string, string>();
    for (const server of effectiveServers(entries)) {
      for (const ext of server.extensions) {
        const first = owner.get(ext);
        if (first === undefined) owner.set(ext, server.name);
        else {
          ctx.addIssue({
            code: "custom",
            path: [server.name, "extensions"],
            params: { acrossKeys: true },
            message: `lsp.servers.${server.name}.extensions: extension ${ext} belongs to both ${first} and ${server.name}; give it to one of them (enabled = false turns a server off)`,
          });
        }
      }
    }
  })
  .default({});

const SEVERITIES = ["error", "warning", "information", "hint"] as const;
export type SeverityName = (typeof SEVERITIES)[number];

export const lspSection = z
  .strictObject({
    /** Add the diagnostics of an edited file to the edit's result. */
    enabled: z.boolean().default(false),
    /** Expose the lsp tool (definition, references, document symbols). */
    tool_enabled: z.boolean().default(false),
    /** The least severe diagnostic the model is shown. */
    severity: z.enum(SEVERITIES).default("error"),
    /** How long an edit waits for its diagnostics, and the lsp tool for an answer (a server's start included). */
    timeout_s: posInt.default(20),
    /** A server unused this long is stopped; the next use starts it again. */
    idle_timeout_s: posInt.default(600),
    servers,
  })
  .prefault(() => ({}) as never);

export type LspSettings = z.infer<typeof lspSection>;

const normExt = (e: string) => (e.startsWith(".") ? e : `.${e}`).toLowerCase();

/** The enabled servers: built-ins merged with the user's entries, in name order. */
export function effectiveServers(entries: Record<string, LspServerEntry>): LspServerConfig[] {
  const names = new Set([...Object.keys(BUILTIN_SERVERS), ...Object.keys(entries)]);
  const out: LspServerConfig[] = [];
  for (const name of [...names].sort()) {
    const user = entries[name];
    if (user && !user.enabled) continue;
    const base = Object.hasOwn(BUILTIN_SERVERS, name) ? BUILTIN_SERVERS[name] : undefined;
    const command = user?.command ?? base?.command;
    if (!command) continue;
    out.push({
      name,
      command: [...command],
      extensions: (user?.extensions ?? base?.extensions ?? []).map(normExt),
      languages: [...(user?.languages ?? base?.languages ?? [])],
      rootMarkers: [...(user?.root_markers ?? base?.rootMarkers ?? [])],
      initializationOptions: { ...(user?.initialization_options ?? base?.initializationOptions ?? {}) },
    });
  }
  return out;
}

/** The LSP language id of a file, from its extension; undefined when yuj does not know it. */
function languageIdOf(file: string): string | undefined {
  return LANGUAGE_IDS[path.extname(file).toLowerCase()];
}

const LANGUAGE_IDS: Record<string, string> = {
  ".ts": "typescript",
  ".mts": "typescript",
  ".cts": "typescript",
  ".tsx": "typescriptreact",
  ".js": "javascript",
  ".mjs": "javascript",
  ".cjs": "javascript",
  ".jsx": "javascriptreact",
  ".py": "python",
  ".pyi": "python",
  ".go": "go",
  ".rs": "rust",
  ".java": "java",
  ".c": "c",
  ".h": "c",
  ".cc": "cpp",
  ".cpp": "cpp",
  ".cxx": "cpp",
  ".hpp": "cpp",
  ".rb": "ruby",
  ".php": "php",
  ".cs": "csharp",
  ".kt": "kotlin",
  ".swift": "swift",
  ".lua": "lua",
  ".sh": "shellscript",
  ".bash": "shellscript",
  ".json": "json",
  ".css": "css",
  ".html": "html",
  ".vue": "vue",
  ".svelte": "svelte",
  ".zig": "zig",
};

/** The server for a file (by extension, then language id) and the language id to open it with. */
export function serverForFile(
  servers: readonly LspServerConfig[],
  file: string,
): { server: LspServerConfig; languageId: string } | undefined {
  const ext = path.extname(file).toLowerCase();
  const known = languageIdOf(file);
  for (const server of servers) {
    if (ext !== "" && server.extensions.includes(ext)) return { server, languageId: known ?? server.languages[0] ?? ext.slice(1) };
  }
  if (known === undefined) return undefined;
  const server = servers.find((s) => s.languages.includes(known));
  return server ? { server, languageId: known } : undefined;
}
