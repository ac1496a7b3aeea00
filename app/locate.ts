// Where yuj's own data lives (profiles, fixtures). The bundle sits in dist/
// and the sources in app/: both are one level below the package root.

import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

export const packageRoot = join(dirname(fileURLToPath(import.meta.url)), "..");
export const profilesRoot = join(packageRoot, "profiles");
export const fixturesRoot = join(packageRoot, "fixtures");
