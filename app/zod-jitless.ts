// zod compiles a parser for an object schema on its first parse; a run parses
// most of its schemas (config, profile, tool arguments) once or a few times,
// so the compile costs more than it saves. Each schema reads the setting as
// it is created, so app/cli.ts imports this module, and waits for it, before
// the modules that create them: set later, the schemas created before it (the
// config's, the profile's) still compiled their parsers.

import { config } from "zod";

config({ jitless: true });
