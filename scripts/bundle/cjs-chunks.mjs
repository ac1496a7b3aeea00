// Node 20's ES module loader compiles every chunk from its source at every
// start: it takes no V8 code cache. After the ES module build, each chunk is
// rewritten as a CommonJS-style function body (dist/cjs/) that
// dist/chunk-loader.js compiles through vm.Script with V8's cached data kept
// on disk (see that module). The ES module chunks stay: the structural
// search's worker entry imports them.
import { transformSync } from "esbuild";
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

// Chunks that must stay ES modules, and are never loaded through the loader.
const ENTRIES = new Set(["yuj.js", "structural-worker.js"]);

/**
 * Writes dist/cjs/<chunk> for every chunk, the loader, and points the entry's
 * import() of the run's chunks at the loader. `banner` is the text the ES module build
 * put at the top of every chunk (its `require`); the loader gives its own.
 */
export function writeCjsChunks(distUrl, banner) {
  const dist = fileURLToPath(distUrl);
  const chunks = readdirSync(dist).filter((f) => f.endsWith(".js") && !ENTRIES.has(f));
  mkdirSync(`${dist}/cjs`, { recursive: true });
  const hash = createHash("sha256").update(process.version);
  for (const name of chunks.sort()) {
    const code = convert(readFileSync(`${dist}/${name}`, "utf8"), banner, name);
    writeFileSync(`${dist}/cjs/${name}`, code);
    hash.update(name).update("\0").update(code).update("\0");
  }
  const loader = readFileSync(new URL("./chunk-loader.js", import.meta.url), "utf8")
    .replace('"__CHUNKS__"', JSON.stringify(chunks))
    .replace('"__BUILD__"', JSON.stringify(hash.digest("hex").slice(0, 16)));
  writeFileSync(`${dist}/chunk-loader.js`, loader);
  // The run's chunks (main, and zod-jitless which must set zod's option on the
  // same zod the CommonJS chunks use) go through the loader; `--help` prints one
  // string, and loading the loader (vm, zlib) would cost it more than compiling it.
  const entry = readFileSync(`${dist}/yuj.js`, "utf8");
  const viaLoader = /\bimport\("\.\/((?:main|zod-jitless)-[A-Z0-9]+\.js)"\)/g;
  const routed = entry.replace(viaLoader, (_, chunk) => `import("./chunk-loader.js").then((l) => l.load("./${chunk}"))`);
  if (!/l\.load\("\.\/main-/.test(routed)) throw new Error("dist/yuj.js: no import() of the main chunk to point at the loader");
  writeFileSync(`${dist}/yuj.js`, routed);
}

function convert(source, banner, name) {
  if (!source.startsWith(banner)) throw new Error(`${name}: the chunk does not start with the build's banner`);
  // A bare specifier's import() stays a real import() (made by the loader, an
  // ES module in dist/): Node's ES module view of a CommonJS package is kept.
  const body = source
    .slice(banner.length)
    .replace(/\bimport\("([^".][^"]*)"\)/g, (_, id) => `__yujImport(${JSON.stringify(id)})`)
    .replace(/\bimport\.meta\.url\b/g, "__yujMetaUrl")
    .replace(/\n\/\/# sourceMappingURL=.*\s*$/, "\n");
  const out = transformSync(body, {
    format: "cjs",
    platform: "node",
    target: "node20",
    // A chunk's import() of another chunk becomes the loader's require.
    supported: { "dynamic-import": false },
    legalComments: "none",
    logLevel: "error",
  });
  return out.code;
}
