#!/usr/bin/env node
// A CommonJS file (bin/package.json says so): Node starts a CommonJS main
// several milliseconds sooner than an ES module one, so `--version` and
// `--help` are answered here, from dist/answers.cjs (the build's version and
// help text), and every other command loads the bundle's ES module entry.
"use strict";
const argv = process.argv.slice(2);
const only = argv.length === 1 ? argv[0] : undefined;
if (only === "--version" || only === "-V") {
  process.stdout.write(`yuj ${require("../dist/answers.cjs").VERSION}\n`);
} else if (only === "--help" || only === "-h" || only === "help") {
  process.stdout.write(require("../dist/answers.cjs").HELP);
} else {
  import("../dist/yuj.js");
}
