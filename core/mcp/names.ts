// The name an MCP tool is exposed under: `mcp_<server>_<tool>`, each part
// with anything but letters, digits, `_` and `-` turned into `_`, so the
// name is one a provider accepts (at most 64 characters). Permission rules
// name the tool by this full name.

const MAX_NAME = 64;

const clean = (s: string): string => s.replace(/[^A-Za-z0-9_-]/g, "_");

export function mcpToolName(server: string, tool: string): string {
  const name = `mcp_${clean(server)}_${clean(tool)}`;
  return name.length <= MAX_NAME ? name : name.slice(0, MAX_NAME);
}
