// Bundles the CLI into dist/ with esbuild. Heavy modules (provider SDKs, later
// the TUI) are reached through dynamic import() and land in their own chunks,
// so `yuj --version` and a headless run load only what they use.
import { build, transformSync } from "esbuild";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { lazyUnicodeTables } from "./bundle/lazy-unicode-tables.mjs";
import { writeRegistry } from "./tool-registry.mjs";
import { writeCjsChunks } from "./bundle/cjs-chunks.mjs";
import { noTopLevelAwait } from "./bundle/no-top-level-await.mjs";

const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
rmSync(new URL("../dist", import.meta.url), { recursive: true, force: true });
// The handler list is found from the tool files before anything is bundled.
writeRegistry();

// The id under which a run keeps the tools' JSON Schemas: a hash of every
// source the schemas can come from (the handlers, core, the locked
// dependencies, zod among them). Another build of other sources gets another id.
function schemaBuildId() {
  return sourcesHash(["tools", "core"], [], /\.ts$/);
}

// The id a speculative request's template is kept under (core/providers/speculative-request.ts):
// every source the first request can come from, so another build never sends an older build's body.
function buildId() {
  return sourcesHash(["app", "components", "core", "tools", "scripts", "types"], ["package.json"], /\.(ts|tsx|js|mjs)$/);
}

function sourcesHash(dirs, extra, pattern) {
  const hash = createHash("sha256");
  const root = new URL("..", import.meta.url);
  const files = ["package-lock.json", ...extra];
  for (const dir of dirs) {
    for (const f of readdirSync(new URL(dir, root), { recursive: true })) if (pattern.test(f)) files.push(`${dir}/${f}`);
  }
  for (const f of files.sort()) hash.update(f).update("\0").update(readFileSync(new URL(f, root))).update("\0");
  return hash.digest("hex");
}

// What a run knows of each handler before loading its code (tools/describe-handlers.ts),
// found by running them: bundled alone into a file beside the dist folder, imported, removed.
async function describeHandlers() {
  const file = fileURLToPath(new URL("../dist/.describe-handlers.mjs", import.meta.url));
  await build({
    stdin: {
      contents: 'import { HANDLERS } from "./tools/registry.generated.ts"; import { describeHandler } from "./tools/describe-handlers.ts"; export const described = HANDLERS.map(describeHandler);',
      resolveDir: fileURLToPath(new URL("..", import.meta.url)),
      loader: "ts",
    },
    outfile: file,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    external: ["@vscode/ripgrep", "@lydell/node-pty", "react-devtools-core", "sharp"],
    alias: { "jsonc-parser": "./node_modules/jsonc-parser/lib/esm/main.js" },
    banner: { js: BANNER },
    logLevel: "warning",
  });
  try {
    return (await import(pathToFileURL(file).href)).described;
  } finally {
    rmSync(file, { force: true });
  }
}

// Every chunk's own `require`, for the CommonJS modules bundled into it.
const BANNER = "import { createRequire as __yujCreateRequire } from 'node:module'; const require = __yujCreateRequire(import.meta.url);";

const described = await describeHandlers();
await build({
  // The structural search's worker threads run their own entry; nothing
  // loads it unless a large directory search starts them.
  entryPoints: { yuj: "app/cli.ts", "structural-worker": "tools/lib/structural/scan-worker.ts" },
  outdir: "dist",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  sourcemap: "linked",
  legalComments: "none",
  // ripgrep resolves its bundled rg binary relative to its own files; node-pty
  // is a native module (a .node binary found beside its own files), and so is
  // sharp (libvips, loaded by view_image only). bmp-ts is plain JS and is
  // bundled into view_image's lazy chunk.
  external: ["@vscode/ripgrep", "@lydell/node-pty", "react-devtools-core", "sharp"],
  // jsonc-parser's "main" is a UMD build whose relative require()s esbuild
  // cannot follow; its ES module build bundles cleanly.
  alias: { "jsonc-parser": "./node_modules/jsonc-parser/lib/esm/main.js" },
  // React's production build: the development one records a performance
  // measure per commit (never freed) and deep-compares props.
  define: {
    YUJ_VERSION: JSON.stringify(pkg.version),
    YUJ_SCHEMA_BUILD: JSON.stringify(schemaBuildId()),
    YUJ_BUILD_ID: JSON.stringify(buildId()),
    YUJ_TOOL_HANDLERS: JSON.stringify(described),
    "process.env.NODE_ENV": JSON.stringify("production"),
  },
  banner: { js: BANNER },
  plugins: [boundedInkCaches(), fewerGrammars(), englishOnlyZod(), lazyUnicodeTables(), noTopLevelAwait()],
  logLevel: "warning",
});
writeCjsChunks(new URL("../dist/", import.meta.url), BANNER);
writeAnswers();

// What bin/yuj.js (CommonJS) answers by itself: the version and the help
// text, as a CommonJS module, so neither loads the ES module bundle.
function writeAnswers() {
  const help = transformSync(readFileSync(new URL("../app/help.ts", import.meta.url), "utf8"), { loader: "ts", format: "cjs", logLevel: "error" });
  const module = { exports: {} };
  new Function("module", "exports", help.code)(module, module.exports);
  const text = `"use strict";\nexports.VERSION = ${JSON.stringify(pkg.version)};\nexports.HELP = ${JSON.stringify(module.exports.HELP)};\n`;
  writeFileSync(new URL("../dist/answers.cjs", import.meta.url), text);
}

// Ink keeps every text it ever measured or wrapped in two module-level caches
// that never evict; in a long session that is memory growing with time. Its
// two small modules are swapped for ours (components/ink-caches/), which do
// the same work with bounded caches. Its frame grid (output.js) and the text
// measure its painter calls (widest-line) start from nothing every frame; they
// are swapped for ones that keep what did not change across frames.
function boundedInkCaches() {
  const ours = (name) => fileURLToPath(new URL(`../components/ink-caches/${name}.ts`, import.meta.url));
  const fromInk = (args) => /[\\/]ink[\\/]build[\\/]/.test(args.importer);
  return {
    name: "bounded-ink-caches",
    setup(b) {
      b.onResolve({ filter: /^\.\/(measure-text|wrap-text|output)\.js$/ }, (args) =>
        fromInk(args) ? { path: ours(args.path.slice(2, -3)) } : undefined,
      );
      b.onResolve({ filter: /^widest-line$/ }, (args) => (fromInk(args) ? { path: ours("widest-line") } : undefined));
    },
  };
}

// cli-highlight requires all of highlight.js (190 grammars, built at load);
// it gets the core with the common grammars instead (see the module).
function fewerGrammars() {
  const subset = fileURLToPath(new URL("../components/cards/highlight-languages.ts", import.meta.url));
  return {
    name: "fewer-grammars",
    setup(b) {
      b.onResolve({ filter: /^highlight\.js$/ }, (args) =>
        /[\\/]cli-highlight[\\/]/.test(args.importer) ? { path: subset } : undefined,
      );
    },
  };
}

// zod exports every locale through one index, half of its size; yuj only
// uses English (see the module).
function englishOnlyZod() {
  const stub = fileURLToPath(new URL("./bundle/zod-locales.js", import.meta.url));
  return {
    name: "english-only-zod",
    setup(b) {
      b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
        /[\\/]zod[\\/]v4[\\/](classic|core)[\\/]/.test(args.importer) ? { path: stub } : undefined,
      );
    },
  };
}
