// `yuj schema events|ops`: the JSON Schema of the events `--output jsonl`
// prints, or of the operations `--input jsonl` reads.

import { jsonSchemaText, SCHEMA_NAMES, type SchemaName } from "../../core/schemas.js";
import type { ParsedArgs } from "../args.js";
import { UsageError } from "../args.js";

export function schemaCommand(args: ParsedArgs): number {
  const [name, ...rest] = args.positionals;
  if (name === undefined || rest.length || !(SCHEMA_NAMES as readonly string[]).includes(name)) {
    throw new UsageError(`usage: yuj schema ${SCHEMA_NAMES.join("|")} (the JSON Schema of --output jsonl's events or --input jsonl's operations)`);
  }
  process.stdout.write(jsonSchemaText(name as SchemaName));
  return 0;
}
