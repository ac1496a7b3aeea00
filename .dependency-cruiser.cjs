// The architecture, as rules on imports. `npm run lint:deps` checks them, and
// so does `npm test` (test/import-rules.test.ts): a change that breaks one
// fails CI.
//
// Operations in, events out. The layers, and which way they may point:
//
//   core/        the headless engine: the model loop, the session controller,
//                the permission engine, jobs, the sandbox, providers, config,
//                the event and operation schemas and the pure reducer. It
//                knows nothing of how it is shown or which tools exist, so it
//                runs the same under the TUI, headless and in tests.
//   tools/       one handler per tool, and the guards that wrap them. They
//                use core's types and services; they never render anything.
//   components/  the Ink view: it renders the state core's reducer builds
//                from events, and sends operations back. It never runs a
//                tool or reaches into the CLI.
//   app/         the CLI: it composes core, tools and components into
//                commands. Nothing imports app/.
//
// test/, bench/ and scripts/ may import anything.

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "core-stays-headless",
      comment:
        "core/ imports none of app/, components/ or tools/: tools and front ends plug into core through " +
        "its types and injected services (core/services.ts, core/tool-types.ts), never the other way round.",
      severity: "error",
      from: { path: "^core/" },
      to: { path: "^(app|components|tools)/" },
    },
    {
      name: "core-without-ui-libraries",
      comment: "core/ imports neither ink nor react: it runs without a terminal UI (headless, scripts, tests).",
      severity: "error",
      from: { path: "^core/" },
      to: { path: "(^|/)node_modules/(ink|ink-[^/]+|react|react-[^/]+)/" },
    },
    {
      name: "tools-without-view-or-cli",
      comment:
        "tools/ import neither components/ nor app/: a tool returns its result as data (for the model and " +
        "for the view), and core's reducer and the view decide how it looks.",
      severity: "error",
      from: { path: "^tools/" },
      to: { path: "^(app|components)/" },
    },
    {
      name: "tools-without-ui-libraries",
      comment: "tools/ import neither ink nor react, for the same reason.",
      severity: "error",
      from: { path: "^tools/" },
      to: { path: "(^|/)node_modules/(ink|ink-[^/]+|react|react-[^/]+)/" },
    },
    {
      name: "components-without-tools-or-cli",
      comment:
        "components/ import neither tools/ nor app/: the view renders events and state from core and " +
        "submits operations to the session controller; app/ hands it what it needs as props.",
      severity: "error",
      from: { path: "^components/" },
      to: { path: "^(app|tools)/" },
    },
    {
      name: "nothing-imports-the-cli",
      comment: "app/ composes everything and is composed by nothing but its own files (and tests).",
      severity: "error",
      from: { path: "^(core|tools|components)/" },
      to: { path: "^app/" },
    },
    {
      name: "every-import-resolves",
      comment:
        "An import the checker cannot resolve is one it cannot judge either: it must resolve (a typo'd " +
        "path or a package not installed fails here rather than slipping past the rules above).",
      severity: "error",
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    // Type-only imports count: a layer that needs another's types depends on it.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    doNotFollow: { path: "(^|/)node_modules/" },
    exclude: { path: "^dist/" },
    // Packages are resolved as Node resolves them: through package.json's
    // "exports" (ink has no "main").
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json"],
      conditionNames: ["import", "require", "node", "default"],
      mainFields: ["module", "main", "types", "typings"],
    },
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
