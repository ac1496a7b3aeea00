// Changes yuj makes inside the project from the host are never led out of
// it: a directory on the way replaced by a link to a host directory, or the
// file replaced by another, and nothing is changed.

import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { clearExecuteAt, readFileAt, removeEntry, replaceFileAt } from "../../core/sandbox/pinned-dir.js";
import { cleanupAll, tempDir } from "./support.js";

afterEach(cleanupAll);

describe("pinned-dir", () => {
  it("changes the file judged, and refuses once a directory on the way or the file itself was swapped", () => {
    const project = tempDir("yuj-pin-project-");
    const host = tempDir("yuj-pin-host-");
    fs.mkdirSync(path.join(project, "a"));
    const file = path.join(project, "a", "config");
    fs.writeFileSync(file, "mine\n", { mode: 0o755 });
    const id = fs.lstatSync(file, { bigint: true });
    expect(readFileAt(project, file, id)?.toString()).toBe("mine\n");
    expect(replaceFileAt(project, file, id, Buffer.from("fixed\n"))).toBe(true);
    expect(fs.readFileSync(file, "utf8")).toBe("fixed\n");
    expect(fs.statSync(file).mode & 0o777).toBe(0o755);

    // The directory on the way becomes a link to a host directory holding a file of that name.
    const now = fs.lstatSync(file, { bigint: true });
    fs.writeFileSync(path.join(host, "config"), "host\n", { mode: 0o755 });
    fs.renameSync(path.join(project, "a"), path.join(project, "a-moved"));
    fs.symlinkSync(host, path.join(project, "a"));
    const hostId = fs.lstatSync(path.join(host, "config"), { bigint: true });
    for (const target of [now, hostId]) {
      expect(replaceFileAt(project, file, target, Buffer.from("x\n"))).toBe(false);
      expect(clearExecuteAt(project, file, target)).toBe(false);
      expect(removeEntry(project, file, target)).toBe(false);
      expect(readFileAt(project, file, target)).toBeUndefined();
    }
    expect(fs.readFileSync(path.join(host, "config"), "utf8")).toBe("host\n");
    expect(fs.statSync(path.join(host, "config")).mode & 0o777).toBe(0o755);

    // Back in place, but the file is another one now.
    fs.unlinkSync(path.join(project, "a"));
    fs.renameSync(path.join(project, "a-moved"), path.join(project, "a"));
    fs.rmSync(file);
    fs.writeFileSync(file, "other\n");
    expect(replaceFileAt(project, file, now, Buffer.from("x\n"))).toBe(false);
    expect(removeEntry(project, file, now)).toBe(false);
    expect(fs.readFileSync(file, "utf8")).toBe("other\n");
  });
});
