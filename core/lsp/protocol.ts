// The few Language Server Protocol shapes yuj reads and writes. Positions
// are zero-based; `character` counts UTF-16 code units, the protocol's default.

interface Position {
  line: number;
  character: number;
}

interface Range {
  start: Position;
  end: Position;
}

export interface Location {
  uri: string;
  range: Range;
}

export interface LocationLink {
  targetUri: string;
  targetRange: Range;
  targetSelectionRange: Range;
}

/** 1 error, 2 warning, 3 information, 4 hint. */
type Severity = 1 | 2 | 3 | 4;

export interface Diagnostic {
  range: Range;
  severity?: Severity;
  code?: string | number;
  source?: string;
  message: string;
}

export interface PublishDiagnosticsParams {
  uri: string;
  version?: number | null;
  diagnostics: Diagnostic[];
}

/** Hierarchical symbols (textDocument/documentSymbol with hierarchical support). */
export interface DocumentSymbol {
  name: string;
  detail?: string;
  kind: number;
  range: Range;
  selectionRange: Range;
  children?: DocumentSymbol[];
}

/** Flat symbols, from servers that do not nest them. */
export interface SymbolInformation {
  name: string;
  kind: number;
  location: Location;
  containerName?: string;
}

/** SymbolKind, as the protocol numbers it, in words. */
const SYMBOL_KINDS = [
  "file", "module", "namespace", "package", "class", "method", "property", "field", "constructor", "enum",
  "interface", "function", "variable", "constant", "string", "number", "boolean", "array", "object", "key",
  "null", "enum member", "struct", "event", "operator", "type parameter",
];

export function symbolKindName(kind: number): string {
  return SYMBOL_KINDS[kind - 1] ?? "symbol";
}

export const SEVERITY_RANK = { error: 1, warning: 2, information: 3, hint: 4 } as const;
