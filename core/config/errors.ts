// A configuration problem: every issue names the file, the key and what to do.

export interface ConfigIssue {
  file: string; // or "command-line options"
  key?: string; // dotted, e.g. `permissions.rules[2].action`
  message: string; // what is wrong and what to do, without the file prefix
  line?: number; // TOML syntax errors only
  column?: number;
}

export class ConfigError extends Error {
  override name = "ConfigError";
  readonly issues: ConfigIssue[];
  constructor(issues: ConfigIssue[]) {
    super(issues.map((i) => `config error in ${i.file}: ${i.message}`).join("\n"));
    this.issues = issues;
  }
}
