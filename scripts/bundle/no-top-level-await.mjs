// The bundle's chunks are also written as CommonJS (see cjs-chunks.mjs), which
// cannot hold a top-level `await`. Only Ink's chunk has any, and none needs to:
// - yoga-layout awaits its WebAssembly instance. Emscripten's loader takes an
//   `instantiateWasm` hook; here the loader's own call of it is made to
//   instantiate the embedded binary synchronously (WebAssembly.Module and
//   Instance are synchronous in Node for any size), so the module object is
//   ready when the factory returns, and yoga's index uses it at once.
// - Ink's reconciler awaits React's devtools and its package.json only when
//   DEV=true; yuj does not bundle the devtools (react-devtools-core is not a
//   dependency), so that import fails as it did before, with Ink's warning.
import { readFile } from "node:fs/promises";

const YOGA_WASM = /[\\/]node_modules[\\/]yoga-layout[\\/]dist[\\/]binaries[\\/]yoga-wasm-base64-esm\.js$/;
const YOGA_INDEX = /[\\/]node_modules[\\/]yoga-layout[\\/]dist[\\/]src[\\/]index\.js$/;
const INK_RECONCILER = /[\\/]node_modules[\\/]ink[\\/]build[\\/]reconciler\.js$/;

// `a` is Emscripten's receiveInstance, `d` the imports, `wa()` the binary's bytes.
const HOOK = "if(h.instantiateWasm)try{return h.instantiateWasm(d,\na)}";
const SYNC = "try{return a(new WebAssembly.Instance(new WebAssembly.Module(wa()),d)),{}}";

const YOGA_SYNC_INDEX = `import loadYoga from "../binaries/yoga-wasm-base64-esm.js";
import wrapAssembly from "./wrapAssembly.js";
const instance = {};
loadYoga(instance).catch(() => {});
if (!instance.asm) throw new Error("yoga-layout did not instantiate synchronously");
const Yoga = wrapAssembly(instance);
export default Yoga;
export * from "./generated/YGEnums.js";
`;

const INK_REPLACEMENTS = [
  ["await import('./devtools.js');", "throw Object.assign(new Error(\"react-devtools-core is not bundled\"), { code: 'ERR_MODULE_NOT_FOUND' });"],
  ["? await loadPackageJson()", "? { name: 'ink', version: undefined }"],
];

function replaceOnce(source, from, to, file) {
  const at = source.indexOf(from);
  if (at < 0 || source.indexOf(from, at + 1) >= 0) throw new Error(`no-top-level-await: ${file} no longer has exactly one ${from}`);
  return source.slice(0, at) + to + source.slice(at + from.length);
}

export function noTopLevelAwait() {
  return {
    name: "no-top-level-await",
    setup(b) {
      b.onLoad({ filter: YOGA_WASM }, async (args) => ({
        contents: replaceOnce(await readFile(args.path, "utf8"), HOOK, SYNC, args.path),
        loader: "js",
      }));
      b.onLoad({ filter: YOGA_INDEX }, () => ({ contents: YOGA_SYNC_INDEX, loader: "js" }));
      b.onLoad({ filter: INK_RECONCILER }, async (args) => {
        let source = await readFile(args.path, "utf8");
        for (const [from, to] of INK_REPLACEMENTS) source = replaceOnce(source, from, to, args.path);
        return { contents: source, loader: "js" };
      });
    },
  };
}
