// notebook_edit on real notebooks in a temp directory. Every success is
// checked byte for byte against an expectation built without the tool's
// parser: the original file split around the literal text of the old source
// value, with the literal text of the new value put in between. Every failure
// must leave the file's bytes exactly as they were.

import * as fsp from "node:fs/promises";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { notebookEditTool } from "../../tools/yuj/notebook_edit.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";
import { guardedSession, type GuardedSession } from "../guards/session.js";

const FIXTURES = path.join(import.meta.dirname, "..", "..", "fixtures", "notebooks");
const fixture = (name: string): string => readFileSync(path.join(FIXTURES, name), "utf8");

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
});
afterEach(() => t.cleanup());

type Args = { old_source: string; new_source: string; cell_index?: number; cell_id?: string };
const edit = (args: Args, p = "nb.ipynb") => notebookEditTool.run({ path: p, ...args }, t.ctx);
const bytesOf = (p = "nb.ipynb") => fsp.readFile(path.join(t.cwd, p));

/** The original with its one occurrence of `oldValue` replaced by `newValue`. */
function spliced(original: string, oldValue: string, newValue: string): string {
  const at = original.indexOf(oldValue);
  expect(at, "old value is in the fixture").toBeGreaterThanOrEqual(0);
  expect(original.indexOf(oldValue, at + 1), "old value is unique in the fixture").toBe(-1);
  return original.slice(0, at) + newValue + original.slice(at + oldValue.length);
}

/** The notebook as Jupyter loads it, sources joined. */
function load(text: string): { cells: Array<Record<string, unknown>> } & Record<string, unknown> {
  const nb = JSON.parse(text.replace(/^\ufeff/, ""));
  for (const c of nb.cells) if (Array.isArray(c.source)) c.source = c.source.join("");
  return nb;
}

/** Puts `original`, runs the edit, and checks the bytes and the loaded notebook. */
async function expectEdit(original: string, args: Args, oldValue: string, newValue: string, index: number) {
  await t.put({ "nb.ipynb": original });
  const r = await edit(args);
  expect(r.ok, r.modelText).toBe(true);
  const expected = spliced(original, oldValue, newValue);
  expect((await bytesOf()).toString("utf8")).toBe(expected);
  expect(Buffer.compare(await bytesOf(), Buffer.from(expected, "utf8"))).toBe(0);
  // Independently of the bytes: only that cell's source changed, to new_source.
  const before = load(original);
  const after = load(expected);
  expect(after.cells[index]!.source).toBe(args.new_source);
  before.cells[index]!.source = args.new_source;
  expect(after).toEqual(before);
  return r;
}

describe("notebook_edit: array sources (Jupyter's own layout)", () => {
  const nb = fixture("analysis.ipynb");

  it("replaces a cell selected by index, last line without newline, and reports the cell", async () => {
    const r = await expectEdit(
      nb,
      { cell_index: 1, old_source: "import pandas as pd\nimport matplotlib.pyplot as plt\n\n%matplotlib inline", new_source: "import pandas as pd\nimport numpy as np\n%matplotlib inline" },
      '"source": [\n    "import pandas as pd\\n",\n    "import matplotlib.pyplot as plt\\n",\n    "\\n",\n    "%matplotlib inline"\n   ]',
      '"source": [\n    "import pandas as pd\\n",\n    "import numpy as np\\n",\n    "%matplotlib inline"\n   ]',
      1,
    );
    expect(r.modelText).toBe("OK: updated code cell id='a1b2c3d4' in nb.ipynb");
    expect(r.display).toEqual({
      kind: "diff",
      files: [
        {
          path: 'nb.ipynb cell 1 (id "a1b2c3d4")',
          op: "update",
          hunks: "@@ -1,4 +1,3 @@\n import pandas as pd\n-import matplotlib.pyplot as plt\n-\n+import numpy as np\n %matplotlib inline",
        },
      ],
      note: "OK: updated code cell id='a1b2c3d4' in nb.ipynb",
    });
  });

  it("selects by id; escapes like Jupyter and writes non-ASCII as is", async () => {
    const old = '## Notes\n\n* tabs\tand "quotes" and back\\slashes\n* done ✓';
    const r = await expectEdit(
      nb,
      { cell_id: "c0ffee00", old_source: old, new_source: '## Notes\n\n* a naïve "take" ✓\t\\n\n' },
      '"source": [\n    "## Notes\\n",\n    "\\n",\n    "* tabs\\tand \\"quotes\\" and back\\\\slashes\\n",\n    "* done ✓"\n   ]',
      '"source": [\n    "## Notes\\n",\n    "\\n",\n    "* a naïve \\"take\\" ✓\\t\\\\n\\n"\n   ]',
      6,
    );
    expect(r.modelText).toBe("OK: updated markdown cell id='c0ffee00' in nb.ipynb");
  });

  it("keeps attachments, outputs and metadata of the edited cell", async () => {
    const old = "# Sales analysis\n\nA naïve first look at the 2023 numbers ✓\n\n![logo.png](attachment:logo.png)";
    await expectEdit(
      nb,
      { cell_id: "3f2a9c1e", old_source: old, new_source: "# Sales\n![logo.png](attachment:logo.png)" },
      '"source": [\n    "# Sales analysis\\n",\n    "\\n",\n    "A naïve first look at the 2023 numbers ✓\\n",\n    "\\n",\n    "![logo.png](attachment:logo.png)"\n   ]',
      '"source": [\n    "# Sales\\n",\n    "![logo.png](attachment:logo.png)"\n   ]',
      0,
    );
    const old3 = 'ax = df.plot(x="day", y="total")\nax.set_title("Total per day — naïve")\nplt.show()';
    await expectEdit(
      nb,
      { cell_index: 3, old_source: old3, new_source: "plt.show()" },
      '"source": [\n    "ax = df.plot(x=\\"day\\", y=\\"total\\")\\n",\n    "ax.set_title(\\"Total per day — naïve\\")\\n",\n    "plt.show()"\n   ]',
      '"source": [\n    "plt.show()"\n   ]',
      3,
    );
  });

  it("ends the array at a final newline without an empty element", async () => {
    await expectEdit(
      nb,
      { cell_id: "5e6f7a8b", old_source: 'df = pd.read_csv("sales.csv")\nprint(f"{len(df)} rows")\ndf.head(3)', new_source: "df.head(3)\n" },
      '"source": [\n    "df = pd.read_csv(\\"sales.csv\\")\\n",\n    "print(f\\"{len(df)} rows\\")\\n",\n    "df.head(3)"\n   ]',
      '"source": [\n    "df.head(3)\\n"\n   ]',
      2,
    );
  });

  it("writes an empty source as [] and fills an empty cell with Jupyter's layout", async () => {
    await expectEdit(
      nb,
      { cell_index: 1, old_source: "import pandas as pd\nimport matplotlib.pyplot as plt\n\n%matplotlib inline", new_source: "" },
      '"source": [\n    "import pandas as pd\\n",\n    "import matplotlib.pyplot as plt\\n",\n    "\\n",\n    "%matplotlib inline"\n   ]',
      '"source": []',
      1,
    );
    // Cell 4 is empty (`"source": []`); the fixture has exactly one such cell.
    await expectEdit(
      nb,
      { cell_id: "0f1e2d3c", old_source: "", new_source: "x = 1\ny = 2" },
      '"id": "0f1e2d3c",\n   "metadata": {},\n   "outputs": [],\n   "source": []',
      '"id": "0f1e2d3c",\n   "metadata": {},\n   "outputs": [],\n   "source": [\n    "x = 1\\n",\n    "y = 2"\n   ]',
      4,
    );
  });

  it("splits lines the way nbformat does (Python splitlines, line ends kept)", async () => {
    await t.put({ "nb.ipynb": nb });
    expect((await edit({ cell_index: 4, old_source: "", new_source: "a\r\nb\rc\fd\n" })).ok).toBe(true);
    expect((await bytesOf()).toString("utf8")).toContain('"source": [\n    "a\\r\\n",\n    "b\\r",\n    "c\\f",\n    "d\\n"\n   ]');
  });

  it("leaves the file untouched (same bytes) when new_source equals the current source", async () => {
    await t.put({ "nb.ipynb": nb });
    const before = await bytesOf();
    const r = await edit({ cell_index: 4, old_source: "", new_source: "" });
    expect(r.modelText).toBe("OK: code cell id='0f1e2d3c' in nb.ipynb already has the requested source; no file change");
    expect(Buffer.compare(await bytesOf(), before)).toBe(0);
  });

  it("keeps the file mode", async () => {
    await t.put({ "nb.ipynb": nb });
    await fsp.chmod(path.join(t.cwd, "nb.ipynb"), 0o640);
    expect((await edit({ cell_index: 4, old_source: "", new_source: "1" })).ok).toBe(true);
    expect((await fsp.stat(path.join(t.cwd, "nb.ipynb"))).mode & 0o777).toBe(0o640);
  });
});

describe("notebook_edit: other writers' files", () => {
  it("keeps CRLF line endings, inside the new array too", async () => {
    const nb = fixture("windows-crlf.ipynb");
    expect(nb).toContain("\r\n");
    await expectEdit(
      nb,
      { cell_id: "d00d0003", old_source: "for name, p in prices.items():\n    print(name, p)\n", new_source: "for name in prices:\n    print(name)\nprint(\"fin ✓\")" },
      '"source": [\r\n    "for name, p in prices.items():\\n",\r\n    "    print(name, p)\\n"\r\n   ]',
      '"source": [\r\n    "for name in prices:\\n",\r\n    "    print(name)\\n",\r\n    "print(\\"fin ✓\\")"\r\n   ]',
      2,
    );
  });

  it("keeps a BOM and string-typed sources as strings", async () => {
    const nb = fixture("bom-string-sources.ipynb");
    expect(nb.startsWith("\ufeff")).toBe(true);
    await expectEdit(
      nb,
      { cell_id: "b0b0b0b1", old_source: "x = 41\nx + 1", new_source: 'x = 41\ny = "naïve ✓"\nx + 1\n' },
      '"source": "x = 41\\nx + 1"',
      '"source": "x = 41\\ny = \\"naïve ✓\\"\\nx + 1\\n"',
      0,
    );
    await expectEdit(
      nb,
      { cell_index: 1, old_source: "Résumé: the answer is **42** ✓", new_source: "" },
      '"source": "Résumé: the answer is **42** ✓"',
      '"source": ""',
      1,
    );
  });

  it("follows a 2-space indent and keeps a missing final newline (nbformat 4.4, no ids)", async () => {
    const nb = fixture("legacy-v4.4.ipynb");
    expect(nb.endsWith("}")).toBe(true);
    await expectEdit(
      nb,
      { cell_index: 1, old_source: "def area(r):\n    return 3.14159 * r ** 2", new_source: "import math\n\ndef area(r):\n    return math.pi * r ** 2\n" },
      '"source": [\n        "def area(r):\\n",\n        "    return 3.14159 * r ** 2"\n      ]',
      '"source": [\n        "import math\\n",\n        "\\n",\n        "def area(r):\\n",\n        "    return math.pi * r ** 2\\n"\n      ]',
      1,
    );
    await expectEdit(
      nb,
      { cell_index: 2, old_source: "", new_source: "area(2)" },
      '"outputs": [],\n      "source": []',
      '"outputs": [],\n      "source": [\n        "area(2)"\n      ]',
      2,
    );
  });

  it("keeps an inline array inline and escapes non-ASCII in an ASCII-only file", async () => {
    const nb =
      '{"cells": [{"cell_type": "markdown", "metadata": {}, "source": ["Caf\\u00e9\\n", "menu"]}], ' +
      '"metadata": {}, "nbformat": 4, "nbformat_minor": 2}\n';
    await expectEdit(
      nb,
      { cell_index: 0, old_source: "Café\nmenu", new_source: "Thé ✓\nmenu\nprix" },
      '"source": ["Caf\\u00e9\\n", "menu"]',
      '"source": ["Th\\u00e9 \\u2713\\n", "menu\\n", "prix"]',
      0,
    );
  });
});

describe("notebook_edit: refusals change nothing", () => {
  const nb = fixture("analysis.ipynb");

  /** Runs a refused edit on `text` and returns its message, checking the bytes stayed identical. */
  async function refused(text: string | Buffer, args: Partial<Args>): Promise<string> {
    await t.put({ "nb.ipynb": text });
    const before = await bytesOf();
    const r = await edit({ old_source: "", new_source: "changed", ...args });
    expect(r.ok).toBe(false);
    expect(Buffer.compare(await bytesOf(), before)).toBe(0);
    return r.modelText;
  }

  it("needs exactly one selector", async () => {
    expect(await refused(nb, {})).toBe(
      "ERROR: notebook_edit needs exactly one cell selector: pass cell_index (0-based) or cell_id of the cell to change.",
    );
    expect(await refused(nb, { cell_index: 4, cell_id: "0f1e2d3c" })).toMatch(/^ERROR: pass exactly one of cell_index or cell_id, not both/);
    // An empty cell_id is no selector.
    expect(await refused(nb, { cell_id: "" })).toMatch(/^ERROR: notebook_edit needs exactly one cell selector/);
  });

  it("reports a missing cell by index or id", async () => {
    expect(await refused(nb, { cell_index: 7 })).toBe(
      "ERROR: nb.ipynb has no cell 7: cell_index 7 is outside the notebook cell range (it has 7 cells, cell_index 0 to 6). Read the notebook again to find the cell.",
    );
    expect(await refused(nb, { cell_id: "nope" })).toBe(
      'ERROR: cell id "nope" was not found in nb.ipynb. Read the notebook again and copy the cell\'s id, or select it with cell_index.',
    );
    expect(await refused(fixture("legacy-v4.4.ipynb"), { cell_id: "abc" })).toMatch(
      /cell id "abc" was not found in nb\.ipynb\. Its cells have no ids \(nbformat before 4\.5\): select the cell with cell_index\.$/,
    );
  });

  it("refuses a duplicate id", async () => {
    const dup = spliced(nb, '"id": "0f1e2d3c"', '"id": "a1b2c3d4"');
    expect(await refused(dup, { cell_id: "a1b2c3d4", old_source: "" })).toBe(
      'ERROR: ambiguous duplicate cell id "a1b2c3d4" in nb.ipynb (cells 1, 4). Select the cell with cell_index instead.',
    );
  });

  it("refuses a stale old_source and quotes the current one", async () => {
    const msg = await refused(nb, { cell_index: 1, old_source: "import pandas as pd\n" });
    expect(msg).toBe(
      'ERROR: stale source: old_source does not match the current source of cell 1 (id "a1b2c3d4") in nb.ipynb. ' +
        "Pass the cell's complete current source as old_source (read nb.ipynb again if it may have changed).\n" +
        'Current source of cell 1 (id "a1b2c3d4"):\nimport pandas as pd\nimport matplotlib.pyplot as plt\n\n%matplotlib inline',
    );
    // The joined array, not one of its elements, is the source.
    expect(await refused(nb, { cell_index: 1, old_source: "%matplotlib inline" })).toMatch(/does not match/);
  });

  it("refuses raw cells", async () => {
    expect(await refused(nb, { cell_id: "7b7b7b7b", old_source: ".. note:: exported for the report" })).toBe(
      'ERROR: cell 5 (id "7b7b7b7b") of nb.ipynb is a raw cell; notebook_edit edits only code and markdown cells. ' +
        "Use edit on the notebook's JSON for other cells.",
    );
  });

  it("refuses files that are not valid nbformat 4 notebooks", async () => {
    expect(await refused(nb.slice(0, -20), { cell_index: 4 })).toMatch(
      /^ERROR: nb\.ipynb is not a valid notebook: it is not valid JSON at line \d+, column \d+ \(\w+\)\. Read the file and repair it/,
    );
    expect(await refused(nb.replace('"nbformat": 4,', '"nbformat": 4, // hi\n'), { cell_index: 4 })).toMatch(/not valid JSON/);
    expect(await refused(nb.replace('"cell_type": "raw",', '"cell_type": "raw",,'), { cell_index: 4 })).toMatch(/not valid JSON/);
    expect(await refused('{"metadata": {}, "nbformat": 4, "nbformat_minor": 5}\n', { cell_index: 0 })).toBe(
      'ERROR: nb.ipynb is not a valid notebook: it has no "cells" array. notebook_edit edits Jupyter notebooks (nbformat 4); use edit for other JSON files.',
    );
    expect(await refused('[1, 2]\n', { cell_index: 0 })).toMatch(/the top level is not a JSON object/);
    expect(await refused('{"cells": []}\n', { cell_index: 0 })).toMatch(/no numeric "nbformat" field/);
    expect(await refused('{"metadata": {}, "nbformat": 3, "nbformat_minor": 0, "worksheets": []}\n', { cell_index: 0 })).toBe(
      "ERROR: nb.ipynb is an nbformat 3 notebook; notebook_edit edits only nbformat 4 and later. " +
        "Convert it with `jupyter nbconvert --to notebook`, or use edit on its JSON.",
    );
    expect(await refused(nb.replace('"cells": [', '"cells": {"x": [').replace('\n ],\n "metadata"', '\n ]},\n "metadata"'), { cell_index: 0 })).toMatch(/no "cells" array/);
  });

  it("refuses a cell without a usable source", async () => {
    const noSource = spliced(nb, '"outputs": [],\n   "source": []', '"outputs": []');
    expect(await refused(noSource, { cell_index: 4 })).toBe(
      'ERROR: nb.ipynb is not a valid notebook: cell 4 (id "0f1e2d3c") has no "source". Repair the cell with edit first.',
    );
    const numeric = spliced(nb, '"outputs": [],\n   "source": []', '"outputs": [],\n   "source": 7');
    expect(await refused(numeric, { cell_index: 4 })).toMatch(/the "source" of cell 4 \(id "0f1e2d3c"\) is neither a string nor an array of strings/);
    const twice = spliced(nb, '"outputs": [],\n   "source": []', '"outputs": [],\n   "source": [],\n   "source": []');
    expect(await refused(twice, { cell_index: 4 })).toMatch(/cell 4 has a repeated key/);
  });

  it("reports a missing file and a file that is not UTF-8", async () => {
    const r = await edit({ cell_index: 0, old_source: "", new_source: "x" }, "missing.ipynb");
    expect(r).toEqual({ ok: false, modelText: "ERROR: file not found: missing.ipynb" });
    expect(await refused(Buffer.from([0x7b, 0xff, 0x7d]), { cell_index: 0 })).toMatch(/is not a valid notebook: it is not UTF-8 text/);
  });
});

describe("notebook_edit through the stale-file guard (block)", () => {
  let s: GuardedSession | undefined;
  afterEach(async () => {
    await s?.cleanup();
    s = undefined;
  });

  it("is offered only when enabled", async () => {
    s = await guardedSession(() => undefined);
    expect(s.visible()).not.toContain("notebook_edit");
    await s.cleanup();
    s = await guardedSession((c) => (c.tools.notebook_edit_enabled = true));
    expect(s.visible()).toContain("notebook_edit");
  });

  it("needs a read first, refreshes after its own edit, and refuses after an outside change", async () => {
    s = await guardedSession((c) => {
      c.tools.stale_file = "block";
      c.tools.notebook_edit_enabled = true;
    });
    const original = fixture("analysis.ipynb");
    await s.put({ "nb.ipynb": original });
    const file = () => readFileSync(path.join(s!.cwd, "nb.ipynb"), "utf8");
    const args = { path: "nb.ipynb", cell_index: 4, old_source: "", new_source: "x = 1" };

    const blocked = await s.call("notebook_edit", args);
    expect(blocked.modelText).toBe("ERROR: stale_file: read nb.ipynb first");
    expect(file()).toBe(original);

    expect((await s.call("read", { path: "nb.ipynb" })).ok).toBe(true);
    const done = await s.call("notebook_edit", args);
    expect(done.ok, done.modelText).toBe(true);
    expect(done.modelText).toBe("OK: updated code cell id='0f1e2d3c' in nb.ipynb");

    // Its own edit counts as seen: a follow-up edit needs no new read.
    expect((await s.call("notebook_edit", { ...args, old_source: "x = 1", new_source: "x = 2" })).ok).toBe(true);

    await fsp.writeFile(path.join(s.cwd, "nb.ipynb"), original);
    const again = await s.call("notebook_edit", { ...args, old_source: "", new_source: "y" });
    expect(again.modelText).toBe("ERROR: stale_file: read nb.ipynb first");
    expect(file()).toBe(original);
  });
});

describe("notebook_edit refuses what is not a notebook", () => {
  it("a .json file with notebook content is not edited", async () => {
    const body = JSON.stringify({ cells: [{ cell_type: "code", source: "x = 1", metadata: {}, outputs: [] }], metadata: {}, nbformat: 4, nbformat_minor: 5 });
    await t.put({ "data.json": body });
    const r = await notebookEditTool.run({ path: "data.json", cell_index: 0, old_source: "x = 1", new_source: "x = 2" }, t.ctx);
    expect(r).toEqual({
      ok: false,
      modelText: "ERROR: notebook_edit needs a .ipynb path: data.json is not a Jupyter notebook. Use edit to change other files.",
    });
    expect(await fsp.readFile(path.join(t.cwd, "data.json"), "utf8")).toBe(body);
  });
});
