// Words the code-mode tools share.

export const NO_CELLS = "ERROR: code mode is off in this session ([tools].code_mode = true turns it on)";
