// The bash tokenizer/parser now lives in core/shell/ (the permission engine
// needs it too); this file keeps the old import path working.

export * from "../../core/shell/index.js";
