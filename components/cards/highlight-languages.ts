// highlight.js as code blocks in the transcript use it: the core and the
// grammars people paste and models write, not all 190. cli-highlight (inside
// marked-terminal) requires "highlight.js"; the bundle aliases that name to
// this module (scripts/build.mjs). The full set costs about 2 MB of source
// and several MB of heap, builds every grammar at load, and would only
// matter for a fence naming a rare language, which then shows unhighlighted.

/// <reference types="highlight.js" />
import hljs from "highlight.js/lib/core";
import bash from "highlight.js/lib/languages/bash";
import c from "highlight.js/lib/languages/c";
import cpp from "highlight.js/lib/languages/cpp";
import csharp from "highlight.js/lib/languages/csharp";
import css from "highlight.js/lib/languages/css";
import diff from "highlight.js/lib/languages/diff";
import dockerfile from "highlight.js/lib/languages/dockerfile";
import elixir from "highlight.js/lib/languages/elixir";
import go from "highlight.js/lib/languages/go";
import haskell from "highlight.js/lib/languages/haskell";
import ini from "highlight.js/lib/languages/ini";
import java from "highlight.js/lib/languages/java";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import kotlin from "highlight.js/lib/languages/kotlin";
import lua from "highlight.js/lib/languages/lua";
import makefile from "highlight.js/lib/languages/makefile";
import markdown from "highlight.js/lib/languages/markdown";
import ocaml from "highlight.js/lib/languages/ocaml";
import perl from "highlight.js/lib/languages/perl";
import php from "highlight.js/lib/languages/php";
import plaintext from "highlight.js/lib/languages/plaintext";
import powershell from "highlight.js/lib/languages/powershell";
import python from "highlight.js/lib/languages/python";
import r from "highlight.js/lib/languages/r";
import ruby from "highlight.js/lib/languages/ruby";
import rust from "highlight.js/lib/languages/rust";
import scala from "highlight.js/lib/languages/scala";
import scss from "highlight.js/lib/languages/scss";
import shell from "highlight.js/lib/languages/shell";
import sql from "highlight.js/lib/languages/sql";
import swift from "highlight.js/lib/languages/swift";
import typescript from "highlight.js/lib/languages/typescript";
import xml from "highlight.js/lib/languages/xml";
import yaml from "highlight.js/lib/languages/yaml";

const grammars = {
  bash, c, cpp, csharp, css, diff, dockerfile, elixir, go, haskell, ini, java, javascript, json, kotlin,
  lua, makefile, markdown, ocaml, perl, php, plaintext, powershell, python, r, ruby, rust, scala, scss, shell, sql,
  swift, typescript, xml, yaml,
};
for (const [name, grammar] of Object.entries(grammars)) hljs.registerLanguage(name, grammar);

// cli-highlight reads these four through `import * as hljs`.
export const highlight = hljs.highlight.bind(hljs);
export const highlightAuto = hljs.highlightAuto.bind(hljs);
export const listLanguages = hljs.listLanguages.bind(hljs);
export const getLanguage = hljs.getLanguage.bind(hljs);
export default hljs;
